// Point-to-point spring-dampers: static equilibrium, energy balance, file round trip.
#include <cmath>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
// A 1 kg block on a vertical slider (joint z along world y) hanging from a spring-damper.
const char* kHanging = R"({
  "format": "articula", "version": 1, "name": "hanging block", "gravity": [0, -9.81, 0],
  "bodies": [{"name": "block", "mass": 1.0, "com": [0, 0, 0], "inertia": [0.01, 0.01, 0.01, 0, 0, 0]}],
  "joints": [{"name": "slide", "type": "prismatic", "parent": "ground", "child": "block",
              "parent_frame": {"position": [0, 0, 0], "quaternion": [0.7071067811865476, -0.7071067811865476, 0, 0]},
              "child_frame": {"position": [0, 0, 0], "quaternion": [0.7071067811865476, -0.7071067811865476, 0, 0]},
              "q0": [-0.5]}],
  "forces": [{"name": "spring", "type": "spring_damper", "body1": "ground", "point1": [0, 0, 0],
              "body2": "block", "point2": [0, 0, 0], "stiffness": 100, "rest_length": 0.2, "damping": DAMPING}]
})";

MechanismSpec hanging(double damping) {
  std::string text = kHanging;
  text.replace(text.find("DAMPING"), 7, std::to_string(damping));
  return parse_project(text).spec;
}
}  // namespace

TEST_CASE("A spring-damper holds a block at the static equilibrium", "[sim][forces]") {
  const Mechanism m = prepare(hanging(5.0));
  Simulation sim(m);
  for (int k = 0; k < 10000; ++k) sim.step(1e-3, Integrator::RK4);
  sim.evaluate();
  // Joint z is world y, so q is the block's height; equilibrium: k (L - L0) = m g, L = -q.
  const double q_eq = -(0.2 + 9.81 / 100.0);
  CHECK(std::abs(sim.q()[0] - q_eq) < 1e-9);  // settled: decay e^{-2.5 t} over 10 s
  CHECK(std::abs(sim.qd()[0]) < 1e-9);
  // The slider carries no force along its axis at rest: the spring holds the weight.
  CHECK(std::abs(sim.joint_states()[0].tau[0]) < 1e-12);
  CHECK(std::abs(sim.energy().residual) < 1e-8 * sim.energy().dissipated);  // balance, 1e-8
}

TEST_CASE("An undamped spring-damper conserves energy; a damped one dissipates what it should",
          "[sim][forces][energy]") {
  for (double c : {0.0, 1.0}) {
    const Mechanism m = prepare(hanging(c));
    Simulation sim(m);
    sim.evaluate();
    const double E0 = sim.energy().kinetic + sim.energy().potential;
    double worst = 0.0;
    for (int k = 0; k < 2000; ++k) {
      sim.step(1e-3, Integrator::RK4);
      sim.evaluate();
      worst = std::max(worst, std::abs(sim.energy().residual));
    }
    INFO("damping " << c << ": worst residual " << worst << " J of " << E0 << " J");
    CHECK(worst <= 1e-9 * std::abs(E0));  // RK4 at 1 ms on a 1.6 Hz oscillator
    if (c == 0.0)
      CHECK(sim.energy().dissipated == 0.0);
    else
      CHECK(sim.energy().dissipated > 0.1);
  }
}

TEST_CASE("Forces survive a save and reload", "[io][forces]") {
  const MechanismSpec s = hanging(2.5);
  REQUIRE(s.forces.size() == 1);
  CHECK(s.forces[0].damping == 2.5);
  CHECK(parse_project(to_text(s)).spec == s);
  std::string bad = to_text(s);
  bad.replace(bad.find("\"block\",\n      \"point2\""), 7, "\"nobody\"");
  CHECK_THROWS_AS(parse_project(bad), ProjectError);
}
