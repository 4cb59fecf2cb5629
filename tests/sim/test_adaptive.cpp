// The adaptive Dormand-Prince 5(4) integrator against a fine fixed-step RK4 reference.
#include <cmath>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {}  // namespace

TEST_CASE("rk45 meets its tolerance on a passive double pendulum", "[sim][adaptive]") {
  const Mechanism m = test::sample_mechanism("double_pendulum.json");
  Simulation ref(m), ad(m);
  for (int k = 0; k < 10000; ++k) ref.step(1e-4, Integrator::RK4);  // 1 s, error ~1e-13
  ad.advance(1.0, 1e-10, 1e-12, 0.05);
  INFO("accepted " << ad.accepted_steps() << ", rejected " << ad.rejected_steps());
  CHECK_CLOSE(ad.q(), ref.q(), 1e-7);  // global error of a 1e-10 local tolerance over 1 s
  CHECK(ad.accepted_steps() < 2000);   // far fewer steps than the fixed-step reference
  CHECK(std::abs(ad.time() - 1.0) < 1e-12);
}

TEST_CASE("rk45 keeps loops closed and energy balanced on the driven Jansen leg",
          "[sim][adaptive]") {
  const Mechanism m = test::sample_mechanism("jansen_leg.json");
  Simulation sim(m);
  double worst_loop = 0.0, worst_residual = 0.0, scale = 0.0;
  for (int k = 1; k <= 20; ++k) {
    sim.advance(0.1 * k, 1e-9, 1e-11, 0.01);
    sim.evaluate();
    worst_loop = std::max(worst_loop, sim.loop_error());
    worst_residual = std::max(worst_residual, std::abs(sim.energy().residual));
    scale = std::max({scale, std::abs(sim.energy().work), sim.energy().kinetic});
  }
  INFO("loop " << worst_loop << ", energy residual " << worst_residual << " of " << scale);
  CHECK(worst_loop <= 1e-10);
  CHECK(worst_residual <= 1e-6 * scale);
}
