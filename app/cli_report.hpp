#pragma once
// articula-cli report (contract-additions-2 §4): its options and the run. The computation is
// core/sim/design_report; this file only reads the command line and writes the JSON.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/cli_run_args.hpp"

namespace articula {

struct ReportArgs : RunArgs {
  std::vector<std::string> points;  // NAME=BODY@x,y,z
};

// Adds the `report` subcommand to app, its options stored in args.
CLI::App* add_report_command(CLI::App& app, ReportArgs& args);
// Runs it: JSON to --output (written whole or not at all) or stdout. Exceptions as simulate's
// (std::invalid_argument for a bad --point: exit status 2 in main).
int run_report(const ReportArgs& args);

}  // namespace articula
