#include "app/cli_trajectory.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "app/cli_output.hpp"
#include "core/estimation/measurement_log.hpp"
#include "core/factor_graph/trajectory.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "core/sim/runner.hpp"

namespace articula {

namespace {
// The targets as (N + 1) x drives samples at t = k h; h from the first two rows.
MatX read_targets(const std::string& path, const std::vector<std::string>& joints, double& h) {
  std::string list;
  for (const std::string& j : joints) list += (list.empty() ? "" : ", ") + j;
  const MeasurementLog log = read_columns(
      path, joints, "not a motion-driven joint of the project; the targets are: " + list);
  auto fail = [&](Eigen::Index row, const std::string& column, const std::string& problem) {
    throw MeasurementError(path + ": line " + std::to_string(log.lines[row]) + ", column '" +
                           column + "': " + problem);
  };
  if (log.t.size() < 3) fail(log.t.size() - 1, "t", "at least three rows are needed");
  for (std::size_t c = 0; c < joints.size(); ++c)
    for (Eigen::Index k = 0; k < log.t.size(); ++k)
      if (log.present(k, static_cast<Eigen::Index>(c)) == 0.0)
        fail(k, joints[c], "the target is missing (every row needs every driven joint)");
  if (std::abs(log.t[0]) > 1e-12) fail(0, "t", "the targets must start at t = 0");
  h = log.t[1];
  for (Eigen::Index k = 2; k < log.t.size(); ++k)
    if (std::abs(log.t[k] - k * h) > 1e-6 * h)
      fail(k, "t",
           "the rows must be evenly spaced (t = " + format_number(k * h) + " s expected, " +
               format_number(log.t[k]) + " s given)");
  return log.values;
}

void write_result(std::ostream& out, const std::vector<std::string>& joints,
                  const fg::TrajectoryInverseResult& r) {
  out << 't';
  for (const std::string& j : joints)
    out << ',' << j << ".q," << j << ".qd," << j << ".qdd," << j << ".tau";
  out << '\n';
  std::string line;
  for (Eigen::Index k = 0; k < r.t.size(); ++k) {
    line = format_number(r.t[k]);
    for (std::size_t c = 0; c < joints.size(); ++c) {
      const fg::SmoothedCoordinate& z = r.z[c];
      for (double v : {z.z[k], z.zd[k], z.zdd[k], r.force(k, static_cast<Eigen::Index>(c))})
        line.append(",").append(format_number(v));
    }
    out << line << '\n';
  }
}
}  // namespace

CLI::App* add_trajectory_command(CLI::App& app, TrajectoryArgs& a) {
  auto* cmd = app.add_subcommand(
      "trajectory-inverse",
      "actuator forces that make the motion-driven joints follow sampled targets (factor-graph "
      "batch smoother, then the instant dynamics graph at every step)");
  cmd->add_option("FILE", a.file, "project file with motion drives")->required();
  cmd->add_option("TARGETS", a.targets,
                  "CSV: t (0, h, 2h, ...), then one column per motion-driven joint")
      ->required();
  cmd->add_option("--output", a.output, "CSV to write (stdout without it)");
  cmd->add_option("--sigma-prior", a.sigma_prior,
                  "sigma of the targets (rad or m); 0: followed exactly (the default)");
  cmd->add_option("--sigma-integration", a.sigma_integration,
                  "sigma of the trapezoidal integration factors (default 1e-3)");
  cmd->add_option("--sigma-jerk", a.sigma_jerk,
                  "sigma of the smoothness prior on the change of acceleration per step (default: "
                  "10^6 times the largest the targets show: weak)");
  cmd->add_option("--order", a.order, "elimination order of the instant graph: rnea, aba, crba");
  cmd->add_flag("--quiet", a.quiet, "no summary on stderr");
  return cmd;
}

int run_trajectory(const TrajectoryArgs& a) {
  const fg::EliminationOrder order = fg::order_from_name(a.order);
  LoadResult loaded = load_project(a.file);
  for (const std::string& w : loaded.warnings) std::cerr << "warning: " << w << '\n';
  const Mechanism mech = prepare_project(loaded.spec);
  const std::vector<std::string> joints = fg::driven_joint_names(mech);
  double h = 0.0;
  const MatX samples = read_targets(a.targets, joints, h);
  const std::optional<double> jerk =  // 0, the flag's default: the weak prior
      a.sigma_jerk == 0 ? std::nullopt : std::optional<double>(a.sigma_jerk);
  const fg::SmootherOptions opt =
      fg::trajectory_options(a.sigma_prior, a.sigma_integration, jerk, samples, h);
  const fg::TrajectoryInverseResult r =
      fg::trajectory_inverse_dynamics(mech, samples, h, opt, order);
  std::ostringstream text;
  write_result(text, joints, r);
  if (!a.quiet)
    std::cerr << "trajectory-inverse: " << r.t.size() << " rows at h = " << format_number(h)
              << " s, sigma_jerk " << format_number(opt.sigma_jerk) << ", max loop error "
              << format_number(r.max_loop_error) << '\n';
  write_output(a.output, [&](std::ostream& out) { out << text.str(); });
  return 0;
}

}  // namespace articula
