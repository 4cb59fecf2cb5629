// Simultaneous impacts whose contact-space matrix is singular (RBDA 11.7 with dependent rows):
// Lemke's method against the complementarity conditions on random positive semidefinite LCPs,
// and the impact that stalled the Strandbeest walker (two feet resting, a third driven down
// onto the ground: three rows, two motions to separate them) against the impact's optimality
// (KKT) conditions, which for this convex problem identify the unique Δq̇.
#include <cmath>
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/sim/contact/impact.hpp"
#include "core/sim/contact/lemke.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

TEST_CASE("Lemke solves positive semidefinite LCPs, singular ones included", "[contacts]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  int singular = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 8, r = 1 + static_cast<int>(u(rng) * n);  // rank r <= n
    const MatX B = MatX::NullaryExpr(n, r, [&] { return 2 * u(rng) - 1; });
    const MatX M = B * B.transpose();
    // A solvable problem: q = w* - M z* with z*, w* >= 0 complementary (each index one or
    // neither), so some but not all of q is negative.
    VecX z = VecX::Zero(n), w = VecX::Zero(n);
    for (int i = 0; i < n; ++i) (u(rng) < 0.5 ? z[i] : w[i]) = u(rng);
    const VecX q = w - M * z;
    singular += r < n;
    const LcpSolution s = solve_lcp_lemke(M, q);
    INFO("trial " << trial << ", n " << n << ", rank " << r);
    REQUIRE(s.solved);
    const VecX ws = M * s.z + q;
    const double scale = 1.0 + q.cwiseAbs().maxCoeff();
    // Round-off of a few pivots on entries of order 1: 1e-12 of the data's scale.
    CHECK(s.z.minCoeff() >= 0.0);
    CHECK(ws.minCoeff() >= -1e-12 * scale);
    CHECK(std::abs(s.z.dot(ws)) <= 1e-12 * scale * (1.0 + s.z.cwiseAbs().maxCoeff()));
  }
  CHECK(singular > 100);
  // Infeasible (w = -1 - 0 z for every z): a ray, reported, not a wrong answer.
  CHECK_FALSE(solve_lcp_lemke(MatX::Zero(1, 1), VecX::Constant(1, -1.0)).solved);
}

TEST_CASE("an impact on a driven foot with two feet resting: three rows, two motions",
          "[contacts]") {
  // Coordinates 0, 1: the chassis' height and pitch; 2: a foot slider driven relative to it
  // (G = e_2ᵀ holds its rate). Feet at x = -1 and +1 on the chassis rest on the ground with
  // rates in round-off below zero (as after the walker's projection); the slider's foot at
  // x = 0 comes down at c. The rows are dependent: row 1 + row 2 = 2 (row 3) - 2 e_2ᵀ.
  // Principal pivoting started from the approaching rows held all three, met an inconsistent
  // subproblem (rank 2, targets 0, 0, c) and returned no impulse with the foot still at -c.
  std::mt19937 rng(5);
  const Model model = test::random_tree(3, rng, false);
  Data data(model);
  const VecX q = test::random_vector(model.nq, rng);
  crba(model, data, q);
  REQUIRE(ltdl_factor(model, data));
  const MatX H = data.H.selfadjointView<Eigen::Lower>();
  const double c = 3.56e-3;
  MatX G(1, 3);
  G << 0, 0, 1;
  MatX J(3, 3);
  J << 1, -1, 0, 1, 1, 0, 1, 0, 1;
  for (double e : {0.0, 0.5}) {
    ImpactProblem P{G, J, VecX(3), VecX::Constant(3, e)};
    P.rate << -1e-20, -3e-19, -c;
    ConstrainedDynamicsWork work;
    const ImpactSolution s = solve_impact(model, data, P, work);
    INFO("e = " << e << ", p = " << s.p.transpose() << ", rate+ = " << s.rate.transpose());
    REQUIRE(s.solved);
    // KKT of min ½ Δq̇ᵀ H Δq̇ subject to G Δq̇ = 0 and Newton's law: tolerances are round-off
    // of one 3x3 solve on entries of order 1 (1e-14 of c's scale, taken as 1e-12 c).
    CHECK(std::abs((G * s.dv)[0]) < 1e-15);
    const VecX w = s.rate + e * P.rate.cwiseMin(0.0);
    CHECK(w.minCoeff() > -1e-12 * c);
    CHECK(s.p.minCoeff() >= 0.0);
    CHECK(std::abs(s.p.dot(w)) < 1e-12 * c * (1 + s.p.sum()));
    const VecX r = H * s.dv - J.transpose() * s.p;  // = Gᵀ π: zero but in the driven coordinate
    CHECK(std::abs(r[0]) + std::abs(r[1]) < 1e-12 * (1 + s.p.sum()));
    CHECK(s.rate[2] >= -e * P.rate[2] - 1e-12 * c);  // the driven foot no longer approaches
    CHECK(s.p[2] > 0.0);
    CHECK(s.contact_work <= 1e-15);  // an impact takes energy out, never puts it in
  }
}
