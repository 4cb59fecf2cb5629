#pragma once
// Writing a video from frames with FFmpeg's libraries (libavformat, libavcodec, libswscale): the
// container and codec follow the file's extension, .mp4 -> H.264 (libx264, yuv420p, crf 20),
// .webm -> VP9 (libvpx-vp9), .gif -> GIF (rgb8, dithered; for small clips). Frames are 32-bit
// BGRA rows (QImage::Format_RGB32 / ARGB32 in memory on little-endian machines), scaled to the
// video size. The file is written next to the target and renamed by finish(), so a cancelled or
// failed export leaves nothing behind. No Qt: usable and testable headless.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace articula {

struct VideoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class VideoEncoder {
 public:
  // width and height are rounded down to even numbers (4:2:0 chroma); fps > 0. Throws VideoError
  // (unknown extension, no encoder, cannot write).
  VideoEncoder(const std::string& path, int width, int height, int fps);
  ~VideoEncoder();  // without finish(): the partial file is removed
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;

  void add_frame(const std::uint8_t* bgra, int width, int height, int stride);
  void finish();  // flushes the encoder, writes the trailer, renames into place
  int frames() const { return frames_; }
  int width() const;
  int height() const;

  struct State;  // the libav contexts (video_encoder.cpp)

 private:
  std::unique_ptr<State> s_;
  int frames_ = 0;
};

}  // namespace articula
