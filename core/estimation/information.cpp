#include "core/estimation/information.hpp"

namespace articula {

bool Information::compute(const Sparse& H_lower, int nb, int n0) {
  blocks_ = false;
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

bool Information::compute(const KnotBlocks& H) {
  const auto knots = H.diag.size();
  blocks_ = true;
  nb_ = knots ? static_cast<int>(H.diag[0].rows()) : 0;
  n_ = n0_ = static_cast<int>(knots) * nb_;
  S_.resize(knots);
  G_.resize(knots > 0 ? knots - 1 : 0);
  cov_.clear();
  MatX S;
  for (std::size_t j = knots; j-- > 0;) {
    S = H.diag[j].selfadjointView<Eigen::Lower>();
    if (j + 1 < knots) {
      G_[j] = S_[j + 1].solve(H.below[j]);
      S.noalias() -= H.below[j].transpose() * G_[j];
    }
    S_[j].compute(S);
    if (S_[j].info() != Eigen::Success) return false;
  }
  return true;
}

// Forward over the eliminated knots (b'_k = b_k - G_kᵀ b'_k+1, last to first), then back
// (x_0 = S_0⁻¹ b'_0, x_k+1 = S_k+1⁻¹ b'_k+1 - G_k x_k).
VecX Information::solve(const VecX& b) const {
  if (blocks_) {
    const auto knots = S_.size();
    VecX x = b;
    for (std::size_t j = knots - 1; j-- > 0;)
      x.segment(j * nb_, nb_).noalias() -= G_[j].transpose() * x.segment((j + 1) * nb_, nb_);
    for (std::size_t j = 0; j < knots; ++j) {
      x.segment(j * nb_, nb_) = S_[j].solve(x.segment(j * nb_, nb_));
      if (j > 0) x.segment(j * nb_, nb_).noalias() -= G_[j - 1] * x.segment((j - 1) * nb_, nb_);
    }
    return x;
  }
  const VecX pb = reverse_ * b;
  return reverse_ * ldlt_.solve(pb);  // P is its own inverse
}

// Σ_0 = S_0⁻¹; x_k+1 = S_k+1⁻¹ b'_k+1 - G_k x_k gives Σ_k+1 = S_k+1⁻¹ + G_k Σ_k G_kᵀ.
MatX Information::block_covariance(int k) const {
  const auto identity = MatX::Identity(nb_, nb_);
  if (k == 0) return S_[0].solve(identity);
  if (cov_.empty()) {
    cov_.resize(S_.size());
    cov_[0] = S_[0].solve(identity);
    for (std::size_t j = 1; j < S_.size(); ++j)
      cov_[j] = S_[j].solve(identity) + G_[j - 1] * cov_[j - 1] * G_[j - 1].transpose();
  }
  return cov_[static_cast<std::size_t>(k)];
}

MatX Information::knot_covariance(int k) const {
  if (blocks_) return block_covariance(k);
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
  if (blocks_) return MatX(0, 0);
  MatX E = MatX::Zero(n_, np);
  E.bottomRows(np).setIdentity();
  return ldlt_.solve(E).bottomRows(np);  // parameters keep their places
}

}  // namespace articula
