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

// lower_gram(J, rows) against the plain sums over j in order, 0 apart (and the signs of zeros).
void check_lower_gram_exact(const MatX& J, const std::vector<int>& rows) {
  MatX A;
  lower_gram(J, rows, A);
  const int k = static_cast<int>(rows.size());
  REQUIRE(A.rows() == k);
  for (int c = 0; c < k; ++c)
    for (int r = c; r < k; ++r) {
      double x = 0.0;
      for (int j = 0; j < J.cols(); ++j) x += J(rows[r], j) * J(rows[c], j);
      CHECK(A(r, c) == x);
      CHECK(std::signbit(A(r, c)) == std::signbit(x));
    }
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

TEST_CASE("Pivoted LDLT: constraint forces agree with the minimum-norm multipliers",
          "[pivoted_ldlt]") {
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

TEST_CASE("Pivoted LDLT: the unpivoted shortcut keeps the rank decisions", "[pivoted_ldlt]") {
  // A = Q diag(λ) Q^T. One eigenvalue far below rel_tol (1e-10), the others 1: the rank must
  // come out n - 1. Eigenvalues spread geometrically from 1 down to `smallest` >= 1e-6: definite,
  // the product of the pivots may be far below rel_tol (the shortcut then falls back to pivoting),
  // the rank must be n and the solution must match Eigen's LDLT.
  std::mt19937 rng(11);
  PivotedLdlt f;
  for (int n : {2, 6, 15, 30})
    for (double smallest : {1e-16, 1e-14, 1e-6, 1e-3, 1e-1, 1.0}) {
      INFO("n = " << n << ", smallest eigenvalue " << smallest);
      const Eigen::HouseholderQR<MatX> qr(random_matrix(n, n, rng));
      const MatX Q = qr.householderQ();
      const bool singular = smallest < 1e-10;
      VecX lambda = VecX::Ones(n);
      for (int i = 0; i < n; ++i)
        if (!singular) lambda[i] = std::pow(smallest, double(i) / std::max(1, n - 1));
      if (singular) lambda[n - 1] = smallest;
      const MatX A = Q * lambda.asDiagonal() * Q.transpose();
      f.factor(A, 1e-10);
      CHECK(f.rank() == (singular ? n - 1 : n));
      if (singular) continue;
      const VecX b = random_matrix(n, 1, rng);
      VecX x = b;
      f.solve(x);
      const VecX ref = A.ldlt().solve(b);
      CHECK((x - ref).norm() <= 1e-9 * ref.norm());
    }
}

TEST_CASE("Pivoted LDLT: rank decisions on rows of very different scales", "[pivoted_ldlt]") {
  // A = S C S: C = Q diag(λ) Q^T as above, S a diagonal spanning 10^-1.5 .. 10^1.5 (A's diagonal
  // spans six decades, as the walker's constraint rows do). Definite (λ from 1 down to 1e-3):
  // every Schur pivot is at least λ_min(A) >= 1e-3 s_min^2, 1e-9 of the largest diagonal entry
  // (above rel_tol = 1e-10), so the rank must be n whichever path factors it. Singular (one λ at
  // 1e-16): rank n - 1, the unpivoted shortcut's determinant test must refuse it.
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> exponent(-1.5, 1.5);
  PivotedLdlt f;
  for (int n : {3, 12, 40, 75})
    for (bool singular : {false, true}) {
      INFO("n = " << n << (singular ? ", singular" : ", definite"));
      const Eigen::HouseholderQR<MatX> qr(random_matrix(n, n, rng));
      const MatX Q = qr.householderQ();
      VecX lambda(n), s(n);
      for (int i = 0; i < n; ++i) {
        lambda[i] = std::pow(1e-3, double(i) / (n - 1));
        s[i] = std::pow(10.0, exponent(rng));
      }
      if (singular) lambda[n - 1] = 1e-16;
      const MatX A = s.asDiagonal() * (Q * lambda.asDiagonal() * Q.transpose()) * s.asDiagonal();
      f.factor(A, 1e-10);
      CHECK(f.rank() == (singular ? n - 1 : n));
      const VecX b = singular ? VecX(A * random_matrix(n, 1, rng)) : VecX(random_matrix(n, 1, rng));
      VecX x = b;
      f.solve(x);
      CHECK((A * x - b).norm() <= 1e-12 * A.norm() * x.norm());  // backward stable (n eps)
    }
}

TEST_CASE("Column sums: add_times and significant_rows against dense products", "[pivoted_ldlt]") {
  // Every row count from 0 to 40 crosses the kernels' pair, odd-row and 16-row block cases.
  std::mt19937 rng(71);
  for (int m = 0; m <= 40; ++m)
    for (int n : {1, 7, 21}) {
      MatX M = MatX::Zero(m + 3, n);  // leading dimension larger than the rows summed
      M.topRows(m) = MatX::Random(m, n);
      const VecX x = test::random_vector(n, rng), out0 = test::random_vector(m + 3, rng);
      for (double sign : {1.0, -1.0}) {
        VecX out = out0;
        add_times(M, m, x.data(), sign, out.data());
        VecX expected = out0;
        expected.head(m) += sign * (M.topRows(m) * x);
        CHECK_CLOSE(out, expected, 1e-14);  // relative; rows past m untouched
        CHECK(out.tail(3) == out0.tail(3));
      }
      if (m == 0) continue;
      MatX J = M.topRows(m);
      for (int r = 0; r < m; r += 3) J.row(r) *= 1e-13;  // squared norm 1e-26 of the largest
      std::vector<int> rows;
      significant_rows(J, 1e-24, rows);
      const double largest = J.rowwise().squaredNorm().maxCoeff();
      std::vector<int> expected;
      for (int r = 0; r < m; ++r)
        if (J.row(r).squaredNorm() > 1e-24 * largest) expected.push_back(r);
      CHECK(rows == expected);
    }
}

TEST_CASE("lower_gram gives J_R J_R^T bit for bit the plain row-by-row sums", "[pivoted_ldlt]") {
  // It reads the rows from a contiguous copy, four entries at a time: each entry must still be
  // summed in the order of j (0 apart, so that the projection's steps do not change).
  std::srand(7);
  for (int m : {1, 3, 4, 9, 13})
    for (int n : {1, 5, 40}) {
      const MatX J = MatX::Random(m + 3, n);
      std::vector<int> rows;
      for (int r = 0; r < m + 3; ++r)
        if (r % 5 != 2 || m == 1) rows.push_back(r);  // some rows left out
      check_lower_gram_exact(J, rows);
    }
}

TEST_CASE("lower_gram skips the zeros of sparse rows bit for bit", "[pivoted_ldlt]") {
  // Rows that touch a few columns each (a loop's leg and the shared crank and frame), with
  // signed zeros among them: the sums over the nonzero columns only must equal the plain sums
  // over all columns bit for bit (0 apart), signs of zero included.
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int m : {1, 5, 8, 19})
    for (int n : {1, 6, 76}) {
      MatX J = MatX::Zero(m + 2, n);
      for (int r = 0; r < m + 2; ++r)
        for (int j = 0; j < n; ++j) {
          const bool shared = j < 3, own = (j / 4) % (m + 2) == r;
          if (shared || own) J(r, j) = u(rng);
          if (!shared && !own && (r + j) % 7 == 0) J(r, j) = -0.0;
        }
      std::vector<int> rows;
      for (int r = 0; r < m + 2; ++r)
        if (r != 1 || m == 1) rows.push_back(r);
      check_lower_gram_exact(J, rows);
    }
}

TEST_CASE("Pivoted LDLT: the left-looking unpivoted attempt at every size and failure step",
          "[pivoted_ldlt]") {
  // Every size from 1 to 33 (odd sizes have a padding row; odd steps run the attempt's single
  // trailing column update), alternating on one object: a definite A (the unpivoted factor is
  // kept; x against Eigen's LDLT to 1e-10 relative, cond(A) <= 1e2) and a semidefinite one of rank
  // n - 1 whose attempt fails part way and leaves its partial columns behind (the pivoted factor
  // must not see them: rank n - 1, A x = b to 1e-10 for b in the range).
  std::mt19937 rng(17);
  PivotedLdlt f;
  for (int n = 1; n <= 33; ++n) {
    INFO("n = " << n);
    const MatX B = random_matrix(n, n, rng);
    const MatX A = B * B.transpose() + n * MatX::Identity(n, n);
    const VecX b = random_matrix(n, 1, rng);
    f.factor(A, 1e-10);
    CHECK(f.rank() == n);
    VecX x = b;
    f.solve(x);
    const VecX ref = A.ldlt().solve(b);
    CHECK((x - ref).norm() <= 1e-10 * ref.norm());
    if (n < 2) continue;
    const MatX C = random_matrix(n, n - 1, rng);
    const MatX S = C * C.transpose();
    const VecX bs = S * random_matrix(n, 1, rng);
    f.factor(S, 1e-10);
    CHECK(f.rank() == n - 1);
    VecX xs = bs;
    f.solve(xs);
    CHECK((S * xs - bs).norm() <= 1e-10 * std::max(1.0, bs.norm()));
  }
}

namespace {
// Right-looking L D L^T with complete diagonal pivoting, one step at a time, on the full matrix
// (the textbook algorithm, Higham 10.3): the reference for the factor's two-step passes.
VecX pivoted_ldlt_reference_solve(MatX A, const VecX& b, double rel_tol, int& rank) {
  const int n = static_cast<int>(A.rows());
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  double first = 0.0;
  rank = n;
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (A(i, i) > A(p, p)) p = i;
    if (k == 0) first = A(p, p);
    if (!(A(p, p) > rel_tol * first)) {
      rank = k;
      break;
    }
    A.row(k).swap(A.row(p));
    A.col(k).swap(A.col(p));
    std::swap(perm[k], perm[p]);
    for (int j = k + 1; j < n; ++j)
      for (int i = k + 1; i < n; ++i) A(i, j) -= A(i, k) * A(j, k) / A(k, k);
    for (int i = k + 1; i < n; ++i) A(i, k) /= A(k, k);
  }
  VecX y(n);
  for (int i = 0; i < n; ++i) y[i] = b[perm[i]];
  for (int i = 0; i < rank; ++i)
    for (int j = 0; j < i; ++j) y[i] -= A(i, j) * y[j];
  for (int i = 0; i < rank; ++i) y[i] /= A(i, i);
  for (int i = rank - 1; i >= 0; --i)
    for (int j = i + 1; j < rank; ++j) y[i] -= A(j, i) * y[j];
  for (int i = rank; i < n; ++i) y[i] = 0.0;
  VecX x(n);
  for (int i = 0; i < n; ++i) x[perm[i]] = y[i];
  return x;
}
}  // namespace

