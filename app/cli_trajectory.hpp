#pragma once
// articula-cli trajectory-inverse (issue 19, Blanco-Claraco §7.2): the actuator forces that make
// a mechanism follow sampled targets of its motion-driven joints, by the factor-graph batch
// smoother and the instant dynamics graph (core/factor_graph/trajectory). This file reads the
// command line and the targets CSV and writes the result CSV.
#include <CLI/CLI.hpp>
#include <string>

namespace articula {

struct TrajectoryArgs {
  std::string file, targets, output, order = "aba";
  double sigma_prior = 0.0, sigma_integration = 1e-3, sigma_jerk = 0.0;
  bool quiet = false;
};

CLI::App* add_trajectory_command(CLI::App& app, TrajectoryArgs& args);
// Targets: `t` then one column per motion-driven joint (its name), every cell given, rows at
// t = 0, h, 2h, ... (MeasurementError naming the line and column otherwise). Output: `t`, then
// per driven joint J: J.q, J.qd, J.qdd (the smoothed motion) and J.tau (the actuator force),
// written whole or not at all; the maximum loop error on stderr unless quiet.
int run_trajectory(const TrajectoryArgs& args);

}  // namespace articula
