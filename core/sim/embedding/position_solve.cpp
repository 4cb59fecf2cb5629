// The position level of the embedding (ConstraintEmbedding::solve_dependent): the dependent
// coordinates of each node from its independent ones by a local Newton iteration, which the
// paper leaves to the implementer (Jain Part II §8). Nodes are independent of each other (their
// constraints are internal), so one pass over the stacked rows is every node's own iteration.
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/algorithms/kinematics.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/constraints/motion_drives.hpp"
#include "core/sim/embedding/partition.hpp"

namespace articula {

namespace {
void gather(const MatX& J, const std::vector<int>& rows, const std::vector<int>& cols, MatX& A) {
  A.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) A(i, j) = J(rows[i], cols[j]);
}
}  // namespace

// Each node's block J[sel, free_dep] at the present kinematics, and its factors.
void ConstraintEmbedding::factor_position_block(Node& n) {
  gather(J_, n.sel_proj, n.free_dep, n.Jb);
  n.jlu.compute(n.Jb);
  n.jvalid = true;
}

// One evaluation of the selected rows at q and, unless converged, one update of every node's
// free dependent coordinates. The update is a chord step with the block's last factors (those of
// the last closed state, a step or a stage away), which needs the errors alone. The rows are
// formed at q and the step is Newton's when there are no factors for this choice, or when a
// chord step did not shrink the errors by 4 (the state has moved far). Converged: well below
// tol, or within it where a step stopped shrinking them by 4 (the round-off floor, about 3e-14 m
// on the Stewart platform: a fresh Newton step there would cost rows and factors and gain
// nothing).
bool ConstraintEmbedding::newton_step(ConstraintContext& c, double tol, NewtonProgress& p,
                                      VecX& q) {
  const Model& model = mech_.model();
  forward_kinematics(model, c.data, q);
  for (const Node& n : nodes_) p.rows = p.rows || (!n.free_dep.empty() && !n.jvalid);
  if (p.rows)
    set_.position(c, J_, e_);
  else
    set_.position_errors(c, e_);
  const double previous = p.err;
  p.err = 0.0;
  for (const Node& n : nodes_)
    for (int r : n.sel_proj) p.err = std::max(p.err, std::abs(e_[r]));
  const bool stalled = p.err > 0.25 * previous;
  if (p.err <= 0.01 * tol || (p.err <= tol && stalled)) return true;
  if (stalled && !p.rows) set_.position(c, J_, e_), p.rows = true;
  dv_.setZero(model.nv);
  for (Node& n : nodes_) {
    if (n.free_dep.empty()) continue;
    n.en.resize(static_cast<Eigen::Index>(n.sel_proj.size()));
    for (std::size_t i = 0; i < n.sel_proj.size(); ++i) n.en[i] = e_[n.sel_proj[i]];
    if (p.rows) factor_position_block(n);
    n.jlu.solve(n.en, n.dx);
    for (std::size_t i = 0; i < n.free_dep.size(); ++i) dv_[n.free_dep[i]] = n.dx[i];
  }
  integrate_in_place(model, q, dv_, -1.0);  // e(q ⊖ J⁻¹ e) = O(|e|²) for Newton's step
  p.rows = false;                           // the next evaluation is at the new q
  return false;
}

double ConstraintEmbedding::solve_dependent(ConstraintContext& c, double tol, VecX& q, VecX& qd) {
  impose_tree_motion_drives(mech_, c.drives, c.t, q, qd);  // prescribed: the laws themselves
  c.q = &q;
  c.qd = &qd;
  NewtonProgress p;
  bool converged = false;
  for (int it = 0; it < 16 && !converged; ++it) converged = newton_step(c, tol, p, q);
  const double err = p.err;
  if (!(err <= tol)) {
    std::ostringstream os;
    os << "at t = " << c.t << " the loops cannot be closed from the independent coordinates "
       << describe() << " (residual " << err
       << "): the mechanism has reached the end of its range or a dead point";
    throw SetupError(os.str());
  }
  if (!p.rows) set_.position(c, J_, e_);  // the rows at the closed q (its kinematics are current)
  solve_dependent_velocities(c, qd);
  return err;
}

// Velocities: J_D q̇_D = y - J_R q̇_R on each node's selected rows, J_D factored at the closed q
// (J_ holds its rows); these factors are the next solve's chord Jacobian and factor()'s Y₁ when
// the two blocks are the same matrix.
void ConstraintEmbedding::solve_dependent_velocities(ConstraintContext& c, VecX& qd) {
  set_.velocity_targets(c, y_);
  for (Node& n : nodes_) {
    if (n.free_dep.empty()) continue;
    for (int v : n.free_dep) qd[v] = 0.0;
    n.en.resize(static_cast<Eigen::Index>(n.sel_proj.size()));
    for (std::size_t i = 0; i < n.sel_proj.size(); ++i) {
      // The node's rows touch only its coordinates (the constructor's check): J's row there.
      const int r = n.sel_proj[i];
      double e = y_[r];
      for (int v : n.cols) e -= J_(r, v) * qd[v];
      n.en[i] = e;
    }
    factor_position_block(n);
    if (n.jrcond0.empty()) n.jlu.rconds(n.jrcond0);
    n.jlu.solve(n.en, n.dx);
    for (std::size_t i = 0; i < n.free_dep.size(); ++i) qd[n.free_dep[i]] = n.dx[i];
  }
}

namespace {
// Below this ratio of the position solve's dependent-block conditioning to its value after the
// choice, monitor() checks Y₁ itself (it re-chooses at 0.5 of its own ratio): the two blocks hold
// the same rows (ConstraintSet::projected_row), so they degrade together. After a check that
// kept the choice, the next waits until the ratio has fallen by kWatchStep more.
constexpr double kWatchDegradation = 0.8;
constexpr double kWatchStep = 0.9;
}  // namespace

bool ConstraintEmbedding::closure_watch() {
  const double ratio = closure_degradation();
  if (watch_ < 0.0) watch_ = kWatchDegradation;
  if (ratio > watch_) {  // follows the ratio up when it recovers
    watch_ = std::min(kWatchDegradation, std::max(watch_, kWatchStep * ratio));
    return false;
  }
  watch_ = kWatchStep * ratio;
  return true;
}

double ConstraintEmbedding::closure_degradation() const {
  double worst = 1.0;
  for (const Node& n : nodes_)
    if (!n.free_dep.empty() && !n.jrcond0.empty())
      worst = std::min(worst, n.jlu.degradation(n.jrcond0));
  return worst;
}

}  // namespace articula
