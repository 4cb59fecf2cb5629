// articula.Simulation: step by hand, read the state and the joint outputs, change drive laws
// between steps. Stepping releases the GIL.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/doc/kinematic_drag.hpp"
#include "simulation.hpp"

namespace articula::py {

PySimulation::PySimulation(std::shared_ptr<const Mechanism> mech, const SimulationOptions& options)
    : mech_(std::move(mech)) {
  sim_ = std::make_unique<Simulation>(*mech_, options);
  defaults_ = resolve_run_options(*mech_, {});
}

void PySimulation::ensure_evaluated() {
  if (evaluated_) return;
  sim_->evaluate();
  evaluated_ = true;
}

PySimulation make_simulation(const Project& p, std::optional<std::string> solver, bool inverse,
                             double stabilization_time) {
  SimulationOptions so;
  so.require_fully_driven = inverse;
  so.stabilization_time = stabilization_time;
  const std::shared_ptr<const Mechanism> mech = p.mechanism();
  RunOverrides o;
  o.solver = solver;
  so.solver = resolve_run_options(*mech, o).solver;
  return PySimulation(mech, so);
}

namespace {
using pb::arg;

Integrator integrator_or(const std::optional<std::string>& name, Integrator fallback) {
  if (!name) return fallback;
  try {
    return integrator_from_name(*name);
  } catch (const std::invalid_argument& e) {
    throw ProjectError("/simulation/integrator", e.what());
  }
}

pb::dict joint_dict(PySimulation& s, const std::string& name) {
  const int j = joint_index(s.mechanism().spec, name);
  s.ensure_evaluated();
  const JointState& js = s.sim().joint_states()[j];
  const Force& w = s.sim().wrench()[j];
  pb::dict d;
  d["q"] = VecX(js.q);
  d["qd"] = VecX(js.qd);
  d["qdd"] = VecX(js.qdd);
  d["tau"] = VecX(js.tau);
  d["force"] = Vec3(w[3], w[4], w[5]);
  d["moment"] = Vec3(w[0], w[1], w[2]);
  return d;
}

pb::dict energy_dict(PySimulation& s) {
  s.ensure_evaluated();
  const Energy& e = s.sim().energy();
  pb::dict d;
  d["kinetic"] = e.kinetic;
  d["potential"] = e.potential;
  d["input_work"] = e.work;
  d["dissipated"] = e.dissipated;
  d["residual"] = e.residual;
  d["input_power"] = e.power;
  return d;
}

pb::dict row_dict(PySimulation& s) {
  s.ensure_evaluated();
  std::vector<double> row;
  fill_row(s.sim(), row);
  const std::vector<std::string> cols = csv_header(s.mechanism());
  pb::dict d;
  for (std::size_t c = 0; c < cols.size(); ++c) d[cols[c].c_str()] = row[c];
  return d;
}

void bind_stepping(pb::class_<PySimulation>& c) {
  c.def(
      "step",
      [](PySimulation& s, std::optional<double> h, std::optional<std::string> integrator) {
        const double dt = h.value_or(s.defaults().step);
        if (!(dt > 0)) throw ProjectError("/simulation/step", "must be positive");
        const Integrator in = integrator_or(integrator, s.defaults().integrator);
        pb::gil_scoped_release nogil;
        s.stepped();
        s.sim().step(dt, in);
      },
      arg("h") = pb::none(), arg("integrator") = pb::none(),
      "One step of h seconds (default: the file's step) with rk4, euler or rk45 (one "
      "error-controlled step of at most h). Raises SetupError when the loops cannot be kept "
      "closed or the state goes bad (the state before the step is kept).");
  c.def(
      "run_to",
      [](PySimulation& s, double t_end, std::optional<double> h,
         std::optional<std::string> integrator) {
        const double dt = h.value_or(s.defaults().step);
        if (!(dt > 0)) throw ProjectError("/simulation/step", "must be positive");
        const Integrator in = integrator_or(integrator, s.defaults().integrator);
        pb::gil_scoped_release nogil;
        s.stepped();
        if (in == Integrator::RK45)
          return s.sim().advance(t_end, s.defaults().rtol, s.defaults().atol, dt);
        while (s.sim().time() < t_end - 1e-9 * dt)
          s.sim().step(std::min(dt, t_end - s.sim().time()), in);
      },
      arg("t_end"), arg("h") = pb::none(), arg("integrator") = pb::none(),
      "Step until time t_end (the last step shortened to land on it); rk45 steps adaptively "
      "with the file's tolerances and h as the largest step.");
  c.def(
      "advance",
      [](PySimulation& s, double t_end, double rtol, double atol, std::optional<double> max_step) {
        pb::gil_scoped_release nogil;
        s.stepped();
        s.sim().advance(t_end, rtol, atol, max_step.value_or(s.defaults().step));
      },
      arg("t_end"), arg("rtol") = 1e-8, arg("atol") = 1e-10, arg("max_step") = pb::none(),
      "Error-controlled Dormand-Prince 5(4) steps until t_end, projecting after each.");
  c.def(
      "set_drive",
      [](PySimulation& s, const std::string& joint, const std::string& expression) {
        s.sim().set_drive_expression(joint_index(s.mechanism().spec, joint), expression);
        s.stepped();
      },
      arg("joint"), arg("expression"),
      "Replace the law of the joint's existing drive (same kind) from the next step on: a "
      "motion drive's q(t), or a force drive's value(t). Loops are re-closed by the projection.");
}

void bind_state(pb::class_<PySimulation>& c) {
  c.def_property_readonly(
      "time", [](PySimulation& s) { return s.sim().time(); }, "Time, s.");
  c.def_property_readonly(
      "q", [](PySimulation& s) { return VecX(s.sim().q()); },
      "Model coordinates of the spanning tree (copy).");
  c.def_property_readonly(
      "qd", [](PySimulation& s) { return VecX(s.sim().qd()); }, "Model velocities (copy).");
  c.def_property_readonly(
      "qdd",
      [](PySimulation& s) {
        s.ensure_evaluated();
        return VecX(s.sim().qdd());
      },
      "Model accelerations at the current state.");
  c.def_property_readonly(
      "tau",
      [](PySimulation& s) {
        s.ensure_evaluated();
        return VecX(s.sim().tau());
      },
      "Generalized forces of the tree coordinates (RNEA) at the current state.");
  c.def("joint", &joint_dict, arg("name"),
        "A joint's q, qd, qdd, tau (drive and spring force) and the wrench the parent exerts on "
        "the child (force, moment about the joint origin, child joint-frame axes), loop joints "
        "included.");
  c.def("row", &row_dict, "The current state as one CSV row: {column: value}.");
  c.def_property_readonly(
      "columns", [](PySimulation& s) { return csv_header(s.mechanism()); },
      "The CSV column names.");
}

void bind_outputs(pb::class_<PySimulation>& c) {
  c.def_property_readonly(
      "loop_error",
      [](PySimulation& s) {
        s.ensure_evaluated();
        return s.sim().loop_error();
      },
      "Max |loop error| at the current state.");
  c.def_property_readonly("energy", &energy_dict,
                          "Energy account: kinetic, potential, input_work, dissipated, residual, "
                          "input_power.");
  c.def_property_readonly(
      "coupling_forces",
      [](PySimulation& s) {
        s.ensure_evaluated();
        pb::dict d;
        const auto& f = s.sim().coupling_forces();
        for (std::size_t i = 0; i < f.size(); ++i)
          d[s.mechanism().spec.couplings[i].name.c_str()] = f[i];
        return d;
      },
      "Per coupling: the generalized force it applies to its joint B.");
  c.def(
      "point",
      [](PySimulation& s, const std::string& body, const Vec3& at) {
        return body_point_world(s.mechanism(), s.sim().q(), body_index(s.mechanism().spec, body),
                                at);
      },
      arg("body"), arg("point"), "World position of a body point (body coordinates) now.");
  c.def_property_readonly(
      "solver", [](PySimulation& s) { return std::string(s.sim().solver_name()); },
      "The dynamics solver stepping the run.");
  c.def_property_readonly(
      "accepted_steps", [](PySimulation& s) { return s.sim().accepted_steps(); },
      "Error-controlled (rk45) steps accepted so far.");
  c.def_property_readonly(
      "rejected_steps", [](PySimulation& s) { return s.sim().rejected_steps(); },
      "Error-controlled (rk45) steps rejected and retried smaller so far.");
}
}  // namespace

void bind_state_io(pb::class_<PySimulation>& c) {
  c.def(
      "state",
      [](PySimulation& s) {
        s.ensure_evaluated();
        pb::dict d;
        d["t"] = s.sim().time();
        d["q"] = VecX(s.sim().q());
        d["qd"] = VecX(s.sim().qd());
        d["input_work"] = s.sim().energy().work;
        d["dissipated"] = s.sim().energy().dissipated;
        return d;
      },
      "The state to come back to with restore(): t, q, qd and the energy account.");
  c.def(
      "restore",
      [](PySimulation& s, const pb::dict& state) {
        s.sim().restore(state["t"].cast<double>(), state["q"].cast<VecX>(),
                        state["qd"].cast<VecX>(), state["input_work"].cast<double>(),
                        state["dissipated"].cast<double>());
        s.stepped();
      },
      pb::arg("state"),
      "Continue from a state() this simulation produced (drive laws stay as they are now): to "
      "try several continuations of one run. Raises SetupError on a size mismatch.");
}

void bind_simulation(pb::module_& m) {
  pb::class_<PySimulation> c(m, "Simulation",
                             "A running simulation of a project (Project.simulation()). It keeps "
                             "the compiled mechanism it was made from: later edits of the "
                             "project do not affect it.");
  bind_stepping(c);
  bind_state(c);
  bind_outputs(c);
  bind_state_io(c);
}

}  // namespace articula::py
