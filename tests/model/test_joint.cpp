// The joint catalogue: jcalc against finite differences of X_J, configuration operations, and the
// loop-joint form [δ, T].
#include <Eigen/QR>
#include <algorithm>

#include "core/model/configuration.hpp"
#include "core/spatial/cross.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
const JointType kAll[] = {JointType::Revolute,    JointType::Prismatic, JointType::Helical,
                          JointType::Cylindrical, JointType::Universal, JointType::Spherical,
                          JointType::Planar,      JointType::Free,      JointType::Fixed};

Joint make(JointType t) {
  return Joint{t, t == JointType::Helical ? 0.13 : 0.0};
}

VecX random_q(const Joint& j, std::mt19937& rng) {
  ModelBuilder b;
  b.add_body("b", 0, j, Transform(), test::random_inertia(rng));
  return random_configuration(b.build(), rng);
}

VecX moved(const Joint& j, const VecX& q, const VecX& v, double t) {
  VecX out(j.nq());
  joint_integrate(j, q.data(), v.data(), t, out.data());
  return out;
}

// Relative velocity of successor w.r.t. predecessor, successor coordinates, from X(t):
// dX/dt = -(v×) X  (RBDA Eq. 2.44).
Vec6 velocity_from_fd(const Mat6& Xp, const Mat6& Xm, const Mat6& X0, double h) {
  const Mat6 vx = -((Xp - Xm) / (2 * h)) * X0.inverse();
  return make_spatial(Vec3(vx(2, 1), vx(0, 2), vx(1, 0)), Vec3(vx(5, 1), vx(3, 2), vx(4, 0)));
}
}  // namespace

TEST_CASE("jcalc: S qd is the velocity of X_J(q(t)) and c_J is dS/dt qd", "[joint]") {
  std::mt19937 rng(11);
  const double h = 1e-6;
  for (JointType t : kAll)
    for (bool reversed : {false, true}) {
      Joint j = make(t);
      j.reversed = reversed;
      SECTION(std::string(joint_type_name(t)) + (reversed ? " reversed" : "")) {
        for (int trial = 0; trial < 10; ++trial) {
          const VecX q = random_q(j, rng), qd = test::random_vector(j.nv(), rng);
          JointCalc jc, jp, jm;
          jcalc(j, q.data(), qd.data(), jc);
          REQUIRE(jc.S.cols() == j.nv());
          const VecX qp = moved(j, q, qd, h), qm = moved(j, q, qd, -h);
          jcalc(j, qp.data(), qd.data(), jp);
          jcalc(j, qm.data(), qd.data(), jm);
          // Central differences: truncation O(h^2), round-off O(eps/h) ~ 1e-10.
          CHECK_CLOSE(jc.vJ, velocity_from_fd(jp.XJ.matrix(), jm.XJ.matrix(), jc.XJ.matrix(), h),
                      1e-8);
          const Vec6 cJ_fd = j.nv() ? Vec6((jp.S - jm.S) / (2 * h) * qd) : Vec6::Zero();
          CHECK_CLOSE(jc.cJ, cJ_fd, 1e-8);
          CHECK_CLOSE(jc.vJ, Vec6(jc.S * qd), 1e-15);
        }
      }
    }
}

TEST_CASE("integrate, difference and q_dot are consistent", "[joint]") {
  std::mt19937 rng(12);
  for (JointType t : kAll) {
    const Joint j = make(t);
    SECTION(std::string(joint_type_name(t))) {
      for (int trial = 0; trial < 10; ++trial) {
        const VecX q = random_q(j, rng), v = test::random_vector(j.nv(), rng);
        const VecX q1 = moved(j, q, v, 1.0);
        VecX back(j.nv());
        joint_difference(j, q1.data(), q.data(), back.data());
        CHECK_CLOSE(back, v, 1e-12);
        VecX qdot(j.nq());
        joint_q_dot(j, q.data(), v.data(), qdot.data());
        const double h = 1e-6;
        CHECK_CLOSE(VecX((moved(j, q, v, h) - moved(j, q, v, -h)) / (2 * h)), qdot, 1e-8);
      }
    }
  }
}

