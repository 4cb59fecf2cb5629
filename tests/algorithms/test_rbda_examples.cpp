// Numbers printed in RBDA chapter 10.
#include <Eigen/SVD>
#include <cmath>
#include <numbers>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/rnea.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

TEST_CASE("Zigzag chain of RBDA Fig. 10.3: tau_d, cond(H) and the perturbed response", "[rbda]") {
  const Model m = test::planar_chain(6);
  Data d(m);
  VecX q(6);
  const double a = 75.0 * std::numbers::pi / 180.0;
  q << a, -a, a, -a, a, -a;
  const VecX ones = VecX::Ones(6), zero = VecX::Zero(6);
  const VecX tau_d = rnea(m, d, q, zero, ones);
  VecX book(6);
  book << 126.4936, 97.4663, 69.9762, 43.7998, 21.9371, 6.1646;  // printed to 4 decimals
  for (int i = 0; i < 6; ++i) CHECK(std::abs(tau_d[i] - book[i]) < 1e-4);
  const MatX H = crba(m, d, q);
  const Eigen::JacobiSVD<MatX> svd(H);
  const double cond = svd.singularValues()(0) / svd.singularValues()(5);
  INFO("cond(H) = " << cond);
  CHECK(std::abs(cond - 725.0) < 0.5);  // "the actual condition number of H ... is 725"
  // Forces rounded to three significant figures produce the book's q̈_a.
  VecX tau_a(6), qdd_book(6);
  tau_a << 126, 97.5, 70.0, 43.8, 21.9, 6.16;
  // The book prints 0.6952 for the first entry; we get 0.6592 (digits 5 and 9 transposed, a
  // misprint: τ_d, cond(H) and the other five entries all agree to the printed precision).
  qdd_book << 0.6592, 1.3654, 1.3808, 0.5894, 0.9057, 1.0705;
  const VecX qdd_a = aba(m, d, q, zero, tau_a);
  for (int i = 0; i < 6; ++i) CHECK(std::abs(qdd_a[i] - qdd_book[i]) < 1e-4);
}

TEST_CASE("Round-off example of RBDA Eq. 10.1: a far-away origin loses accuracy", "[rbda]") {
  // Unit mass, unit rotational inertia about C, C at c = (100, 10) from O. Rotating about C with
  // unit angular velocity, under the pure force f_C = [1, -1, 1] (planar, about C).
  const double cx = 100, cy = 10;
  const RigidBodyInertia I =
      RigidBodyInertia::from_mass_com(1.0, Vec3(cx, cy, 0), Mat3::Identity());
  // The planar part (ω_z, v_x, v_y) of I_O is the book's matrix.
  const Mat6 Im = I.matrix();
  const int idx[3] = {2, 3, 4};
  Eigen::Matrix3d IO, book;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) IO(r, c) = Im(idx[r], idx[c]);
  book << 1 + cx * cx + cy * cy, -cy, cx, -cy, 1, 0, cx, 0, 1;
  CHECK(IO == book);
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(IO);
  const double cond = svd.singularValues()(0) / svd.singularValues()(2);
  CHECK(std::abs(cond - 1.02e8) < 0.01e8);  // "a condition number of 1.02×10^8"

  // The same body floating freely, its body frame at O; ABA must return a_O = [1, cy-1, 1-cx].
  ModelBuilder b;
  b.set_gravity(Vec3::Zero());
  b.add_body("body", 0, Joint::free(), Transform(), I);
  const Model m = b.build();
  Data d(m);
  VecX q(7), qd(6);
  q << 0, 0, 0, 1, 0, 0, 0;
  qd << 0, 0, 1, cy, -cx, 0;  // v_O
  ExternalForces f(2, Force::Zero());
  f[1] << 0, 0, 1 + cx + cy, -1, 1, 0;  // f_O
  const VecX a = aba(m, d, q, qd, VecX::Zero(6), &f);
  Vec6 exact;
  exact << 0, 0, 1, cy - 1, 1 - cx, 0;
  // The book: "differ from the exact value by about one part in 10^12".
  const double err = (a - exact).norm() / exact.norm();
  INFO("relative error at O: " << err);
  CHECK(err < 1e-10);
  CHECK(err > 0.0);  // the loss is real: exactness would mean the example no longer illustrates it

  // With the body frame at C the same calculation is accurate to round-off.
  ModelBuilder bc;
  bc.set_gravity(Vec3::Zero());
  bc.add_body("body", 0, Joint::free(), Transform::xlt(Vec3(cx, cy, 0)),
              RigidBodyInertia::from_mass_com(1.0, Vec3::Zero(), Mat3::Identity()));
  const Model mc = bc.build();
  Data dc(mc);
  VecX qdc(6);
  qdc << 0, 0, 1, 0, 0, 0;
  ExternalForces fc(2, Force::Zero());
  fc[1] = f[1];  // the same physical force, still given in base coordinates
  const VecX ac = aba(mc, dc, q, qdc, VecX::Zero(6), &fc);
  // a_C = [1, 0, 0] in the planar components... linear acceleration of C: ω̇ × 0 + f/m = [-1, 1].
  Vec6 exact_c;
  exact_c << 0, 0, 1, -1, 1, 0;
  CHECK_CLOSE(ac, exact_c, 1e-15);
}
