#pragma once
// The options that simulate and report share: the project file and what of its "simulation"
// object the command line overrides (duration, step, integrator, solver, sample interval).
#include <CLI/CLI.hpp>
#include <string>

#include "core/io/run_setup.hpp"

namespace articula {

struct RunArgs {
  std::string file, output, integrator, solver;
  double duration = -1, step = -1, sample = 0;  // s; negative: the file's value
  bool quiet = false;
};

// Adds FILE, --duration, --step, --integrator and --solver to cmd, stored in args.
void add_run_options(CLI::App* cmd, RunArgs& args);
// The overrides the options set (unset ones keep the file's values), for resolve_run_options.
RunOverrides run_overrides(const RunArgs& args);

}  // namespace articula
