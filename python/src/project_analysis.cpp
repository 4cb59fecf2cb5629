// Project: compile, the analyses (info, mobility, assembly, sketch status, point positions) and
// simulate(), which runs the CLI's own runner (core/sim/runner: run_rows) with the GIL released,
// so the arrays hold the very doubles the CLI prints.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <chrono>

#include "convert.hpp"
#include "core/doc/kinematic_drag.hpp"
#include "core/doc/sketch_status.hpp"
#include "core/sim/design_report.hpp"
#include "project.hpp"
#include "simulation.hpp"

namespace articula::py {

namespace {
using pb::arg;

pb::dict mobility_dict(const Mechanism& mech) {
  const MobilityReport& r = mech.mobility;
  pb::list redundant;
  for (const auto& [name, rows] : mech.redundant_joints())
    redundant.append(pb::make_tuple(name, rows));
  pb::dict d;
  d["mobility"] = r.mobility;
  d["coordinates"] = r.coordinates;
  d["constraint_rows"] = r.constraint_rows;
  d["rank"] = r.rank;
  d["redundant"] = r.redundant;
  d["redundant_rows"] = r.redundant_rows;
  d["redundant_joints"] = redundant;
  d["tolerance"] = r.tolerance;
  d["smallest_kept"] = r.smallest_kept;
  d["gruebler"] = mech.gruebler;
  d["planar"] = mech.planar;
  d["loops"] = mech.compiled.loops.size();
  return d;
}

pb::dict assembly_dict(const Mechanism& mech) {
  const AssemblyResult& a = mech.assembly;
  pb::dict q, qd;
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j) {
    if (mech.compiled.joint_map[j].loop) continue;
    const JointSpec& js = mech.spec.joints[j];
    const int iq = mech.compiled.q_index(static_cast<int>(j));
    const int iv = mech.compiled.v_index(static_cast<int>(j));
    q[js.name.c_str()] =
        std::vector<double>(mech.q0.data() + iq, mech.q0.data() + iq + js.joint.nq());
    qd[js.name.c_str()] =
        std::vector<double>(mech.qd0.data() + iv, mech.qd0.data() + iv + js.joint.nv());
  }
  pb::dict d;
  d["converged"] = a.converged;
  d["iterations"] = a.iterations;
  d["residual"] = a.residual;
  d["worst_row"] = a.worst_row;
  d["q"] = q;
  d["qd"] = qd;
  return d;
}

pb::dict status_dict(const MechanismSpec& spec) {
  const SketchStatus s = analyse(spec).status;
  pb::dict d;
  d["ready"] = s.ready();
  d["summary"] = s.summary();
  d["problem"] = s.problem;
  d["bodies"] = s.bodies;
  d["joints"] = s.joints;
  d["drives"] = s.drives;
  d["disconnected"] = s.disconnected;
  d["dof"] = s.dof;
  d["gruebler"] = s.gruebler;
  d["planar"] = s.planar;
  d["loops"] = s.loops;
  d["redundant"] = s.redundant;
  d["planar_redundant"] = s.planar_redundant;
  d["redundant_joints"] = s.redundant_joints;
  d["unconstrained"] = s.unconstrained;
  d["locked"] = s.locked;
  d["free_dof"] = s.free_dof;
  d["assembly_residual"] = s.assembly_residual;
  return d;
}

// Extra columns NAME.x, NAME.y, NAME.z: world paths of body points.
struct TracedPoint {
  std::string name;
  int body = 0;
  Vec3 point = Vec3::Zero();
};

std::vector<TracedPoint> traced_points(const MechanismSpec& spec, const pb::object& points) {
  std::vector<TracedPoint> out;
  if (points.is_none()) return out;
  for (auto item : points.cast<pb::dict>()) {
    const auto spec_of = item.second.cast<std::pair<std::string, std::vector<double>>>();
    const std::vector<double>& p = spec_of.second;
    if (p.size() != 2 && p.size() != 3)
      throw std::invalid_argument("a point is (x, y) or (x, y, z)");
    out.push_back({item.first.cast<std::string>(), body_index(spec, spec_of.first),
                   Vec3(p[0], p[1], p.size() == 3 ? p[2] : 0.0)});
  }
  return out;
}

RunOptions checked_options(const Mechanism& mech, std::optional<double> duration,
                           std::optional<double> step, std::optional<std::string> integrator,
                           std::optional<double> sample, std::optional<std::string> solver,
                           bool inverse) {
  if (duration && !(*duration >= 0))
    throw ProjectError("/simulation/duration", "must be non-negative");
  if (step && !(*step > 0)) throw ProjectError("/simulation/step", "must be positive");
  if (sample && !(*sample >= 0)) throw ProjectError("/simulation/sample", "must be non-negative");
  RunOverrides o;
  o.duration = duration;
  o.step = step;
  o.integrator = integrator;
  o.sample = sample;
  o.solver = solver;
  o.inverse = inverse;
  RunOptions opt = resolve_run_options(mech, o);
  const pb::object warn = pb::module_::import("warnings").attr("warn");
  for (const std::string& w : run_warnings(mech, opt)) warn(w, pb::handle(PyExc_RuntimeWarning), 2);
  return opt;
}

// Row-major values (one row after the other) as {column: array}, filled row by row so that the
// values are read in order.
pb::dict columns_of(const std::vector<std::string>& cols, const std::vector<double>& values) {
  const std::size_t nc = cols.size(), nr = values.size() / nc;
  std::vector<pb::array_t<double>> arrays;
  std::vector<double*> dst;
  for (std::size_t c = 0; c < nc; ++c) {
    arrays.emplace_back(static_cast<pb::ssize_t>(nr));
    dst.push_back(arrays.back().mutable_data());
  }
  const double* src = values.data();
  for (std::size_t r = 0; r < nr; ++r)
    for (std::size_t c = 0; c < nc; ++c) dst[c][r] = *src++;
  pb::dict out;
  for (std::size_t c = 0; c < nc; ++c) out[cols[c].c_str()] = arrays[c];
  return out;
}

pb::dict simulate(const Project& p, std::optional<double> duration, std::optional<double> step,
                  std::optional<std::string> integrator, std::optional<double> sample,
                  std::optional<std::string> solver, bool inverse, const pb::object& points) {
  const std::shared_ptr<const Mechanism> mech = p.mechanism();
  const RunOptions opt =
      checked_options(*mech, duration, step, integrator, sample, solver, inverse);
  std::vector<std::string> cols = csv_header(*mech);
  const std::vector<TracedPoint> traced = traced_points(mech->spec, points);
  for (const TracedPoint& t : traced)
    for (const char* axis : {".x", ".y", ".z"}) cols.push_back(t.name + axis);
  std::vector<double> values;
  const double every = opt.sample > 0 ? std::max(opt.sample, opt.step) : opt.step;
  const double expected = (opt.duration / every + 3) * static_cast<double>(cols.size());
  values.reserve(static_cast<std::size_t>(std::min(expected, 16777216.0)));  // grows past 128 MB
  {
    pb::gil_scoped_release nogil;
    RowSink sink;
    sink.row = [&](const Simulation& sim, const std::vector<double>& row) {
      values.insert(values.end(), row.begin(), row.end());
      for (const TracedPoint& t : traced) {
        const Vec3 w = body_point_world(*mech, sim.q(), t.body, t.point);
        values.insert(values.end(), {w.x(), w.y(), w.z()});
      }
    };
    run_rows(*mech, opt, sink);
  }
  return columns_of(cols, values);
}

// The `articula-cli report` document (core/sim/design_report.hpp) as a dict; points as for
// simulate(): {name: (body, (x, y[, z]))}, bad ones named like the CLI's --point.
pb::object report(const Project& p, std::optional<double> duration, std::optional<double> step,
                  std::optional<std::string> integrator, std::optional<double> sample,
                  std::optional<std::string> solver, const pb::object& points) {
  const std::shared_ptr<const Mechanism> mech = p.mechanism();
  const RunOptions opt = checked_options(*mech, duration, step, integrator, sample, solver, false);
  std::vector<ReportPoint> pts;
  if (!points.is_none())
    for (auto item : points.cast<pb::dict>()) {
      ReportPoint rp;
      rp.name = item.first.cast<std::string>();
      rp.source = "points['" + rp.name + "']";
      const auto spec_of = item.second.cast<std::pair<std::string, std::vector<double>>>();
      const std::vector<double>& x = spec_of.second;
      if (x.size() != 2 && x.size() != 3)
        throw std::invalid_argument(rp.source + ": a point is (x, y) or (x, y, z)");
      rp.body = spec_of.first;
      rp.point = Vec3(x[0], x[1], x.size() == 3 ? x[2] : 0.0);
      pts.push_back(rp);
    }
  nlohmann::json doc;
  {
    pb::gil_scoped_release nogil;
    doc = design_report(*mech, opt, pts);
  }
  return to_python(doc);
}

// bench/python_throughput.py: the runner alone (rows discarded), timed in C++, to tell the
// binding's own cost (arrays, conversions) from the simulation's.
double run_rows_seconds(const Project& p, double duration, double step) {
  const std::shared_ptr<const Mechanism> mech = p.mechanism();
  const RunOptions opt = checked_options(*mech, duration, step, {}, {}, {}, false);
  pb::gil_scoped_release nogil;
  const auto start = std::chrono::steady_clock::now();
  RowSink sink;
  sink.row = [](const Simulation&, const std::vector<double>&) {};
  run_rows(*mech, opt, sink);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void bind_analyses(pb::class_<Project>& c) {
  c.def(
      "compile", [](const Project& p) { p.mechanism(); },
      "Compile and assemble now (it also happens on demand). Raises ProjectError for graph "
      "problems and SetupError when the loops cannot be closed.");
  c.def(
      "info", [](const Project& p) { return to_python(mechanism_info(*p.mechanism())); },
      "The `articula-cli info` document as a dict (bodies, joints, tree/loop joints, "
      "coordinates, mobility, redundant constraints, drives, ...).");
  c.def(
      "mobility", [](const Project& p) { return mobility_dict(*p.mechanism()); },
      "Mobility by the rank of the loop Jacobian: mobility, rank, constraint rows, redundant "
      "rows and the loop joints owning them, Grübler count, planar, number of loop joints.");
  c.def(
      "assembly", [](const Project& p) { return assembly_dict(*p.mechanism()); },
      "The assembly from the sketch: converged, iterations, residual (max loop error), and the "
      "assembled q and qd of every tree joint by name.");
  c.def(
      "status", [](const Project& p) { return status_dict(p.spec()); },
      "The editor's sketch status (works on incomplete sketches too): ready, dof, Grübler, "
      "loops, redundancy, disconnected bodies, unconstrained and locked joints, problem.");
  c.def(
      "columns", [](const Project& p) { return csv_header(*p.mechanism()); },
      "The CSV column names simulate() returns, in order.");
  c.def(
      "point",
      [](const Project& p, const std::string& body, const std::vector<double>& at) {
        const std::shared_ptr<const Mechanism> mech = p.mechanism();
        if (at.size() != 2 && at.size() != 3) throw std::invalid_argument("a point is (x, y[, z])");
        const Vec3 local(at[0], at[1], at.size() == 3 ? at[2] : 0.0);
        return body_point_world(*mech, mech->q0, body_index(mech->spec, body), local);
      },
      arg("body"), arg("point"),
      "World position of a point given in a body's coordinates, at the assembled configuration.");
}
}  // namespace

void bind_project_analysis(pb::class_<Project>& c) {
  bind_analyses(c);
  c.def("simulate", &simulate, arg("duration") = pb::none(), arg("step") = pb::none(),
        arg("integrator") = pb::none(), pb::kw_only(), arg("sample") = pb::none(),
        arg("solver") = pb::none(), arg("inverse") = false, arg("points") = pb::none(),
        "Simulate as `articula-cli simulate` does and return {column: numpy array} keyed by "
        "the CSV column names, equal to the CLI's CSV to the last bit. Unset options come from "
        "the file's simulation block (defaults 5 s, 1 ms, rk4). sample: output interval; solver: "
        "auto|method2|sparse|...; inverse: refuse unless fully motion-driven. points: "
        "{name: (body, (x, y, z))} adds columns name.x, name.y, name.z (world path of a body "
        "point). The GIL is released while simulating. Raises ProjectError / SetupError.");
  c.def("report", &report, arg("duration") = pb::none(), arg("step") = pb::none(),
        arg("integrator") = pb::none(), pb::kw_only(), arg("sample") = pb::none(),
        arg("solver") = pb::none(), arg("points") = pb::none(),
        "The design report of `articula-cli report` as a dict (same keys and numbers): per "
        "drive peak/RMS force, peak power, positive/negative work and the reflected inertia "
        "over the run; per point {name: (body, (x, y, z))} its apparent mass at t = 0 and its "
        "path; transmission angles of four-bar-like loops. Options as simulate(). Raises "
        "ValueError naming a bad point, ProjectError / SetupError as simulate().");
  c.def("_run_rows_seconds", &run_rows_seconds, arg("duration"), arg("step"),
        "Benchmark aid: seconds the C++ runner takes for this run with its rows discarded.");
  c.def("simulation", &make_simulation, arg("solver") = pb::none(), arg("inverse") = false,
        arg("stabilization_time") = 0.05,
        "A Simulation to step by hand: read its state, change drives between steps.");
}

}  // namespace articula::py
