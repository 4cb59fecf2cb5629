// Forward kinematics and Jacobians against finite differences along q(t) = q ⊕ t qd.
#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/model/configuration.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using test::random_vector;

TEST_CASE("Point and body Jacobians match finite differences", "[jacobian]") {
  std::mt19937 rng(41);
  const double h = 1e-6;  // central differences: error O(h^2) + O(eps/h), tolerance 1e-7
  for (int trial = 0; trial < 10; ++trial) {
    const Model m = test::random_tree(15, rng);
    Data d(m), dp(m), dm(m);
    const VecX q = random_configuration(m, rng), qd = random_vector(m.nv, rng);
    forward_kinematics(m, d, q, qd);
    forward_kinematics(m, dp, integrate(m, q, qd, h));
    forward_kinematics(m, dm, integrate(m, q, qd, -h));
    for (int i = 1; i <= m.nb; ++i) {
      const Vec3 p = random_vector(3, rng);
      MatX J;
      point_jacobian(m, d, i, p, J);
      const Vec3 v_fd = (point_position(dp, i, p) - point_position(dm, i, p)) / (2 * h);
      CHECK_CLOSE(Vec3(J * qd), v_fd, 1e-7);
      CHECK_CLOSE(Vec3(J * qd), point_velocity(d, i, p), 1e-12);
      body_jacobian(m, d, i, J);
      CHECK_CLOSE(Vec6(J * qd), d.v[i], 1e-12);
      // Spatial velocity in base coordinates from the motion of ^iX_0: d/dt X = -(v×) X.
      const Mat6 X0 = d.X0[i].matrix();
      const Mat6 vx = -((dp.X0[i].matrix() - dm.X0[i].matrix()) / (2 * h)) * X0.inverse();
      const Vec6 v_fd6 =
          make_spatial(Vec3(vx(2, 1), vx(0, 2), vx(1, 0)), Vec3(vx(5, 1), vx(3, 2), vx(4, 0)));
      CHECK_CLOSE(d.v[i], v_fd6, 1e-7);
    }
  }
}

TEST_CASE("Body accelerations are the time derivatives of body velocities", "[kinematics]") {
  // Along q(t) = q ⊕ (t qd + t²/2 qdd), v(t) = qd + t qdd + O(t²): the base-coordinate spatial
  // velocity ^0v_i(t) has derivative ^0X_i a_i at t = 0. This checks c_J of every joint type.
  std::mt19937 rng(42);
  const double h = 1e-5;
  for (int trial = 0; trial < 10; ++trial) {
    const Model m = test::random_tree(12, rng);
    Data d(m), dp(m), dm(m);
    const VecX q = random_configuration(m, rng);
    const VecX qd = random_vector(m.nv, rng), qdd = random_vector(m.nv, rng);
    forward_kinematics(m, d, q, qd, qdd);
    for (double s : {h, -h}) {
      Data& ds = s > 0 ? dp : dm;
      forward_kinematics(m, ds, integrate(m, q, VecX(s * qd + 0.5 * s * s * qdd), 1.0),
                         VecX(qd + s * qdd));
    }
    for (int i = 1; i <= m.nb; ++i) {
      const Vec6 a_fd = (body_velocity_in_base(dp, i) - body_velocity_in_base(dm, i)) / (2 * h);
      CHECK_CLOSE(d.X0[i].inverse_apply(d.a[i]), a_fd, 1e-6);
      const Vec3 p = random_vector(3, rng);
      const Vec3 acc_fd = (point_velocity(dp, i, p) - point_velocity(dm, i, p)) / (2 * h);
      CHECK_CLOSE(point_acceleration(d, i, p), acc_fd, 1e-6);
    }
  }
}
