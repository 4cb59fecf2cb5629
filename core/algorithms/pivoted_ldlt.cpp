#include "core/algorithms/pivoted_ldlt.hpp"

#include <utility>

namespace articula {

void PivotedLdlt::factor(const MatX& A, double rel_tol) {
  const int n = static_cast<int>(A.rows());
  if (LD_.rows() != n) {
    LD_.resize(n, n);
    perm_.resize(n);
    y_.resize(n);
  }
  LD_.triangularView<Eigen::Lower>() = A;
  for (int i = 0; i < n; ++i) perm_[i] = i;
  rank_ = n;
  double first = 0.0;
  for (int k = 0; k < n; ++k) {
    int p = k;  // largest remaining diagonal entry
    for (int i = k + 1; i < n; ++i)
      if (LD_(i, i) > LD_(p, p)) p = i;
    if (k == 0) first = LD_(p, p);
    if (!(LD_(p, p) > rel_tol * first) || !(first > 0.0)) {
      rank_ = k;
      break;
    }
    if (p != k) {  // symmetric swap of rows/columns k and p, lower triangle only
      std::swap(perm_[k], perm_[p]);
      std::swap(LD_(k, k), LD_(p, p));
      for (int j = 0; j < k; ++j) std::swap(LD_(k, j), LD_(p, j));
      for (int i = k + 1; i < p; ++i) std::swap(LD_(i, k), LD_(p, i));
      for (int i = p + 1; i < n; ++i) std::swap(LD_(i, k), LD_(i, p));
    }
    const double d = LD_(k, k);
    for (int j = k + 1; j < n; ++j) {  // Schur complement, lower triangle: A_ij -= A_ik A_jk / d
      const double ljd = LD_(j, k) / d;
      for (int i = j; i < n; ++i) LD_(i, j) -= LD_(i, k) * ljd;
    }
    for (int i = k + 1; i < n; ++i) LD_(i, k) /= d;
  }
}

void PivotedLdlt::solve(VecX& x) const {
  const int n = size(), r = rank_;
  for (int k = 0; k < n; ++k) y_[k] = x[perm_[k]];
  for (int k = 0; k < r; ++k)  // L11 y = b1
    for (int i = k + 1; i < r; ++i) y_[i] -= LD_(i, k) * y_[k];
  for (int k = 0; k < r; ++k) y_[k] /= LD_(k, k);
  for (int k = r - 1; k >= 0; --k)  // L11^T y = D^-1 y
    for (int i = k + 1; i < r; ++i) y_[k] -= LD_(i, k) * y_[i];
  for (int k = r; k < n; ++k) y_[k] = 0.0;
  for (int k = 0; k < n; ++k) x[perm_[k]] = y_[k];
}

}  // namespace articula
