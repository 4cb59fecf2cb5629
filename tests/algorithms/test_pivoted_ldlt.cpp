// The rank-revealing pivoted L D L^T behind the per-step constraint solve: exact rank of
// semidefinite matrices built with a known rank, solutions of consistent singular systems, the
// dense solve on definite ones, and agreement of G^T μ with the minimum-norm (COD) multipliers.
#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "core/algorithms/pivoted_ldlt.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
MatX random_matrix(int rows, int cols, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  MatX m(rows, cols);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) m(r, c) = u(rng);
  return m;
}
}  // namespace

TEST_CASE("Pivoted LDLT: rank and solutions of semidefinite systems", "[pivoted_ldlt]") {
  std::mt19937 rng(5);
  PivotedLdlt f;
  for (int n : {1, 2, 5, 12, 30})
    for (int r = 0; r <= n; r += std::max(1, n / 4)) {
      const MatX B = random_matrix(n, r, rng);
      const MatX A = B * B.transpose();  // rank r, positive semidefinite
      f.factor(A, 1e-10);
      INFO("n = " << n << ", rank " << r);
      CHECK(f.rank() == r);
      const VecX b = A * test::random_vector(n, rng);  // in the range of A: consistent
      VecX x = b;
      f.solve(x);
      CHECK_CLOSE(A * x, b, 1e-10);
      if (r == n) CHECK_CLOSE(x, A.ldlt().solve(b), 1e-9);
    }
}

TEST_CASE("Pivoted LDLT: constraint forces agree with the minimum-norm multipliers", "[pivoted_ldlt]") {
  // G with dependent rows (a planar loop's out-of-plane rows are dependent or zero): μ differs
  // between solvers but G^T μ, the generalized constraint force, is unique.
  std::mt19937 rng(9);
  const int nv = 8;
  MatX G(6, nv);
  G.topRows(3) = random_matrix(3, nv, rng);
  G.row(3) = G.row(0) + 2 * G.row(1);
  G.row(4).setZero();
  G.row(5) = -G.row(2);
  const MatX M = random_matrix(nv, nv, rng);
  const MatX Hinv = (M * M.transpose() + MatX::Identity(nv, nv)).inverse();
  const MatX A = G * Hinv * G.transpose();
  const VecX rhs = A * test::random_vector(6, rng);
  PivotedLdlt f;
  f.factor(A, 1e-10);
  CHECK(f.rank() == 3);
  VecX mu = rhs;
  f.solve(mu);
  Eigen::CompleteOrthogonalDecomposition<MatX> cod(A);
  cod.setThreshold(1e-10);
  const VecX mu_min = cod.solve(rhs);
  CHECK_CLOSE(G.transpose() * mu, G.transpose() * mu_min, 1e-10);
}
