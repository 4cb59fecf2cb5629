#include "core/estimation/information.hpp"

namespace articula {

bool Information::compute(const Sparse& H_lower, int nb, int n0) {
  n_ = static_cast<int>(H_lower.rows()), nb_ = nb, n0_ = n0;
  const int knots = n0 / nb;
  reverse_.resize(n_);
  for (int i = 0; i < n_; ++i)
    reverse_.indices()[i] = i < n0 ? (knots - 1 - i / nb) * nb + i % nb : i;
  permuted_.resize(n_, n_);
  permuted_.selfadjointView<Eigen::Lower>() =
      H_lower.selfadjointView<Eigen::Lower>().twistedBy(reverse_);
  ldlt_.compute(permuted_);
  return ldlt_.info() == Eigen::Success;
}

VecX Information::solve(const VecX& b) const {
  const VecX pb = reverse_ * b;
  return reverse_ * ldlt_.solve(pb);  // P is its own inverse
}

MatX Information::knot_covariance(int k) const {
  const int at = reverse_.indices()[k * nb_];  // the knot's first row in the factor
  if (at + nb_ != n_) {                        // not trailing (parameters after it): nb solves
    MatX E = MatX::Zero(n_, nb_);
    for (int j = 0; j < nb_; ++j) E(at + j, j) = 1.0;
    return ldlt_.solve(E).middleRows(at, nb_);
  }
  // The trailing block T of (P H Pᵀ)⁻¹ = L⁻ᵀ D⁻¹ L⁻¹: (L⁻¹)_{jT} = 0 for j before T, so only
  // T's rows of L⁻¹ (its diagonal block L_TT⁻¹) enter.
  const Sparse& L = ldlt_.matrixL().nestedExpression();  // strictly lower (unit diagonal implied)
  MatX Ltt = MatX::Identity(nb_, nb_);
  for (int c = at; c < n_; ++c)
    for (Sparse::InnerIterator it(L, c); it; ++it)
      if (it.row() > c) Ltt(it.row() - at, c - at) = it.value();
  const MatX Linv = Ltt.triangularView<Eigen::UnitLower>().solve(MatX::Identity(nb_, nb_));
  const VecX d_inv = ldlt_.vectorD().tail(nb_).cwiseInverse();
  return Linv.transpose() * d_inv.asDiagonal() * Linv;
}

MatX Information::parameter_covariance() const {
  const int np = n_ - n0_;
  MatX E = MatX::Zero(n_, np);
  E.bottomRows(np).setIdentity();
  return ldlt_.solve(E).bottomRows(np);  // parameters keep their places
}

}  // namespace articula
