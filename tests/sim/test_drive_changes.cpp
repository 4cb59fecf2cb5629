// Changing a drive between steps, and the pure-inverse-dynamics check.
#include <cmath>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {}  // namespace

TEST_CASE("A motion drive's law can change between steps", "[sim][drives]") {
  const Mechanism m = test::sample_mechanism("fourbar.json");
  Simulation sim(m);
  const int crank = m.drives.front().user_joint;
  for (int k = 0; k < 100; ++k) sim.step(1e-3, Integrator::RK4);
  sim.set_drive_expression(crank, "0.5 + 3*t");  // a jump: the projection re-closes the loop
  sim.step(1e-3, Integrator::RK4);
  sim.evaluate();
  CHECK(std::abs(sim.joint_states()[crank].q[0] - (0.5 + 3 * 0.101)) < 1e-12);
  CHECK(std::abs(sim.joint_states()[crank].qd[0] - 3.0) < 1e-12);
  CHECK(sim.loop_error() <= 1e-12);
  CHECK_THROWS_AS(sim.set_drive_expression(crank, "sin("), ExpressionError);
  CHECK_THROWS_AS(sim.set_drive_expression(crank + 1, "t"), std::invalid_argument);
}

TEST_CASE("Pure inverse dynamics refuses an under-actuated mechanism", "[sim][drives]") {
  SimulationOptions inverse;
  inverse.require_fully_driven = true;
  const Mechanism arm =
      test::sample_mechanism("double_pendulum.json");  // two free joints, no drives
  try {
    Simulation sim(arm, inverse);
    FAIL("accepted an undriven mechanism");
  } catch (const SetupError& e) {
    const std::string what = e.what();
    CHECK(what.find("mobility 2") != std::string::npos);
    CHECK(what.find("'shoulder'") != std::string::npos);
  }
  const Mechanism fourbar =
      test::sample_mechanism("fourbar.json");  // one DOF, one motion drive: fine
  CHECK_NOTHROW(Simulation(fourbar, inverse));
}
