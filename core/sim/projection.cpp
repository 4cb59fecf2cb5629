#include "core/sim/projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/planar_dynamics.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/operator_projection.hpp"

namespace articula {

namespace {
// Relative pivot tolerance of J J^T: pivots are squared singular values of J, so this drops
// directions of J below ~3e-7 of its largest (redundant rows give ~1e-16).
constexpr double kProjectionRankTolerance = 1e-13;

// Whether a Gauss-Newton step that took the errors from `last` to `err` reached their rounding
// floor: the errors of a long chain's loops are sums over hundreds of bodies (about 1e-13 at
// 1,000), so a step no longer shrinks them below 0.01 of the tolerance, only stirs them. Newton
// steps away from that floor shrink them far more than half.
bool at_rounding_floor(double err, double last, double tolerance) {
  return err <= tolerance && !(err < 0.5 * last);
}
}  // namespace

ManifoldProjection::ManifoldProjection(const Mechanism& mech, ConstraintSet& constraints,
                                       const PlanarModel* pm, PlanarData* pd, bool mass_weighted)
    : mech_(mech), set_(constraints), pm_(pm), pd_(pd) {
  if (mass_weighted && !pm) weighted_ = std::make_unique<OperatorProjection>(mech, constraints);
}

ManifoldProjection::~ManifoldProjection() = default;

void ManifoldProjection::linearise(const ConstraintContext& c, const VecX& q) {
  // The mass-weighted steps read the rows in body-level form: J (rows x nv, the O(N m) part) is
  // formed only when the kept factor must be replaced. Their first ABA pass computes the poses
  // X0 that the errors and rows read (and jc, Xup of all but the axial revolutes, whose S is
  // constant), so forward kinematics before it would only be overwritten.
  if (pm_) planar_kinematics(*pm_, *pd_, q, nullptr);
  weighted_now_ = weighted_ && weighted_->linearise(c, q);
  if (!pm_ && !weighted_now_) forward_kinematics(mech_.model(), c.data, q);
  J_current_ = !weighted_now_;
  if (weighted_now_)
    set_.position_errors(c, e_);
  else
    set_.position(c, J_, e_);
}

void ManifoldProjection::min_norm_step(const ConstraintContext& c, VecX& rhs_y, VecX& out) {
  if (weighted_now_ && !weighted_->factorise()) {
    // No factorisation of M at q (a massless subtree): the Euclidean step, from J.
    if (!J_current_) set_.position(c, J_, y_scratch_), J_current_ = true;
    weighted_now_ = false;
  }
  if (weighted_now_) {
    if (weighted_->refine_step(rhs_y, out)) return;
    if (!J_current_) set_.position(c, J_, y_scratch_), J_current_ = true;
    return weighted_->step(J_, rhs_y, out);
  }
  for (int v : set_.prescribed_coordinates()) J_.col(v).setZero();
  // Rows of J below 1e-12 of the largest (a planar loop's out-of-plane rows) give pivots far
  // under kProjectionRankTolerance: the factor would drop them, so they are left out up front.
  significant_rows(J_, 1e-24, rows_);
  const int mc = static_cast<int>(rows_.size());
  lower_gram(J_, rows_, JJt_);  // J J^T: the factor reads the lower triangle only
  ldlt_.factor(JJt_, kProjectionRankTolerance);
  yc_.resize(mc);
  for (int c = 0; c < mc; ++c) yc_[c] = rhs_y[rows_[c]];
  ldlt_.solve(yc_);
  rhs_y.setZero();
  for (int c = 0; c < mc; ++c) rhs_y[rows_[c]] = yc_[c];
  // out = J^T rhs_y over the kept rows only: the others' terms are exact zeros, which leave the
  // sums (started at +0) unchanged, so this is bit for bit transpose_times(J_, rhs_y, out).
  const int n = static_cast<int>(J_.cols());
  out.resize(n);
  for (int j = 0; j < n; ++j) {
    const double* Jj = J_.col(j).data();
    double x = 0.0;
    for (int c = 0; c < mc; ++c) x += Jj[rows_[c]] * yc_[c];
    out[j] = x;
  }
}

void ManifoldProjection::project(const std::vector<DriveBinding>& drives, Data& data, double t,
                                 double tolerance, VecX& q, VecX& qd) {
  ConstraintContext c{mech_, drives, data};
  c.planar_model = pm_;
  c.planar = pd_;
  c.t = t;
  c.q = &q;
  c.qd = &qd;
  double err = 0.0;
  bool fresh = false;  // J was linearised at the final q (and not modified since)
  double last = std::numeric_limits<double>::infinity();
  for (int it = 0; it < 8; ++it) {
    linearise(c, q);
    err = e_.size() ? e_.cwiseAbs().maxCoeff() : 0.0;
    fresh = err <= 0.01 * tolerance || at_rounding_floor(err, last, tolerance) ||
            (it == 0 && err <= tolerance && err <= 2.0 * floor_);
    if (fresh) break;
    last = err;
    y_ = e_;
    min_norm_step(c, y_, dq_);
    integrate_in_place(mech_.model(), q, dq_, -1.0);
    ++position_steps_;
  }
  // Stopped by the floor: the next projection takes no step from errors already that small.
  if (std::isfinite(last) && fresh && err > 0.01 * tolerance)
    floor_ = std::min(err, 0.25 * tolerance);
  if (!(err <= tolerance)) cannot_close(drives, t, err);
  if (!fresh) linearise(c, q);
  set_.velocity_targets(c, y_);  // target: J q̇ = y (0 for loops, q̇_d for driven loop joints)
  if (weighted_now_) {
    weighted_->rows_times(qd, y_scratch_);
    y_ -= y_scratch_;
    // A negligible residual: no correction, so no factorisation of M either.
    if (weighted_->correction_negligible(y_, tolerance)) return;
  } else {
    // y -= J q̇, each row's sum in the order of j as a row-by-row loop (bit for bit), but
    // column by column: J is column-major, its rows strided.
    y_scratch_.setZero(J_.rows());
    for (int j = 0; j < J_.cols(); ++j) {
      const double* Jj = J_.col(j).data();
      const double v = qd[j];
      for (int r = 0; r < J_.rows(); ++r) y_scratch_[r] -= Jj[r] * v;
    }
    y_ += y_scratch_;
  }
  min_norm_step(c, y_, dq_);
  qd += dq_;
}

void ManifoldProjection::cannot_close(const std::vector<DriveBinding>& drives, double t,
                                      double err) {
  std::ostringstream os;
  os << "at t = " << t << " the loops cannot be kept closed (loop error " << err << "): ";
  bool any = false;
  for (const DriveBinding& d : drives)
    if (d.kind == DriveSpec::Kind::Motion)
      os << (any ? ", '" : "the driven joint(s) '") << mech_.spec.joints[d.user_joint].name << "'",
          any = true;
  os << (any ? " drove the mechanism past a dead point or the end of its range"
             : "the mechanism reached the end of its range");
  throw SetupError(os.str());
}

}  // namespace articula
