// Inputs the fuzzer (fuzz/fuzz_project.cpp) once broke, replayed through the same pipeline:
// each must now be rejected with a diagnosis or run with finite results, never crash or let an
// unexpected exception out. One file per finding in tests/data/fuzz/, named after what it found.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/project_pipeline.hpp"
#include "tests/support/fixtures.hpp"

namespace fs = std::filesystem;

namespace {}  // namespace

TEST_CASE("fuzzer findings stay fixed", "[io][fuzz]") {
  int replayed = 0;
  for (const char* dir : {"/tests/data/fuzz", "/samples"}) {  // findings, then the seeds
    for (const auto& e : fs::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + dir)) {
      if (e.path().extension() == ".md") continue;
      INFO(e.path().filename().string());
      std::string defect;
      CHECK_NOTHROW(
          defect = articula::fuzz::run_project_pipeline(articula::test::file_contents(e.path())));
      CHECK(defect.empty());
      ++replayed;
    }
  }
  CHECK(replayed > 14);
}
