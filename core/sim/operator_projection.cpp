#include "core/sim/operator_projection.hpp"

#include <algorithm>
#include <limits>

#include "core/algorithms/aba.hpp"

namespace articula {

namespace {
// The Euclidean path's relative pivot tolerance (projection.cpp): pivots of G M^-1 G^T are
// squared singular values of G M^-1/2, so this drops directions below ~3e-7 of the largest
// (redundant rows give ~1e-16).
constexpr double kRankTolerance = 1e-13;
// Refinement iterations at most: each must shrink the residual tenfold (else the factor no
// longer fits, or the floor is reached), so from a relative residual of 1 this many reach any
// target above 1e-14; the cap is a guard only. (At 6, the 1,000-body ladder's stale factors,
// shrinking it 30-100 fold per iteration, ran out of iterations every 40 steps with the
// residual at 1e-12 and still shrinking, and formed Λ^-1 afresh: 200 solves by the operators.)
constexpr int kOperatorRefineIterations = 14;
}  // namespace

OperatorProjection::OperatorProjection(const Mechanism& mech, const ConstraintSet& constraints)
    : mech_(mech), set_(constraints), prescribing_(constraints.prescribing_rows()) {
  work_.resize(mech.model());
  zero_.setZero(mech.model().nv);
}

bool OperatorProjection::linearise(const ConstraintContext& c, const VecX& q) {
  data_ = nullptr;
  factorised_ = false;
  if (!set_.operator_capable()) return false;
  // ABA's first pass at zero velocity and forces: X0, oS (the rows and rows_times read them).
  aba_pass1(mech_.model(), c.data, q, zero_);
  set_.operator_rows(c, all_);
  of_projected_.assign(set_.projected_rows(), -1);
  for (int r = 0; r < set_.rows(); ++r)
    if (const int p = set_.projected_row(r); p >= 0) of_projected_[p] = r;
  data_ = &c.data;
  refine_failed_ = false;
  return true;
}

bool OperatorProjection::factorise() {
  if (factorised_) return factor_valid_;
  // The rest of aba(q, 0, 0) (innovations_factorisation without its temporary).
  const Model& model = mech_.model();
  for (int i = model.nb; i >= 1; --i) aba_pass2_body(model, *data_, i, zero_);
  data_->oa[0] = -model.a_grav;
  for (int i = 1; i <= model.nb; ++i) aba_pass3_body(model, *data_, i);
  factorised_ = true;
  factor_valid_ = innovations_valid(model, *data_);
  return factor_valid_;
}

bool OperatorProjection::correction_negligible(const VecX& r, double tolerance) {
  // The first correction is taken whatever its size: it sizes the workspace (the selection, Λ⁻¹
  // and its factor) at the first projection, not inside some later step (test_no_allocation).
  if (factorisations_ == 0) return false;
  const bool skip = !(r.size() && r.cwiseAbs().maxCoeff() > kVelocityFraction * tolerance);
  skipped_ += skip;
  return skip;
}

void OperatorProjection::select(const VecX& r) {
  selected_.clear();
  for (int k : kept_) selected_.push_back(of_projected_[k]);
  selected_.insert(selected_.end(), prescribing_.begin(), prescribing_.end());
  const int mk = static_cast<int>(kept_.size());
  rhs_.setZero(static_cast<int>(selected_.size()));
  for (int k = 0; k < mk; ++k) rhs_[k] = r[kept_[k]];
}

void OperatorProjection::step(const MatX& J, const VecX& r, VecX& dq) {
  // Rows of J below 1e-12 of the largest (a planar loop's out-of-plane rows) are left out up
  // front, as the Euclidean path leaves them out; the prescribing rows follow with target 0.
  significant_rows(J, 1e-24, kept_);
  select(r);
  dq.setZero(mech_.model().nv);
  if (selected_.empty()) return;
  if (selected_ == factored_ && !refine_failed_ && refine(dq))
    ++refined_;
  else
    fresh(dq), ++factorisations_;
  // The step satisfies dq_v = 0 to round-off; held means exactly.
  for (int v : set_.prescribed_coordinates()) dq[v] = 0.0;
}

bool OperatorProjection::refine_step(const VecX& r, VecX& dq) {
  // The rows kept last time: which rows are structurally zero does not change between steps
  // (a planar loop's out-of-plane rows); a row that degenerates is the factor's to drop.
  if (factored_.empty() || refine_failed_) return false;
  select(r);
  if (selected_ != factored_) return false;
  dq.setZero(mech_.model().nv);
  if (!refine(dq)) {
    refine_failed_ = true;
    return false;
  }
  ++refined_;
  for (int v : set_.prescribed_coordinates()) dq[v] = 0.0;
  return true;
}

void OperatorProjection::rows_times(const VecX& x, VecX& out) {
  body_motions(mech_.model(), *data_, x, work_);
  out.resize(set_.projected_rows());
  for (int p = 0; p < set_.projected_rows(); ++p)
    out[p] = of_projected_[p] >= 0 ? apply_row(all_[of_projected_[p]], work_) : 0.0;
}

void OperatorProjection::respond() {
  for (Force& f : work_.z) f.setZero();
  work_.tau.setZero();
  for (int k = 0; k < static_cast<int>(selected_.size()); ++k)
    add_row_force(all_[selected_[k]], mu_[k], work_);
  solve_in_place(mech_.model(), *data_, work_);  // M^-1 G^T μ
}

bool OperatorProjection::refine(VecX& dq) {
  // μ_{k+1} = μ_k + F^-1 (r - Λ^-1 μ_k), F the kept factor: the error shrinks by about the
  // relative change of Λ^-1 since F was formed (1e-3 over a 1 ms step); a residual that does not
  // shrink tenfold per iteration means F no longer fits (rows, rank or configuration changed).
  const double target = kRefineTolerance * rhs_.cwiseAbs().maxCoeff();
  const int mc = static_cast<int>(selected_.size());
  mu_ = rhs_;
  ldlt_.solve(mu_);
  double last = std::numeric_limits<double>::infinity();
  for (int it = 0; it < kOperatorRefineIterations; ++it) {
    respond();
    res_.resize(mc);
    for (int k = 0; k < mc; ++k) res_[k] = rhs_[k] - apply_row(all_[selected_[k]], work_);
    const double norm = res_.cwiseAbs().maxCoeff();
    if (norm <= target) {
      dq = work_.qdd;
      return true;
    }
    // Not shrinking tenfold: either F no longer fits, or the residual reached its rounding floor
    // (eps times |Λ^-1| |μ|, far above eps |r| when Λ^-1 is ill-conditioned, as on long chains,
    // where a fresh factor ends at the same floor).
    if (!(norm <= 0.1 * last)) {
      if (!(norm <= kFloorTolerance * rhs_.cwiseAbs().maxCoeff())) return false;
      dq = work_.qdd;
      return true;
    }
    last = norm;
    ldlt_.solve(res_);
    mu_ += res_;
  }
  return false;
}

void OperatorProjection::fresh(VecX& dq) {
  inverse_operational_inertia(mech_.model(), *data_, all_, selected_, A_, work_);  // O(N m + m^2)
  ldlt_.factor(A_, kRankTolerance);
  factored_ = selected_;
  res_.resize(static_cast<int>(selected_.size()));  // sized for refine(): no allocation there
  mu_ = rhs_;
  ldlt_.solve(mu_);
  respond();
  dq = work_.qdd;
}

}  // namespace articula
