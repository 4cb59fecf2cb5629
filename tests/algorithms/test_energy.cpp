// Energy and momentum: the power balance dE/dt = qd·τ, and conservation in a free-floating tree.
#include "core/algorithms/aba.hpp"
#include "core/algorithms/energy.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/integrators.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using test::random_vector;

namespace {
double total_energy(const Model& m, Data& d, const VecX& q, const VecX& qd) {
  forward_kinematics(m, d, q, qd);
  return kinetic_energy(m, d) + potential_energy(m, d);
}
}  // namespace

TEST_CASE("Power balance: d(T+V)/dt = qd · τ with gravity", "[energy]") {
  std::mt19937 rng(51);
  const double h = 1e-4;
  for (int trial = 0; trial < 10; ++trial) {
    const Model m = test::random_tree(10, rng);
    Data d(m);
    const VecX q = random_configuration(m, rng);
    const VecX qd = random_vector(m.nv, rng), tau = random_vector(m.nv, rng);
    const VecX qdd = aba(m, d, q, qd, tau);
    auto E_at = [&](double t) {
      return total_energy(m, d, integrate(m, q, VecX(t * qd + 0.5 * t * t * qdd), 1.0),
                          VecX(qd + t * qdd));
    };
    // Central differences with Richardson extrapolation: truncation O(h^4) ~ 1e-13 relative,
    // round-off ~ eps |E| / h ~ 1e-10.
    auto D = [&](double s) { return (E_at(s) - E_at(-s)) / (2 * s); };
    const double dEdt = (4 * D(h / 2) - D(h)) / 3;
    const double power = qd.dot(tau);
    INFO("dE/dt " << dEdt << " power " << power);
    CHECK(std::abs(dEdt - power) <= 1e-8 * std::max(1.0, std::abs(power)));
  }
}

TEST_CASE("Free-floating tree without gravity conserves momentum and energy",
          "[energy][momentum]") {
  std::mt19937 rng(52);
  const Model m = test::random_floating_tree(8, rng);
  Data d(m);
  VecX q = random_configuration(m, rng), qd = random_vector(m.nv, rng);
  const VecX zero = VecX::Zero(m.nv);
  forward_kinematics(m, d, q, qd);
  const Force h0 = spatial_momentum(m, d);
  const double T0 = kinetic_energy(m, d);
  IntegratorWorkspace ws(m);
  const AccelerationFn f = [&](double, const VecX& qs, const VecX& vs, VecX& a) {
    a = aba(m, d, qs, vs, zero);
  };
  const double step = 1e-3;
  for (int k = 0; k < 1000; ++k) rk4_step(m, f, k * step, step, q, qd, ws);  // one simulated second
  forward_kinematics(m, d, q, qd);
  // RK4 at 1 ms: the truncation error over 1 s is far below these bounds.
  CHECK_CLOSE(spatial_momentum(m, d), h0, 1e-9);
  CHECK(std::abs(kinetic_energy(m, d) - T0) <= 1e-9 * T0);
}
