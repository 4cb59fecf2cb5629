// A motion drive on a loop joint: a five-bar whose middle pin (always a loop joint, its two links
// being at the same depth) is driven together with a ground crank.
#include <cmath>
#include <numbers>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
// Links of length 0.2, 0.35, 0.35, 0.2 between ground pivots (0, 0) and (0.4, 0); body frames at
// the first pin with x along the link; pins B, C, D at about (0.07, 0.19), (0.20, 0.51),
// (0.34, 0.19). Tree coordinates are rounded: assembly closes the loop.
const char* kFiveBar = R"json({
  "format": "articula", "version": 1, "name": "five-bar",
  "bodies": [
    {"name": "l1", "mass": 0.4, "com": [0.1, 0, 0], "inertia": [1e-4, 1.4e-3, 1.5e-3, 0, 0, 0]},
    {"name": "l2", "mass": 0.6, "com": [0.175, 0, 0], "inertia": [1e-4, 6.2e-3, 6.3e-3, 0, 0, 0]},
    {"name": "l3", "mass": 0.6, "com": [0.175, 0, 0], "inertia": [1e-4, 6.2e-3, 6.3e-3, 0, 0, 0]},
    {"name": "l4", "mass": 0.4, "com": [0.1, 0, 0], "inertia": [1e-4, 1.4e-3, 1.5e-3, 0, 0, 0]}],
  "joints": [
    {"name": "A", "type": "revolute", "parent": "ground", "child": "l1", "q0": [1.2],
     "drive": {"type": "motion", "q": "1.2 + 0.2*sin(2*t)"}},
    {"name": "B", "type": "revolute", "parent": "l1", "child": "l2", "q0": [-0.004],
     "parent_frame": {"position": [0.2, 0, 0], "quaternion": [1, 0, 0, 0]}},
    {"name": "C", "type": "revolute", "parent": "l2", "child": "l3", "q0": [-2.37],
     "parent_frame": {"position": [0.35, 0, 0], "quaternion": [1, 0, 0, 0]}},
    {"name": "D", "type": "revolute", "parent": "l3", "child": "l4", "q0": [3.074],
     "parent_frame": {"position": [0.35, 0, 0], "quaternion": [1, 0, 0, 0]},
     "child_frame": {"position": [0.2, 0, 0], "quaternion": [1, 0, 0, 0]}},
    {"name": "E", "type": "revolute", "parent": "ground", "child": "l4", "q0": [1.9],
     "parent_frame": {"position": [0.4, 0, 0], "quaternion": [1, 0, 0, 0]}}]
})json";
}  // namespace

TEST_CASE("A motion drive on a loop joint is followed exactly", "[sim][closed_loop][drives]") {
  // Drive C about the angle it has in the assembled five-bar (read from an undriven copy).
  MechanismSpec spec = parse_project(kFiveBar).spec;
  const Mechanism free_copy = prepare(spec);
  Simulation probe(free_copy);
  probe.evaluate();
  const double c0 = probe.joint_states()[spec.joint_index("C")].q[0];
  spec.joints[spec.joint_index("C")].drive =
      DriveSpec{DriveSpec::Kind::Motion, format_number(c0) + " + 0.1*sin(3*t)", {}, {}};
  const Mechanism m = prepare(spec);
  REQUIRE(m.mobility.mobility == 2);
  const int C = m.spec.joint_index("C");
  REQUIRE(m.compiled.joint_map[C].loop);  // l2 and l3 are both at depth 2
  Simulation sim(m);
  double worst_q = 0, worst_qd = 0, worst_loop = 0, worst_energy = 0, scale = 0;
  for (int k = 0; k <= 2000; ++k) {
    if (k) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    const double t = sim.time();
    const Simulation::JointState& c = sim.joint_states()[C];
    worst_q = std::max(worst_q, std::abs(std::remainder(c.q[0] - (c0 + 0.1 * std::sin(3 * t)),
                                                        2 * std::numbers::pi)));
    worst_qd = std::max(worst_qd, std::abs(c.qd[0] - 0.3 * std::cos(3 * t)));
    worst_loop = std::max(worst_loop, sim.loop_error());
    worst_energy = std::max(worst_energy, std::abs(sim.energy().residual));
    scale = std::max({scale, std::abs(sim.energy().work), sim.energy().kinetic});
  }
  INFO("q error " << worst_q << ", qd error " << worst_qd << ", loop " << worst_loop
                  << ", energy residual " << worst_energy << " of " << scale);
  CHECK(worst_q <= 1e-10);  // held by the projection
  CHECK(worst_qd <= 1e-10);
  CHECK(worst_loop <= 1e-10);
  // The actuator torque at C does the work the energy balance needs: this checks its value.
  CHECK(worst_energy <= 1e-6 * scale);
}
