// The one loop-joint geometry (core/algorithms/loop_geometry.hpp) against finite differences:
// along an admissible motion of an assembled mechanism (q̇ in the null space of K), a 1-DoF loop
// joint's coordinate changes at q̇_l = P^T v_J and its rate at q̈_l = P^T a_rel - P^T(c_J + v_s ×
// v_J) with the tree's q̈; the absolute frame's origin changes nothing.
#include <Eigen/SVD>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/mechanism.hpp"
#include "core/spatial/cross.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
// A q̇ the loops allow: the first right singular vector of K's null space.
VecX admissible_velocity(const Mechanism& m, Data& data) {
  forward_kinematics(m.model(), data, m.q0);
  MatX K;
  loop_jacobian(m.model(), data, m.compiled.loops, K);
  const Eigen::JacobiSVD<MatX> svd(K, Eigen::ComputeFullV);
  return svd.matrixV().col(m.model().nv - 1);
}

// The loop joint's coordinate and its rate at q(t) = q0 ⊕ t q̇ (on the manifold to O(t²)).
LoopCoordinate at(const Mechanism& m, Data& data, const LoopJoint& l, const VecX& qd, double t) {
  const VecX q = integrate(m.model(), m.q0, qd, t);
  forward_kinematics(m.model(), data, q, qd);
  LoopMotion lm;
  loop_motion(data, l, LoopLevel::Velocity, lm);
  LoopCoordinate c;
  loop_coordinate(l, lm, LoopLevel::Velocity, c);
  return c;
}
}  // namespace

TEST_CASE("A loop joint's coordinate rate is P^T v_J along admissible motions", "[loops]") {
  for (const char* file : {"fourbar.json", "slider_crank.json", "watt_six_bar.json", "rssr.json"}) {
    const Mechanism m = prepare(load_project(test::sample_path(file)).spec);
    Data data(m.model());
    const VecX qd = admissible_velocity(m, data);
    for (const LoopJoint& l : m.compiled.loops) {
      if (l.joint.nv() != 1) continue;
      const double h = 1e-6;
      const LoopCoordinate c0 = at(m, data, l, qd, 0.0);
      const double fd = (at(m, data, l, qd, h).q - at(m, data, l, qd, -h).q) / (2 * h);
      INFO(file << " loop joint " << l.name << ": P^T v_J " << c0.qd << ", difference " << fd);
      CHECK(std::abs(c0.qd - fd) <= 1e-7 * std::max(1.0, std::abs(fd)));  // central, h = 1e-6
    }
  }
}

TEST_CASE("Loop motion does not depend on the absolute frame's origin", "[loops]") {
  std::mt19937 rng(7);
  const Mechanism m = prepare(load_project(test::sample_path("stewart_platform.json")).spec);
  Data data(m.model());
  const VecX qd = test::random_vector(m.model().nv, rng);
  forward_kinematics_bias(m.model(), data, m.q0, qd);
  const Vec3 origin(40.0, -25.0, 13.0);
  for (const LoopJoint& l : m.compiled.loops) {
    LoopMotion a, b;
    loop_motion(data, l, LoopLevel::Acceleration, a);
    loop_motion(data, l, LoopLevel::Acceleration, b, nullptr, &origin);
    CHECK_CLOSE(a.vJ, b.vJ, 1e-12);
    CHECK_CLOSE(a.a_bias, b.a_bias, 1e-12);
    CHECK_CLOSE(a.a_rel, b.a_rel, 1e-12);
    CHECK_CLOSE(a.vs, b.vs, 1e-12);
    // a_bias = a_rel - v_s × v_J (RBDA Eq. 8.15 in the successor frame)
    CHECK_CLOSE(a.a_bias, Motion(a.a_rel - cross_motion(a.vs, a.vJ)), 1e-12);
  }
}
