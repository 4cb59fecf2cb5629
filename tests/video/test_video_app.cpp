// articula --export-video under Xvfb: the four-bar's first simulated second at 10 fps and
// 320x240 decodes to 10 frames of that size, and its first and last frames differ (the crank
// turned). Bad options are usage errors.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

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

TEST_CASE("articula --export-video refuses bad options", "[video-app]") {
  CHECK(run("--export-video x.mp4 --fps 0 " + kFourbar) == 1);
  CHECK(run("--export-video x.mp4 --speed -1 " + kFourbar) == 1);
  CHECK(run("--export-video x.mp4") == 1);  // no project
  CHECK(run("--export-video /tmp/x.avi --run-for 0.1 " + kFourbar) == 3);
}
