// Integrators: order of accuracy, and unit quaternions over long runs.
#include <cmath>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/integrators.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

TEST_CASE("RK4 is fourth order on a pendulum", "[integrators]") {
  ModelBuilder b;
  b.set_gravity(Vec3(0, -9.81, 0));
  b.add_body("bob", 0, Joint::revolute(), Transform(),
             RigidBodyInertia::from_mass_com(1.0, Vec3(1, 0, 0), Mat3::Identity() * 1e-3));
  const Model m = b.build();
  Data d(m);
  const VecX zero = VecX::Zero(1);
  const AccelerationFn f = [&](double, const VecX& q, const VecX& v, VecX& a) {
    a = aba(m, d, q, v, zero);
  };
  auto run = [&](double h) {
    VecX q = VecX::Constant(1, 0.3), v = VecX::Zero(1);
    IntegratorWorkspace ws(m);
    const int n = static_cast<int>(std::lround(1.0 / h));
    for (int k = 0; k < n; ++k) rk4_step(m, f, k * h, h, q, v, ws);
    return q[0];
  };
  const double ref = run(1e-4);
  const double e1 = std::abs(run(1e-2) - ref), e2 = std::abs(run(5e-3) - ref);
  INFO("errors " << e1 << " " << e2);
  CHECK(e1 / e2 > 14.0);  // halving h divides the error by ~16
  CHECK(e1 / e2 < 18.0);
}

TEST_CASE("Quaternion joints stay unit length over 1e5 steps", "[integrators][quaternion]") {
  std::mt19937 rng(61);
  ModelBuilder b;
  b.set_gravity(Vec3(0, 0, -9.81));
  b.add_body(
      "top", 0, Joint::spherical(), Transform(),
      RigidBodyInertia::from_mass_com(1.0, Vec3(0, 0, 0.5), Vec3(0.02, 0.03, 0.04).asDiagonal()));
  b.add_body("flyer", 0, Joint::free(), Transform(), test::random_inertia(rng));
  const Model m = b.build();
  Data d(m);
  VecX q = neutral_configuration(m), v(9);
  v << 3.0, -1.0, 20.0, 1.0, 2.0, 3.0, 0.1, 0.2, 0.3;
  const VecX zero = VecX::Zero(m.nv);
  const AccelerationFn f = [&](double, const VecX& qs, const VecX& vs, VecX& a) {
    a = aba(m, d, qs, vs, zero);
  };
  IntegratorWorkspace ws(m);
  double worst = 0.0;
  for (int k = 0; k < 100000; ++k) {
    if (k % 2)
      rk4_step(m, f, k * 1e-4, 1e-4, q, v, ws);
    else
      euler_step(m, f, k * 1e-4, 1e-4, q, v, ws);
    worst = std::max(
        {worst, std::abs(q.segment<4>(0).norm() - 1.0), std::abs(q.segment<4>(7).norm() - 1.0)});
  }
  INFO("largest deviation from unit length " << worst);
  CHECK(worst < 1e-14);
  CHECK(std::isfinite(q.sum()));
}
