// Every spatial operation checked against the dense 6x6 formulas of RBDA ch. 2 (tolerance 1e-12).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "core/spatial/cross.hpp"
#include "core/spatial/inertia.hpp"
#include "core/spatial/trig.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using test::random_vector;

namespace {
constexpr double kTol = 1e-12;
Vec6 rand6(std::mt19937& rng) {
  return random_vector(6, rng);
}
}  // namespace

TEST_CASE("Plücker transform operations match the dense matrices", "[spatial]") {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 50; ++trial) {
    const Transform X = test::random_transform(rng), Y = test::random_transform(rng);
    const Vec6 m = rand6(rng), f = rand6(rng);
    const Mat6 Xm = X.matrix();
    CHECK_CLOSE(X.apply(m), Xm * m, kTol);
    CHECK_CLOSE(X.inverse_apply(m), Xm.inverse() * m, kTol);
    CHECK_CLOSE(X.apply_force(f), X.force_matrix() * f, kTol);
    CHECK_CLOSE(X.force_matrix(), Xm.inverse().transpose(), kTol);  // X* = X^-T (Eq. 2.25)
    CHECK_CLOSE(X.transpose_apply(f), Xm.transpose() * f, kTol);
    CHECK_CLOSE((X * Y).matrix(), Xm * Y.matrix(), kTol);
    CHECK_CLOSE(X.inverse().matrix(), Xm.inverse(), kTol);
  }
}

TEST_CASE("Coordinate rotations and translations follow RBDA Table 2.2", "[spatial]") {
  const double th = 0.7;
  // rz(θ) maps coordinates into a frame turned by θ about z: the new x axis is (cos θ, sin θ).
  CHECK_CLOSE(rz(th) * Vec3(std::cos(th), std::sin(th), 0), Vec3(1, 0, 0), kTol);
  CHECK_CLOSE(rx(th) * Vec3(0, std::cos(th), std::sin(th)), Vec3(0, 1, 0), kTol);
  CHECK_CLOSE(ry(th) * Vec3(std::sin(th), 0, std::cos(th)), Vec3(0, 0, 1), kTol);
  // xlt(r) applied to a pure rotation about the old origin gives velocity -r x w at the new one.
  const Vec3 r(1, 2, 3), w(0.1, -0.2, 0.3);
  CHECK_CLOSE(Transform::xlt(r).apply(make_spatial(w, Vec3::Zero())), make_spatial(w, -r.cross(w)),
              kTol);
}

TEST_CASE("Signed permutations are recognised and made exact, nothing else", "[spatial]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> noise(-4e-16, 4e-16);
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int rotations = 0;
  for (const auto& perm : perms)
    for (int signs = 0; signs < 8; ++signs) {
      Mat3 exact = Mat3::Zero();
      for (int a = 0; a < 3; ++a) exact(a, perm[a]) = (signs >> a & 1) ? -1.0 : 1.0;
      Mat3 E = exact;
      for (int k = 0; k < 9; ++k) E.data()[k] += noise(rng);  // what rx(π/2) and friends carry
      const Mat3 before = E;
      const AxisPermutation p = snap_axis_permutation(E);
      if (exact.determinant() < 0) {  // a reflection is no rotation: left alone
        CHECK_FALSE(p.valid);
        CHECK(E == before);
        continue;
      }
      ++rotations;
      REQUIRE(p.valid);
      CHECK(E == exact);  // bit for bit
      const Vec3 x(0.3, -1.7, 2.9);
      for (int a = 0; a < 3; ++a) CHECK((E * x)[a] == p.sign[a] * x[p.axis[a]]);
    }
  CHECK(rotations == 24);
  // Frames from angles that are multiples of 90°: rx(π/2) has cos = 6e-17 where 0 was meant.
  Mat3 E = rx(kPi / 2) * rz(-kPi) * ry(kPi / 2);
  CHECK(snap_axis_permutation(E).valid);
  // A rotation 1e-12 away from a permutation is a real rotation, and a general one too.
  for (Mat3 G : {Mat3(rx(1e-12)), Mat3(rz(0.3) * rx(1.1))}) {
    const Mat3 before = G;
    CHECK_FALSE(snap_axis_permutation(G).valid);
    CHECK(G == before);
  }
}

