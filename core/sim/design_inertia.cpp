#include "core/sim/design_inertia.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>

namespace articula {

namespace {
// Rank tolerance of the held rows' Λ^-1, Method 2's (constrained_dynamics.cpp).
constexpr double kRankTolerance = 1e-10;
// A Schur complement under this fraction of the free row's own Λ^-1 is round-off: the held
// rows leave that row no motion (infinite inertia).
constexpr double kLockedTolerance = 1e-10;
// Eigenvalues of the point's Λ^-1 under this fraction of the largest are constrained
// directions (exact zeros carry round-off of about 1e-16 of the largest).
constexpr double kDirectionTolerance = 1e-9;
}  // namespace

DesignInertia::DesignInertia(const Mechanism& mech)
    : mech_(mech), as_motion_(mech.drives), data_(mech.model()) {
  for (DriveBinding& d : as_motion_) d.kind = DriveSpec::Kind::Motion;
  rows_ = std::make_unique<ConstraintSet>(mech, as_motion_);
  if (!rows_->operator_capable())
    throw SetupError("design report: a constraint has no body-level rows");
  // ConstraintSet's order: loop rows, drives on tree joints, drives on loop joints, couplings.
  const int nc = mech.compiled.nc, nd = static_cast<int>(as_motion_.size());
  if (rows_->rows() != nc + nd + static_cast<int>(mech.couplings.size()))
    throw SetupError("design report: a drive on a joint with more than one freedom");
  drive_row_.assign(nd, -1);
  int r = nc;
  for (bool on_loop : {false, true})
    for (int k = 0; k < nd; ++k)
      if ((as_motion_[k].v < 0) == on_loop) drive_row_[k] = r++;
  for (int i = 0; i < rows_->rows(); ++i)
    if (i < nc || i >= nc + nd) structural_.push_back(i);
  for (int k = 0; k < nd; ++k)
    if (mech.drives[k].kind == DriveSpec::Kind::Motion) motion_drive_rows_.push_back(drive_row_[k]);
  zero_ = VecX::Zero(mech.model().nv);
  work_.resize(mech.model());
}

void DesignInertia::set_configuration(const VecX& q) {
  const Model& model = mech_.model();
  q_ = q;
  if (!innovations_factorisation(model, data_, q_))
    throw SetupError("design report: a massless subtree (M has no innovations factorisation)");
  const ConstraintContext ctx{mech_, as_motion_, data_, nullptr, nullptr, 0.0, &q_, &zero_};
  rows_->operator_rows(ctx, ops_);
  ops_.resize(rows_->rows() + 3);  // room for a point's three rows
}

// S = A_FF - A_FO A_OO^+ A_OF over the rows `held` (O) and `free` (F) of ops_; returns the
// largest diagonal entry of A_FF (the scale of S).
double DesignInertia::schur(const std::vector<int>& held, const std::vector<int>& free, MatX& S) {
  const int no = static_cast<int>(held.size()), nf = static_cast<int>(free.size());
  std::vector<int> rows = held;
  rows.insert(rows.end(), free.begin(), free.end());
  inverse_operational_inertia(mech_.model(), data_, ops_, rows, A_, work_);
  S = A_.bottomRightCorner(nf, nf);
  const double scale = S.diagonal().maxCoeff();
  if (no == 0) return scale;
  ldlt_.factor(A_.topLeftCorner(no, no), kRankTolerance);
  VecX x = VecX::Zero(no);
  for (int c = 0; c < nf; ++c) {
    x = A_.block(0, no + c, no, 1);
    ldlt_.solve(x);  // A_OO^+ A_Oc
    S.col(c).noalias() -= A_.block(no, 0, nf, no) * x;
  }
  S = (0.5 * (S + S.transpose())).eval();  // symmetric up to round-off
  return scale;
}

double DesignInertia::reflected_inertia(int k) {
  const int d = drive_row_[k];
  std::vector<int> held = structural_;
  for (int r : motion_drive_rows_)
    if (r != d) held.push_back(r);
  const double scale = schur(held, {d}, S_);
  const double s = S_(0, 0);
  if (!(s > kLockedTolerance * scale)) return std::numeric_limits<double>::infinity();
  return 1.0 / s;
}

ApparentMass DesignInertia::apparent_mass(int body, const Vec3& p_model) {
  const int m = rows_->rows();
  const Vec3 p = data_.X0[body].r + data_.X0[body].E.transpose() * p_model;  // world
  for (int a = 0; a < 3; ++a) {  // u · (a_O + ω̇ × p) = [p × u; u]^T [ω̇; a_O]
    const Vec3 u = Vec3::Unit(a);
    OperatorRow& row = ops_[m + a];
    row = OperatorRow{};
    row.body[0] = body;
    row.T[0] << p.cross(u), u;
  }
  ApparentMass out;
  const double scale = schur(structural_, {m, m + 1, m + 2}, S_);
  out.inverse = S_;
  if (!(scale > 0.0)) {  // a point on ground or on a body welded to it
    out.constrained_directions = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
    return out;
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(out.inverse);
  const double top = eig.eigenvalues().maxCoeff();
  for (int i = 0; i < 3; ++i) {
    const Vec3 v = eig.eigenvectors().col(i);
    const double e = eig.eigenvalues()[i];
    if (e > kDirectionTolerance * top)
      out.mass.noalias() += v * v.transpose() / e;
    else
      out.constrained_directions.push_back(v);
  }
  return out;
}

}  // namespace articula
