// libFuzzer target: bytes as a URDF and as an SDFormat file, then compiled and prepared. Every
// failure must be an InterchangeError (import) or a named setup error, never a crash. Seeds:
// tests/data/interchange (including hostile/). Built only where liburdfdom and libsdformat are
// (the CI's ASan build disables pkg-config libraries, so run it by hand:
//   fuzz/fuzz_interchange corpus tests/data/interchange tests/data/interchange/hostile).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"
#include "interchange/sdf.hpp"
#include "interchange/urdf.hpp"

namespace {
void try_prepare(const articula::MechanismSpec& spec) {
  try {
    articula::prepare(spec);
  } catch (const std::exception&) {  // named refusals: not assembled, not connected, ...
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;
  try {
    try_prepare(articula::import_urdf(text, "fuzz.urdf", warnings));
  } catch (const articula::InterchangeError&) {
  }
  try {
    try_prepare(articula::import_sdf(text, "fuzz.sdf", warnings));
  } catch (const articula::InterchangeError&) {
  }
  return 0;
}
