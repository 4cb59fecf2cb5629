// The hostile-mechanism catalogue through articula-cli: invalid mechanisms exit with status 3
// (project-format-v1) and the diagnosis on stderr; a failed run leaves no output file.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {
struct Result {
  int status = -1;
  std::string err;
};

Result simulate(const std::string& file, const std::string& options) {
  const fs::path dir =
      fs::temp_directory_path() / ("articula_hostile_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cmd = "'" ARTICULA_BINARY_DIR
                          "/app/articula-cli' simulate '" ARTICULA_SOURCE_DIR
                          "/tests/data/hostile/" +
                          file + "' " + options + " --output '" + (dir / "out.csv").string() +
                          "' 2> '" + (dir / "err.txt").string() + "'";
  const int rc = std::system(cmd.c_str());
  Result r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream in(dir / "err.txt");
  std::ostringstream os;
  os << in.rdbuf();
  r.err = os.str();
  CHECK_FALSE(fs::exists(dir / "out.csv"));  // every case here fails: nothing written
  fs::remove_all(dir);
  return r;
}
}  // namespace

TEST_CASE("hostile mechanisms through the CLI exit with status 3 and the diagnosis",
          "[cli][hostile]") {
  const struct {
    const char* file;
    const char* options;
    const char* diagnosis;
  } cases[] = {
      {"loop_cannot_close.json", "", "cannot close the loop at joint 'B'"},
      {"dead_point.json", "--duration 2", "dead point"},
      {"locked.json", "", "the mechanism is locked (mobility 0"},
      {"inconsistent_drives.json", "", "'O1' 'O3' over-determine the mechanism at t = 0"},
      {"zero_mass_leaf.json", "", "the mass matrix is singular: joint(s) 'elbow' move no mass"},
      {"stiff_spring.json", "", "is too stiff for rk4 with step 0.001 s"},
      {"nan_drive.json", "", "the force drive on joint 'pivot' gives a non-finite force"},
      {"drive_blows_up.json", "", "at t = 0.481 the motion law of joint 'A0' moves it by 2.63"},
      {"drive_exp.json", "", "at t = 0.003 the motion law of joint 'A0' moves it by 12.69"},
  };
  for (const auto& c : cases) {
    const Result r = simulate(c.file, c.options);
    INFO(c.file << ": " << r.err);
    CHECK(r.status == 3);
    CHECK_THAT(r.err, Contains(c.diagnosis));
  }
  // A run of more than 1e8 steps, or a step below 1e-9 s, is refused as input (status 2) with
  // its size, rather than running for hours without a word.
  for (const char* options : {"--step 1e-12", "--step 1e-6 --duration 1000"}) {
    const Result r = simulate("stiff_spring.json", options);
    INFO(options << ": " << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("/simulation/step: "));
    CHECK_THAT(r.err, Contains("a step below 1e-9 s or more than 1e8 steps is refused"));
  }
  CHECK_THAT(simulate("stiff_spring.json", "--step 1e-12 --duration 1").err,
             Contains("1e+12 steps (duration 1 s, step 1e-12 s)"));
  // The stiff spring is announced before the run diverges.
  const Result stiff = simulate("stiff_spring.json", "");
  CHECK_THAT(stiff.err, Contains("warning: the spring-damper on joint 'pivot'"));
}
