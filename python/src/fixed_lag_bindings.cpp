// articula.fixed_lag_forward: the fixed-lag factor-graph forward simulation (issue 19;
// core/factor_graph/fixed_lag_forward), with the options `articula-cli fg-simulate` takes and
// resolves the same way (core/factor_graph/fixed_lag_output), so the arrays are the CLI's doubles.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/factor_graph/fixed_lag_output.hpp"
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
  d["max_loop_error"] = r.max_loop_error;
  d["step"] = opt.step;
  d["window"] = opt.window;
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
        "max_loop_error, step, window}. The GIL is released while solving. Raises SetupError "
        "for what it does not model (drives, springs, contacts, ...), ValueError for a bad "
        "option, ProjectError for a bad file.");
}

}  // namespace articula::py
