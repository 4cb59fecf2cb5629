#pragma once
// L D L^T of a symmetric positive semidefinite matrix with complete (diagonal) pivoting, which
// reveals its rank: P A P^T = L D L^T, the factorisation stopping when the largest remaining
// pivot falls below a relative tolerance (Higham, Accuracy and Stability, 10.3). Solves consistent
// systems A x = b even when A is singular (redundant constraints), without heap allocation once
// sized: the per-step solve of constrained dynamics and of the loop projection.
#include <vector>

#include "core/spatial/types.hpp"

namespace articula {

class PivotedLdlt {
 public:
  // Factor the lower triangle of A. Pivots at most rel_tol times the first (largest) pivot are
  // treated as zero. Allocates only when A's size changes.
  void factor(const Eigen::Ref<const MatX>& A, double rel_tol);
  // x := a solution of A x = b (exact when b is in the range of A): the components beyond the
  // rank, in pivot order, are zero.
  void solve(VecX& x) const;
  int rank() const { return rank_; }
  int size() const { return static_cast<int>(LD_.cols()); }

 private:
  bool factor_unpivoted(const Eigen::Ref<const MatX>& A,
                        double rel_tol);  // true when full rank is certain

  MatX LD_;  // L below the diagonal, D on it (pivoted order); rows padded to even (pair.hpp)
  std::vector<int> perm_;  // pivoted row k is A's row perm_[k]
  VecX dinv_;              // 1 / D (the solve multiplies)
  mutable VecX y_;
  int rank_ = 0;
};

// Small products of the constraint solves as plain loops: the matrices have a few rows, where
// Eigen's dynamic-size product kernels cost more in dispatch than in arithmetic.
// Rows of J whose squared norm exceeds rel times the largest: the rest (e.g. a planar loop's
// out-of-plane rows) would only give pivots far below any rank tolerance. Allocates once.
void significant_rows(const MatX& J, double rel, std::vector<int>& rows);
// The lower triangle of J_R J_R^T for the rows R of J (all the factor reads).
void lower_gram(const MatX& J, const std::vector<int>& rows, MatX& A);
// out = J^T y.
void transpose_times(const MatX& J, const VecX& y, VecX& out);
// out[r] += sign Σ_j M(r, j) x[j] for the first m rows of M, term by term in column order, with
// the sums in registers sixteen rows at a time: the sums are chains of additions, whose latency
// (not their count) sets the time, so as many rows as the registers hold advance together.
void add_times(const MatX& M, int m, const double* x, double sign, double* out);

}  // namespace articula
