#include "app/cli_fg_simulate.hpp"

#include <cstdio>
#include <iostream>

#include "app/cli_output.hpp"
#include "core/factor_graph/fixed_lag_output.hpp"
#include "core/io/run_setup.hpp"

namespace articula {

CLI::App* add_fg_simulate_command(CLI::App& app, FgSimulateArgs& a) {
  auto* cmd = app.add_subcommand(
      "fg-simulate",
      "forward simulation as a fixed-lag factor-graph smoother in dependent coordinates "
      "(Blanco-Claraco et al.; free motion under gravity only) and write CSV: t, J.q, J.qd of "
      "the tree joints, loop_error");
  cmd->add_option("FILE", a.file, "project file")->required();
  cmd->add_option("--step", a.step, "time step, s (default: the file's, else 1 ms)");
  cmd->add_option("--duration", a.duration, "simulated time, s (default: the file's, else 5 s)");
  cmd->add_option("--window", a.window, "time steps solved together (Nw, default 2)");
  cmd->add_option("--sigma", a.sigma,
                  "sigma of every factor: loop closure, velocity constraint, dynamics, "
                  "integration (default 1e-3)");
  cmd->add_option("--output", a.output, "CSV file to write (stdout without it)");
  cmd->add_flag("--quiet", a.quiet, "no summary on stderr");
  return cmd;
}

int run_fg_simulate(const FgSimulateArgs& a) {
  LoadResult loaded = load_project(a.file);
  for (const std::string& w : loaded.warnings) std::cerr << "warning: " << w << '\n';
  const Mechanism mech = prepare_project(loaded.spec);
  fg::FixedLagOverrides over;
  over.step = a.step;
  over.duration = a.duration;
  over.window = a.window;
  over.sigma = a.sigma;
  const fg::FixedLagOptions opt = fg::fixed_lag_options(mech, over);
  const fg::FixedLagResult r = fg::fixed_lag_forward(mech, opt);  // refusals before any output
  if (!a.quiet)
    std::fprintf(stderr, "fg-simulate: %ld steps, window %d, %d LM iterations, max loop error %g\n",
                 static_cast<long>(r.t.size() - 1), opt.window, r.iterations, r.max_loop_error);
  write_output(a.output, [&](std::ostream& out) { fg::write_fixed_lag_csv(mech, r, out); });
  return 0;
}

}  // namespace articula
