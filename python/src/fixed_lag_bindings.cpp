// articula.fixed_lag_forward: the fixed-lag factor-graph forward simulation (issue 19;
// core/factor_graph/fixed_lag_forward), with the options `articula-cli fg-simulate` takes and
// resolves the same way (core/factor_graph/fixed_lag_output), so the arrays are the CLI's doubles.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/factor_graph/fixed_lag_output.hpp"
#include "core/factor_graph/trajectory.hpp"
#include "project.hpp"

namespace articula::py {

namespace {
// A Project as it is, or a path (str or os.PathLike) loaded as articula.load does.
std::shared_ptr<const Mechanism> mechanism_of(const pb::object& project_or_path) {
  if (pb::isinstance<Project>(project_or_path))
    return project_or_path.cast<const Project&>().mechanism();
  const pb::object path = pb::module_::import("os").attr("fspath")(project_or_path);
  return Project::load(path.cast<std::string>(), false).mechanism();
}

pb::dict fixed_lag_forward(const pb::object& project_or_path, std::optional<double> step,
                           std::optional<double> duration, int window, double sigma) {
  const std::shared_ptr<const Mechanism> mech = mechanism_of(project_or_path);
  fg::FixedLagOverrides over;
  over.step = step;
  over.duration = duration;
  over.window = window;
  over.sigma = sigma;
  const fg::FixedLagOptions opt = fg::fixed_lag_options(*mech, over);
  fg::FixedLagResult r;
  {
    pb::gil_scoped_release nogil;
    r = fg::fixed_lag_forward(*mech, opt);
  }
  pb::dict d;
  d["t"] = r.t;
  d["q"] = r.q;
  d["qd"] = r.qd;
  d["coordinates"] = fg::fixed_lag_coordinate_names(*mech);
  d["iterations"] = r.iterations;
  d["loop_error"] = r.loop_error;
  d["max_loop_error"] = r.max_loop_error;
  d["step"] = opt.step;
  d["window"] = opt.window;
  return d;
}
// Trajectory inverse dynamics with the options `articula-cli trajectory-inverse` takes.
pb::dict trajectory_inverse(const pb::object& project_or_path, const MatX& targets, double step,
                            double sigma_prior, double sigma_integration,
                            std::optional<double> sigma_jerk) {
  const std::shared_ptr<const Mechanism> mech = mechanism_of(project_or_path);
  const std::vector<std::string> joints = fg::driven_joint_names(*mech);
  if (targets.cols() != static_cast<Eigen::Index>(joints.size()) || targets.rows() < 3)
    throw pb::value_error("targets: (N + 1) x " + std::to_string(joints.size()) +
                          " (one column per motion-driven joint, N >= 2) expected, got " +
                          std::to_string(targets.rows()) + " x " + std::to_string(targets.cols()));
  if (!(step > 0)) throw pb::value_error("step must be > 0 s");
  if (!targets.allFinite()) throw pb::value_error("targets: not finite");
  const fg::SmootherOptions opt =
      fg::trajectory_options(sigma_prior, sigma_integration, sigma_jerk, targets, step);
  fg::TrajectoryInverseResult r;
  {
    pb::gil_scoped_release nogil;
    r = fg::trajectory_inverse_dynamics(*mech, targets, step, opt);
  }
  MatX q(r.t.size(), joints.size()), qd(q.rows(), q.cols()), qdd(q.rows(), q.cols());
  for (std::size_t c = 0; c < joints.size(); ++c) {
    const auto j = static_cast<Eigen::Index>(c);
    q.col(j) = r.z[c].z, qd.col(j) = r.z[c].zd, qdd.col(j) = r.z[c].zdd;
  }
  pb::dict d;
  d["t"] = r.t;
  d["q"] = q, d["qd"] = qd, d["qdd"] = qdd, d["tau"] = r.force;
  d["joints"] = joints;
  d["sigma_jerk"] = opt.sigma_jerk;
  d["max_loop_error"] = r.max_loop_error;
  return d;
}
}  // namespace

void bind_fixed_lag(pb::module_& m) {
  m.def("fixed_lag_forward", &fixed_lag_forward, pb::arg("project_or_path"),
        pb::arg("step") = pb::none(), pb::arg("duration") = pb::none(), pb::arg("window") = 2,
        pb::arg("sigma") = 1e-3,
        "Forward simulation as a fixed-lag factor-graph smoother in dependent coordinates "
        "(Blanco-Claraco et al. §5.1; `articula-cli fg-simulate`): free motion under gravity "
        "only. project_or_path: a Project or a project file. Unset step and duration come from "
        "the file's simulation block (defaults 1 ms, 5 s); window: time steps solved together; "
        "sigma: of every factor. Returns {t: (N+1,), q, qd: (N+1, nv) in model coordinates, "
        "coordinates: the column name of each (J.q), iterations: LM iterations, "
        "loop_error: (N+1,) max |δ| per row, max_loop_error, step, window}. The GIL is released "
        "while solving. Raises SetupError "
        "for what it does not model (drives, springs, contacts, ...), ValueError for a bad "
        "option, ProjectError for a bad file.");
  m.def("trajectory_inverse", &trajectory_inverse, pb::arg("project_or_path"), pb::arg("targets"),
        pb::arg("step"), pb::arg("sigma_prior") = 0.0, pb::arg("sigma_integration") = 1e-3,
        pb::arg("sigma_jerk") = pb::none(),
        "Trajectory inverse dynamics (Blanco-Claraco et al. §7.2; `articula-cli "
        "trajectory-inverse`): the actuator forces that make the motion-driven joints follow "
        "targets sampled at t = 0, step, 2 step, ... targets: (N+1, drives) in the file's drive "
        "order. sigma_prior 0 follows them exactly; sigma_jerk unset: a weak smoothness prior "
        "(1e6 x the targets' largest change of acceleration per step). Returns {t, q, qd, qdd, "
        "tau: (N+1, drives), joints: their names, sigma_jerk, max_loop_error}. The GIL is "
        "released while solving. Raises ValueError for bad targets or options, SetupError when "
        "a step cannot be assembled or there is no motion drive.");
}

}  // namespace articula::py
