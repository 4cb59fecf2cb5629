// articula_video without a window: synthetic frames (a bright square moving over a gradient)
// encoded as MP4, WebM and GIF; ffprobe reads back the codec, size and frame count, and the
// first and last frames decode to different pictures.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/video/video_probe.hpp"
#include "video/video_encoder.hpp"

using namespace articula;
using namespace articula::test;

namespace {
// BGRA frame k of n: the square's x position moves from left to right.
std::vector<std::uint8_t> frame(int w, int h, int k, int n) {
  std::vector<std::uint8_t> px(4 * w * h);
  const int x0 = (w - 40) * k / std::max(1, n - 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &px[4 * (y * w + x)];
      const bool square = x >= x0 && x < x0 + 40 && y >= h / 2 - 20 && y < h / 2 + 20;
      p[0] = square ? 250 : static_cast<std::uint8_t>(x * 100 / w);
      p[1] = square ? 250 : 30;
      p[2] = square ? 250 : static_cast<std::uint8_t>(y * 100 / h);
      p[3] = 255;
    }
  return px;
}

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name))
      .string();
}
}  // namespace

TEST_CASE("frames encode to MP4, WebM and GIF with the requested size and count", "[video]") {
  for (const auto& [ext, codec] :
       {std::pair<std::string, std::string>{".mp4", "h264"}, {".webm", "vp9"}, {".gif", "gif"}}) {
    INFO(ext);
    const std::string path = temp_file("moving" + ext);
    const int n = 12;
    {
      VideoEncoder enc(path, 161, 120, 24);  // odd width: rounded down to 160
      for (int k = 0; k < n; ++k) {
        const auto px = frame(320, 240, k, n);  // scaled down by the encoder
        enc.add_frame(px.data(), 320, 240, 4 * 320);
      }
      enc.finish();
      CHECK(enc.frames() == n);
    }
    const Probe p = probe(path);
    CHECK(p.codec == codec);
    CHECK(p.width == 160);
    CHECK(p.height == 120);
    CHECK(p.frames == n);
    const double d = mean_abs_difference(gray_frame(path, 0), gray_frame(path, n - 1));
    CHECK(d > 5);  // the square moved across: gray levels differ by far more than coding noise
    std::filesystem::remove(path);
  }
}

TEST_CASE("an unfinished or refused video leaves no file behind", "[video]") {
  const std::string path = temp_file("cancelled.mp4");
  {
    VideoEncoder enc(path, 64, 48, 10);
    const auto px = frame(64, 48, 0, 1);
    enc.add_frame(px.data(), 64, 48, 4 * 64);
  }  // no finish(): cancelled
  CHECK(!std::filesystem::exists(path));
  for (const auto& dir :
       std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
    CHECK(dir.path().string().find(std::to_string(::getpid()) + "_cancelled") == std::string::npos);
  CHECK_THROWS_WITH(VideoEncoder(temp_file("clip.avi"), 64, 48, 10),
                    Catch::Contains("unknown video extension"));
  CHECK_THROWS_AS(VideoEncoder("/nonexistent-dir/clip.mp4", 64, 48, 10), VideoError);
}