TEST_CASE("Cross operators match crm and crf", "[spatial]") {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec6 v = rand6(rng), m = rand6(rng), f = rand6(rng);
    CHECK_CLOSE(cross_motion(v, m), crm(v) * m, kTol);
    CHECK_CLOSE(cross_force(v, f), crf(v) * f, kTol);
    CHECK_CLOSE(crf(v), -crm(v).transpose(), kTol);
    CHECK(std::abs(cross_motion(v, v).norm()) < kTol);  // v × v = 0
    // Transforms commute with cross products: X(v × m) = (Xv) × (Xm)   (Table 2.3)
    const Transform X = test::random_transform(rng);
    CHECK_CLOSE(X.apply(cross_motion(v, m)), cross_motion(X.apply(v), X.apply(m)), kTol);
  }
}

TEST_CASE("Rigid-body inertia operations match the dense matrices", "[spatial]") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const RigidBodyInertia I = test::random_inertia(rng), J = test::random_inertia(rng);
    const Transform X = test::random_transform(rng);
    const Vec6 v = rand6(rng);
    const Mat6 Im = I.matrix(), Xm = X.matrix();
    // Eq. 2.62: I = [Ic - m c×c×, m c×; -m c×, m 1]
    const Vec3 c = I.com();
    Mat6 ref;
    ref << I.inertia_about_com() - I.m * skew(c) * skew(c), I.m * skew(c), -I.m * skew(c),
        I.m * Mat3::Identity();
    CHECK_CLOSE(Im, ref, kTol);
    CHECK_CLOSE(Im, Im.transpose(), kTol);
    CHECK_CLOSE(I * v, Im * v, kTol);
    CHECK_CLOSE((I + J).matrix(), Im + J.matrix(), kTol);
    CHECK_CLOSE(apply(X, I).matrix(), X.force_matrix() * Im * Xm.inverse(), kTol);
    CHECK_CLOSE(transpose_apply(X, I).matrix(), Xm.transpose() * Im * Xm, kTol);
    Mat6 IA = Im;
    add_to(IA, J);
    CHECK_CLOSE(IA, Im + J.matrix(), kTol);
  }
}

TEST_CASE("Articulated-body inertia transform matches X^T IA X", "[spatial]") {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 50; ++trial) {
    Mat6 A = Mat6::Random();
    const Mat6 IA = A * A.transpose();  // a general symmetric positive 6x6
    const Transform X = test::random_transform(rng);
    CHECK_CLOSE(transpose_apply(X, IA), X.matrix().transpose() * IA * X.matrix(), kTol);
  }
}

TEST_CASE("sin_cos agrees with std::sin and std::cos to one rounding", "[spatial][trig]") {
  // Joint angles of every size the integrators produce, quadrant boundaries, and the values
  // beyond 1e5 that go to the library. Tolerance 2.3e-16 absolute: one ulp of values near 1.
  std::mt19937 rng(7);
  std::vector<double> xs = {0.0, -0.0, 1e-300, -1e-20, 1e5, -1e5, 1e7, 1e300};
  for (int k = -40; k <= 40; ++k) {
    const double b = k * 1.5707963267948966;  // near multiples of π/2
    for (double d : {0.0, 1e-12, -1e-12, 0.785398, -0.785398}) xs.push_back(b + d);
  }
  for (double range : {1.0, 4.0, 100.0, 1e4, 99999.0}) {
    std::uniform_real_distribution<double> u(-range, range);
    for (int i = 0; i < 20000; ++i) xs.push_back(u(rng));
  }
  double worst = 0.0;
  for (double x : xs) {
    double s, c;
    sin_cos(x, s, c);
    worst = std::max({worst, std::abs(s - std::sin(x)), std::abs(c - std::cos(x))});
  }
  INFO("largest difference " << worst);
  CHECK(worst <= 2.3e-16);
  double s, c;
  sin_cos(std::numeric_limits<double>::quiet_NaN(), s, c);
  CHECK((std::isnan(s) && std::isnan(c)));
}
