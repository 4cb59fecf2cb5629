// The smoothers' information matrix (core/estimation/information.hpp): its steps and its
// covariance blocks against a dense inverse of the same matrix (Eigen's dense LDLT, an
// independent factorisation), on random block-tridiagonal matrices with and without parameter
// rows (the arrow of identify). The first knot's block, read from the reverse-ordered factor's
// trailing block alone, and the others by solves agree to 1e-10 relative (the matrices are
// diagonally dominant, condition below 1e3: rounding stays near 1e-13).
#include <Eigen/Cholesky>
#include <catch2/catch.hpp>
#include <random>

#include "core/estimation/information.hpp"

using namespace articula;

namespace {
// Block-tridiagonal over `knots` blocks of nb, then np parameter rows coupled to everything.
MatX random_information(int knots, int nb, int np, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n0 = knots * nb, n = n0 + np;
  MatX J = MatX::Zero(3 * n, n);  // H = Jᵀ J + I: positive definite with the wanted pattern
  for (int r = 0; r < J.rows(); ++r) {
    const int k = (r / 3) % knots;  // each row touches knot k and k + 1 (and the parameters)
    for (int c = k * nb; c < std::min(n0, (k + 2) * nb); ++c) J(r, c) = u(rng);
    for (int c = n0; c < n; ++c) J(r, c) = u(rng);
  }
  return J.transpose() * J + 3.0 * MatX::Identity(n, n);
}

double relative(const MatX& a, const MatX& b) {
  return (a - b).norm() / b.norm();
}
}  // namespace

TEST_CASE("Information: steps and covariance blocks equal a dense inverse", "[information]") {
  std::mt19937 rng(20);
  for (const int np : {0, 2}) {
    const int knots = 7, nb = 5, n0 = knots * nb;
    const MatX H = random_information(knots, nb, np, rng);
    const MatX H_lower = H.triangularView<Eigen::Lower>();
    const Information::Sparse lower = H_lower.sparseView();
    Information info;
    REQUIRE(info.compute(lower, nb, n0));
    const MatX inverse = H.ldlt().solve(MatX::Identity(H.rows(), H.cols()));
    const VecX b = VecX::LinSpaced(H.rows(), -1.0, 2.0);
    CHECK(relative(info.solve(b), inverse * b) < 1e-10);
    for (int k = 0; k < knots; ++k) {
      INFO("parameters " << np << ", knot " << k);
      CHECK(relative(info.knot_covariance(k), inverse.block(k * nb, k * nb, nb, nb)) < 1e-10);
    }
    if (np > 0)
      CHECK(relative(info.parameter_covariance(), inverse.bottomRightCorner(np, np)) < 1e-10);
  }
}

// The dense block-tridiagonal path (compute(KnotBlocks), the smoothers' without parameters)
// against the same dense inverse, to the same 1e-10; and a matrix that is not positive definite
// is refused.
TEST_CASE("Information: the block-tridiagonal factorisation equals a dense inverse",
          "[information]") {
  std::mt19937 rng(24);
  const int knots = 7, nb = 5;
  const MatX H = random_information(knots, nb, 0, rng);
  KnotBlocks blocks;
  for (int k = 0; k < knots; ++k) {
    blocks.diag.push_back(H.block(k * nb, k * nb, nb, nb).triangularView<Eigen::Lower>());
    if (k + 1 < knots) blocks.below.push_back(H.block((k + 1) * nb, k * nb, nb, nb));
  }
  Information info;
  REQUIRE(info.compute(blocks));
  const MatX inverse = H.ldlt().solve(MatX::Identity(H.rows(), H.cols()));
  const VecX b = VecX::LinSpaced(H.rows(), -1.0, 2.0);
  CHECK(relative(info.solve(b), inverse * b) < 1e-10);
  for (int k = 0; k < knots; ++k) {
    INFO("knot " << k);
    CHECK(relative(info.knot_covariance(k), inverse.block(k * nb, k * nb, nb, nb)) < 1e-10);
  }
  CHECK(info.knot_covariance(0).isApprox(inverse.topLeftCorner(nb, nb), 1e-10));  // again, cached
  blocks.diag[3] = -MatX::Identity(nb, nb);                                       // indefinite
  CHECK_FALSE(info.compute(blocks));
}
