#pragma once
// articula-cli fg-simulate (contract-additions-2 extension, issue 19): the fixed-lag factor-graph
// forward simulation (core/factor_graph/fixed_lag_forward) written as CSV. The computation and
// the CSV are core's (fixed_lag_output); this file only reads the command line and writes.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace articula {

struct FgSimulateArgs {
  std::string file, output;
  std::optional<double> step, duration;  // unset: the file's simulation block
  int window = 2;
  double sigma = 1e-3;
  bool quiet = false;
};

// Adds the `fg-simulate` subcommand to app, its options stored in args.
CLI::App* add_fg_simulate_command(CLI::App& app, FgSimulateArgs& args);
// Runs it: CSV to --output (written whole or not at all) or stdout; unless --quiet, one summary
// line on stderr (steps, LM iterations, max loop error). Throws SetupError for what the solver
// refuses (exit status 3 in main), std::invalid_argument for a bad option value (exit 2).
int run_fg_simulate(const FgSimulateArgs& args);

}  // namespace articula
