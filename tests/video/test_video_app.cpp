// articula --export-video under Xvfb: the four-bar's first simulated second at 10 fps and
// 320x240 decodes to 10 frames of that size, and its first and last frames differ (the crank
// turned). Bad options are usage errors. With --size the 3D view is laid out at that size, so the
// picture keeps its proportions (issue 22: it used to be grabbed on screen and stretched).
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "tests/video/video_probe.hpp"

using namespace articula::test;

namespace {
const std::string kApp = ARTICULA_BINARY_DIR "/app/articula";
const std::string kFourbar = ARTICULA_SOURCE_DIR "/samples/fourbar.json";

int run(const std::string& args) {
  const int rc = std::system((kApp + " " + args + " > /dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
}  // namespace

TEST_CASE("articula --export-video writes the requested frames, size and motion", "[video-app]") {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("fourbar_" + std::to_string(::getpid()) + ".mp4"))
          .string();
  REQUIRE(run("--export-video " + out + " --run-for 1 --fps 10 --size 320x240 " + kFourbar) == 0);
  const Probe p = probe(out);
  CHECK(p.codec == "h264");
  CHECK(p.width == 320);
  CHECK(p.height == 240);
  CHECK(p.frames == 10);
  const double d = mean_abs_difference(gray_frame(out, 0), gray_frame(out, 9));
  CHECK(d > 0.5);  // the mechanism moved; identical renders would give ~0
  std::filesystem::remove(out);
}

namespace {
// Width / height of the bounding box of the four-bar's orange coupler (R > 200, 100 < G < 200,
// B < 110) in the first frame of an export at width x height; -1 when no orange pixel is found.
double couplerAspect(int width, int height) {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("aspect_" + std::to_string(::getpid()) + ".mp4"))
          .string();
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (run("--export-video " + out + " --run-for 0.2 --fps 10 --size " + size + " " + kFourbar) != 0)
    return -1;
  const Probe p = probe(out);
  CHECK(p.width == width);  // the requested size stays exact
  CHECK(p.height == height);
  const std::vector<unsigned char> rgb = rgb_frame(out, 0);
  std::filesystem::remove(out);
  if (rgb.size() != std::size_t(width) * height * 3) return -1;
  int x0 = width, x1 = -1, y0 = height, y1 = -1;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const unsigned char* c = &rgb[(std::size_t(y) * width + x) * 3];
      // The coupler's orange is about (250, 175, 65); the red x axis drawn over the grid comes
      // out near (219, 101, 100), so green must stay well above 100.
      if (c[0] > 200 && c[1] > 125 && c[1] < 200 && c[2] < 110) {
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
      }
    }
  return x1 < 0 ? -1 : double(x1 - x0 + 1) / double(y1 - y0 + 1);
}
}  // namespace

TEST_CASE("articula --export-video keeps the picture's proportions at any --size", "[video-app]") {
  const double wide = couplerAspect(640, 360);
  const double square = couplerAspect(400, 400);
  const double tall = couplerAspect(300, 480);
  REQUIRE(wide > 0);
  REQUIRE(square > 0);
  REQUIRE(tall > 0);
  // The same link seen by the same camera direction: its box's proportions do not depend on the
  // frame's. 5 % covers the link's thickness and anti-aliasing at the different zooms; a stretch
  // from the view's on-screen aspect to the frame's changed them by 40 % or more.
  CHECK(wide == Approx(square).epsilon(0.05));
  CHECK(tall == Approx(square).epsilon(0.05));
}

TEST_CASE("articula --export-video: slow motion as a GIF, the whole window as WebM",
          "[video-app]") {
  const auto tmp = std::filesystem::temp_directory_path();
  const std::string pid = std::to_string(::getpid());
  // --speed 0.5: 0.5 simulated seconds at 10 fps last one second of video, round(0.5 * 10 / 0.5)
  // = 10 frames (frame k shows t = k * 0.05 s).
  const std::string gif = (tmp / ("slow_" + pid + ".gif")).string();
  REQUIRE(run("--export-video " + gif + " --run-for 0.5 --fps 10 --speed 0.5 --size 200x150 " +
              kFourbar) == 0);
  const Probe g = probe(gif);
  CHECK(g.codec == "gif");
  CHECK(g.width == 200);
  CHECK(g.height == 150);
  CHECK(g.frames == 10);
  CHECK(mean_abs_difference(gray_frame(gif, 0), gray_frame(gif, 9)) > 0.5);
  std::filesystem::remove(gif);
  // --video-window films the window with its plots: 5 frames of 0.5 s at 10 fps.
  const std::string webm = (tmp / ("window_" + pid + ".webm")).string();
  REQUIRE(run("--export-video " + webm + " --run-for 0.5 --fps 10 --video-window --size 480x300 " +
              kFourbar) == 0);
  const Probe w = probe(webm);
  CHECK(w.codec == "vp9");
  CHECK(w.width == 480);
  CHECK(w.height == 300);
  CHECK(w.frames == 5);
  CHECK(mean_abs_difference(gray_frame(webm, 0), gray_frame(webm, 4)) > 0.5);
  std::filesystem::remove(webm);
}

TEST_CASE("articula --export-video refuses bad options", "[video-app]") {
  CHECK(run("--export-video x.mp4 --fps 0 " + kFourbar) == 1);
  CHECK(run("--export-video x.mp4 --speed -1 " + kFourbar) == 1);
  CHECK(run("--export-video x.mp4") == 1);  // no project
  CHECK(run("--export-video /tmp/x.avi --run-for 0.1 " + kFourbar) == 3);
}
