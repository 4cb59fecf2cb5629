#pragma once
// Where articula-cli's commands write their results.
#include <functional>
#include <ostream>
#include <string>

namespace articula {

// Fills `path` by `write`, through a temporary file beside it that is renamed at the end, so a
// failed run (an exception from `write`) or a failed write leaves nothing behind; an empty path
// writes to stdout.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace articula
