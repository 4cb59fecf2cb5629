// libFuzzer target: bytes -> parse and validate -> compile -> assemble -> 10 simulation steps
// (fuzz/project_pipeline.hpp). A crash, hang, sanitizer report, unexpected exception type or a
// non-finite result that escapes the diagnostics is a finding. Run: scripts/ci-sanitizers.sh fuzz.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/project_pipeline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;  // project files this large add nothing but time
  const std::string bad =
      articula::fuzz::run_project_pipeline(std::string(reinterpret_cast<const char*>(data), size));
  if (!bad.empty()) {
    std::fprintf(stderr, "fuzz_project: %s\n", bad.c_str());
    std::abort();
  }
  return 0;
}
