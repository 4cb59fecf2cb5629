#include "core/sim/contact/lemke.hpp"

#include <cmath>
#include <vector>

namespace articula {

namespace {
// The tableau [I  -M  -1 | q] of w - M z - z0 1 = q; columns 0..n-1 are w, n..2n-1 z, 2n z0,
// 2n+1 the right-hand side. basis[r] is the variable of row r.
struct Tableau {
  MatX T;
  std::vector<int> basis;

  void pivot(int row, int col) {
    T.row(row) /= T(row, col);
    for (int i = 0; i < T.rows(); ++i)
      if (i != row && T(i, col) != 0.0) T.row(i) -= T(i, col) * T.row(row);
    basis[row] = col;
  }

  // The minimum-ratio row for the entering column (the artificial z0 leaves first on a tie, then
  // the lowest row), or -1 for a ray.
  int leaving_row(int col, double tol, int z0) const {
    const int rhs = static_cast<int>(T.cols()) - 1;
    int best = -1;
    double ratio = 0.0;
    for (int i = 0; i < T.rows(); ++i) {
      if (!(T(i, col) > tol)) continue;
      const double r = std::max(T(i, rhs), 0.0) / T(i, col);
      const double slack = 1e-13 * (1.0 + std::abs(ratio));
      if (best < 0 || r < ratio - slack || (r <= ratio + slack && basis[i] == z0)) {
        best = i, ratio = r;
      }
    }
    return best;
  }
};
}  // namespace

LcpSolution solve_lcp_lemke(const MatX& M, const VecX& q, double tol) {
  const int n = static_cast<int>(q.size());
  LcpSolution out;
  out.z = VecX::Zero(n);
  if (n == 0 || q.minCoeff() >= 0.0) {  // z = 0 is a solution
    out.solved = true;
    return out;
  }
  const int z0 = 2 * n, rhs = 2 * n + 1;
  Tableau t{MatX::Zero(n, 2 * n + 2), std::vector<int>(n)};
  t.T.leftCols(n).setIdentity();
  t.T.middleCols(n, n) = -M;
  t.T.col(z0).setConstant(-1.0);
  t.T.col(rhs) = q;
  for (int i = 0; i < n; ++i) t.basis[i] = i;
  const double ptol = tol * std::max(1.0, M.cwiseAbs().maxCoeff());
  int row = 0;
  q.minCoeff(&row);
  t.pivot(row, z0);  // z0 enters at the most negative q_i; w_i leaves
  int entering = n + row;
  for (int it = 0; it < 50 * n + 100; ++it) {
    out.pivots = it + 1;
    row = t.leaving_row(entering, ptol, z0);
    if (row < 0) return out;  // a ray: no solution from here
    const int leaving = t.basis[row];
    t.pivot(row, entering);
    if (leaving == z0) {
      for (int i = 0; i < n; ++i)
        if (t.basis[i] >= n && t.basis[i] < 2 * n)
          out.z[t.basis[i] - n] = std::max(t.T(i, rhs), 0.0);
      out.solved = true;
      return out;
    }
    entering = leaving < n ? leaving + n : leaving - n;  // the complement of the one that left
  }
  return out;
}

}  // namespace articula