TEST_CASE("Pivoted LDLT: the two-step passes against the one-step textbook factor",
          "[pivoted_ldlt]") {
  // Columns scaled over four decades in a random order (the pivot moves at almost every step, so
  // the swaps of the paired second step are exercised), ranks that stop the factor at even and
  // odd steps (the pair's second step then finds no pivot) and full rank. The rank must match and
  // the solutions agree to 1e-7 relative: the same pivots, rounded differently (the reference
  // divides per entry), on A up to cond ~1e9 (eps cond ~1e-7; a wrong swap or a missed update
  // gives errors of order one).
  std::mt19937 rng(23);
  PivotedLdlt f;
  for (int n = 1; n <= 24; ++n)
    for (int r : {n, n - 1, n / 2, (n + 1) / 2}) {
      if (r < 1) continue;
      MatX B = random_matrix(n, r, rng);
      for (int i = 0; i < n; ++i) B.row(i) *= std::pow(10.0, -2.0 * ((i * 7) % n) / n);
      const MatX A = B * B.transpose();
      const VecX b = A * random_matrix(n, 1, rng);
      f.factor(A, 1e-10);
      int rank = 0;
      const VecX ref = pivoted_ldlt_reference_solve(A, b, 1e-10, rank);
      VecX x = b;
      f.solve(x);
      INFO("n = " << n << ", rank " << r);
      CHECK(f.rank() == rank);
      CHECK(rank == r);
      CHECK((x - ref).norm() <= 1e-7 * std::max(1.0, ref.norm()));
    }
}
