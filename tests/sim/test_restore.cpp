// Simulation::restore: continuing from a recorded state (the GUI's play after scrubbing back)
// retraces the original run, because the state (t, q, q̇ and the energy account) is all there is.
#include <cmath>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "core/sim/snapshot.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
// Runs `steps` steps of h from the current state; returns the snapshot at the end.
Snapshot run_steps(Simulation& sim, Data& data, int steps, double h, Integrator integrator) {
  for (int i = 0; i < steps; ++i) sim.step(h, integrator);
  sim.evaluate();
  Snapshot s;
  take_snapshot(sim, data, s);
  return s;
}
}  // namespace

TEST_CASE("restore: a run resumed from a recorded state retraces the original", "[sim][restore]") {
  // A closed loop with a motion drive (projection, loop wrenches), a tree with a spring, and a
  // Stewart platform; RK4 and the adaptive integrator.
  for (const char* file : {"fourbar.json", "double_pendulum.json", "stewart_platform.json"}) {
    for (Integrator integrator : {Integrator::RK4, Integrator::RK45}) {
      INFO(file << (integrator == Integrator::RK4 ? " rk4" : " rk45"));
      const Mechanism m = test::sample_mechanism(file);
      Data data(m.model());
      Simulation sim(m);
      const Snapshot mid = run_steps(sim, data, 300, 1e-3, integrator);
      const Snapshot end = run_steps(sim, data, 200, 1e-3, integrator);
      const double end_residual = sim.energy().residual;
      // Go back to t = 0.3 in the same simulation (and in a fresh one) and run on to 0.5.
      Simulation fresh(m);
      for (Simulation* s : {&sim, &fresh}) {
        s->restore(mid.t, mid.q, mid.qd, mid.work, mid.dissipated);
        CHECK(s->time() == mid.t);
        const Snapshot again = run_steps(*s, data, 200, 1e-3, integrator);
        CHECK(again.t == Approx(end.t).margin(1e-12));
        // RK4 repeats its arithmetic exactly; rk45's step-size control restarts (1e-8 tolerance).
        const double tol = integrator == Integrator::RK4 ? 1e-12 : 1e-7;
        CHECK((again.q - end.q).cwiseAbs().maxCoeff() < tol);
        CHECK((again.qd - end.qd).cwiseAbs().maxCoeff() < tol * 100);
        // The energy account continues: work done and the balance residual as in the original.
        CHECK(std::abs(again.work - end.work) < 1e-6 * (1 + std::abs(end.work)));
        CHECK(std::abs(s->energy().residual - end_residual) < 1e-6);
      }
    }
  }
}

TEST_CASE("restore: a state of another model is refused", "[sim][restore]") {
  const Mechanism m = test::sample_mechanism("fourbar.json");
  Simulation sim(m);
  CHECK_THROWS_AS(sim.restore(0.1, VecX::Zero(m.model().nq + 1), VecX::Zero(m.model().nv), 0, 0),
                  SetupError);
  VecX bad = m.q0;
  bad[0] = std::nan("");
  CHECK_THROWS_AS(sim.restore(0.1, bad, m.qd0, 0, 0), SetupError);
  CHECK(sim.time() == 0.0);
}

TEST_CASE("restore: the Motion and Acceleration stages agree with the full evaluation",
          "[sim][restore]") {
  // Loop joints (four-bar, RSSR's spherical joint, Stewart platform's legs) and a tree: a state
  // from a run, restored up to each stage in a second simulation.
  for (const char* file :
       {"fourbar.json", "rssr.json", "stewart_platform.json", "double_pendulum.json"}) {
    INFO(file);
    const Mechanism m = test::sample_mechanism(file);
    auto max_abs_diff = [](const auto& a, const auto& b) {
      return a.size() ? (a - b).cwiseAbs().maxCoeff() : 0.0;
    };
    Simulation sim(m);
    for (int i = 0; i < 150; ++i) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    const std::vector<JointState> full = sim.joint_states();
    const VecX qdd = sim.qdd();
    Simulation staged(m);
    staged.restore(sim.time(), sim.q(), sim.qd(), 0.0, 0.0, Simulation::Stage::Motion);
    for (std::size_t j = 0; j < full.size(); ++j) {
      INFO("joint " << m.spec.joints[j].name);
      // Same coordinates and rates: loop joints from the bodies' relative motion by forward
      // kinematics instead of RNEA's pass (round-off, 1e-12 relative).
      CHECK(max_abs_diff(staged.joint_states()[j].q, full[j].q) <= 1e-12);
      CHECK(max_abs_diff(staged.joint_states()[j].qd, full[j].qd) <=
            1e-12 * (1.0 + full[j].qd.norm()));
    }
    staged.restore(sim.time(), sim.q(), sim.qd(), 0.0, 0.0, Simulation::Stage::Acceleration);
    // q̈ by the stepping solver against the reporter's (unique on these non-redundant loops;
    // 1e-9 relative, the solvers' agreement elsewhere).
    CHECK(max_abs_diff(staged.qdd(), qdd) <= 1e-9 * (1.0 + qdd.norm()));
    for (std::size_t j = 0; j < full.size(); ++j)
      CHECK(max_abs_diff(staged.joint_states()[j].qdd, full[j].qdd) <=
            1e-9 * (1.0 + full[j].qdd.norm()));
  }
}

TEST_CASE("restore: steps without projection stay on the projected run to RK4's error",
          "[sim][restore]") {
  // What the estimator relies on: from a closed state, one unprojected RK4 step of 1 ms leaves
  // the loops open only by the integrator's local error and the state within the projection's
  // correction of the projected step's (measured: loop error 9.4e-13 and 5.8e-13 m, q 4.6e-12,
  // q̇ 1.7e-10; bounds 10x).
  for (const char* file : {"fourbar.json", "rssr.json"}) {
    INFO(file);
    const Mechanism m = test::sample_mechanism(file);
    Simulation projected(m), free(m);
    free.set_step_projection(false);
    for (int i = 0; i < 50; ++i) projected.step(1e-3, Integrator::RK4);
    free.restore(projected.time(), projected.q(), projected.qd(), 0.0, 0.0);
    projected.step(1e-3, Integrator::RK4);
    free.step(1e-3, Integrator::RK4);
    free.evaluate();
    CHECK(free.loop_error() > 0.0);  // not projected: RK4 leaves a little
    CHECK(free.loop_error() <= 1e-11);
    CHECK((free.q() - projected.q()).cwiseAbs().maxCoeff() <= 5e-11);
    CHECK((free.qd() - projected.qd()).cwiseAbs().maxCoeff() <= 2e-9);
  }
}