TEST_CASE("Loop-joint form: δ vanishes on the joint manifold, T^T S = 0, dδ/dt = T^T v_rel",
          "[joint][loop]") {
  std::mt19937 rng(13);
  const Joint free = Joint::free();
  for (JointType t : kAll) {
    const Joint j = make(t);
    SECTION(std::string(joint_type_name(t))) {
      for (int trial = 0; trial < 10; ++trial) {
        const VecX q = random_q(j, rng);
        const Transform XJ = joint_transform(j, q.data());
        VecN delta;
        Mat6X T;
        loop_jcalc(j, XJ, delta, T);
        REQUIRE(delta.size() == j.nc());
        REQUIRE(T.cols() == j.nc());
        CHECK(delta.norm() <= 1e-12);
        JointCalc jc;
        const VecX zero = VecX::Zero(j.nv());
        jcalc(j, q.data(), zero.data(), jc);
        if (j.nc() > 0 && j.nv() > 0) CHECK((T.transpose() * jc.S).norm() <= 1e-12);
        if (j.nc() > 0) CHECK(Eigen::ColPivHouseholderQR<MatX>(MatX(T)).rank() == j.nc());
        // Move the successor with an arbitrary relative twist v (successor coordinates).
        const Vec6 v = test::random_vector(6, rng);
        VecX id(7), qp(7), qm(7);
        joint_neutral(free, id.data());
        const double h = 1e-6;
        joint_integrate(free, id.data(), v.data(), h, qp.data());
        joint_integrate(free, id.data(), v.data(), -h, qm.data());
        VecN dp, dm;
        Mat6X Tp;
        loop_jcalc(j, joint_transform(free, qp.data()) * XJ, dp, Tp);
        loop_jcalc(j, joint_transform(free, qm.data()) * XJ, dm, Tp);
        if (j.nc() > 0) CHECK_CLOSE(VecN((dp - dm) / (2 * h)), VecN(T.transpose() * v), 1e-8);
      }
    }
  }
}

TEST_CASE("Loop-joint error is nonzero off the manifold", "[joint][loop]") {
  std::mt19937 rng(14);
  for (JointType t : kAll) {
    const Joint j = make(t);
    if (j.nc() == 0) continue;
    const VecX q = random_q(j, rng);
    // A small displacement along a constrained direction must show up in δ.
    VecN delta;
    Mat6X T;
    loop_jcalc(j, joint_transform(j, q.data()), delta, T);
    const Mat6X T0 = T;
    for (int c = 0; c < j.nc(); ++c) {
      const Vec6 v = 1e-3 * T0.col(c) / T0.col(c).squaredNorm();
      VecX id(7), qp(7);
      joint_neutral(Joint::free(), id.data());
      joint_integrate(Joint::free(), id.data(), v.data(), 1.0, qp.data());
      loop_jcalc(j, joint_transform(Joint::free(), qp.data()) * joint_transform(j, q.data()), delta,
                 T);
      INFO(joint_type_name(t) << " column " << c);
      CHECK(delta.norm() > 5e-4);
    }
  }
}

TEST_CASE("joint_coordinates inverts joint_transform", "[joint]") {
  std::mt19937 rng(15);
  for (JointType t : kAll) {
    const Joint j = make(t);
    for (int trial = 0; trial < 10; ++trial) {
      VecX q = random_q(j, rng);
      if (t == JointType::Universal) q[1] = std::clamp(q[1], -1.5, 1.5);  // away from gimbal lock
      const Transform X = joint_transform(j, q.data());
      VecX q2(j.nq());
      joint_coordinates(j, X, q2.data());
      INFO(joint_type_name(t));
      CHECK(joint_transform(j, q2.data()).isApprox(X, 1e-12));
    }
  }
}

TEST_CASE("Joint names round-trip", "[joint]") {
  for (JointType t : kAll) CHECK(joint_type_from_name(joint_type_name(t)) == t);
  CHECK_FALSE(joint_type_from_name("hinge").has_value());
}
