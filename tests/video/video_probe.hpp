#pragma once
// Reading exported videos back with FFmpeg's command-line tools (Debian ffmpeg): ffprobe for the
// stream's size and decoded frame count, ffmpeg for one decoded frame as 8-bit gray pixels.
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace articula::test {

inline std::string run_output(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0) out.append(buf.data(), n);
  return out;
}

struct Probe {
  int width = 0, height = 0, frames = 0;
  std::string codec;
};

inline Probe probe(const std::string& file) {
  const std::string out = run_output(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=codec_name,width,height,nb_read_frames -of csv=p=0 '" +
      file + "'");
  Probe p;
  char codec[64] = "";
  std::sscanf(out.c_str(), "%63[^,],%d,%d,%d", codec, &p.width, &p.height, &p.frames);
  p.codec = codec;
  return p;
}

// Frame k decoded to gray, width x height bytes (empty when it cannot be decoded).
inline std::vector<unsigned char> gray_frame(const std::string& file, int k) {
  const std::string out =
      run_output("ffmpeg -v error -i '" + file + "' -vf 'select=eq(n\\," + std::to_string(k) +
                 ")' -vsync 0 -frames:v 1 -f rawvideo -pix_fmt gray -");
  return {out.begin(), out.end()};
}

// Frame k decoded to 8-bit RGB, width x height x 3 bytes (empty when it cannot be decoded).
inline std::vector<unsigned char> rgb_frame(const std::string& file, int k) {
  const std::string out =
      run_output("ffmpeg -v error -i '" + file + "' -vf 'select=eq(n\\," + std::to_string(k) +
                 ")' -vsync 0 -frames:v 1 -f rawvideo -pix_fmt rgb24 -");
  return {out.begin(), out.end()};
}

inline double mean_abs_difference(const std::vector<unsigned char>& a,
                                  const std::vector<unsigned char>& b) {
  if (a.size() != b.size() || a.empty()) return -1;
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(int(a[i]) - int(b[i]));
  return sum / a.size();
}

}  // namespace articula::test
