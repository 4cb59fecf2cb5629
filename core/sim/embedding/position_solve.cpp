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

// One evaluation of the selected rows at q and, unless converged, one Newton update of every
// node's free dependent coordinates. Returns true when converged (err set either way).
bool ConstraintEmbedding::newton_step(ConstraintContext& c, double tol, double& err,
                                      double previous, VecX& q) {
  const Model& model = mech_.model();
  forward_kinematics(model, c.data, q);
  set_.position(c, J_, e_);
  err = 0.0;
  for (const Node& n : nodes_)
    for (int r : n.sel_proj) err = std::max(err, std::abs(e_[r]));
  // Quadratic convergence: stop well below tol, or where round-off stops the progress.
  if (err <= 0.01 * tol || (err <= tol && err > 0.25 * previous)) return true;
  dv_.setZero(model.nv);
  for (Node& n : nodes_) {
    if (n.free_dep.empty()) continue;
    n.en.resize(static_cast<Eigen::Index>(n.sel_proj.size()));
    for (std::size_t i = 0; i < n.sel_proj.size(); ++i) n.en[i] = e_[n.sel_proj[i]];
    gather(J_, n.sel_proj, n.free_dep, n.Jb);
    n.jlu.compute(n.Jb);
    n.dx.noalias() = n.jlu.solve(n.en);
    for (std::size_t i = 0; i < n.free_dep.size(); ++i) dv_[n.free_dep[i]] = n.dx[i];
  }
  integrate_in_place(model, q, dv_, -1.0);  // e(q ⊖ J⁻¹ e) = O(|e|²)
  return false;
}

double ConstraintEmbedding::solve_dependent(ConstraintContext& c, double tol, VecX& q, VecX& qd) {
  impose_tree_motion_drives(mech_, c.drives, c.t, q, qd);  // prescribed: the laws themselves
  c.q = &q;
  c.qd = &qd;
  double err = 0.0, previous = INFINITY;
  for (int it = 0; it < 12; ++it, previous = err)
    if (newton_step(c, tol, err, previous, q)) break;
  if (!(err <= tol)) {
    std::ostringstream os;
    os << "at t = " << c.t << " the loops cannot be closed from the independent coordinates "
       << describe() << " (residual " << err
       << "): the mechanism has reached the end of its range or a dead point";
    throw SetupError(os.str());
  }
  // Velocities: J_D q̇_D = y - J_R q̇_R on each node's selected rows, J_D factored at q.
  set_.velocity_targets(c, y_);
  for (Node& n : nodes_) {
    if (n.free_dep.empty()) continue;
    for (int v : n.free_dep) qd[v] = 0.0;
    n.en.resize(static_cast<Eigen::Index>(n.sel_proj.size()));
    for (std::size_t i = 0; i < n.sel_proj.size(); ++i)
      n.en[i] = y_[n.sel_proj[i]] - J_.row(n.sel_proj[i]).dot(qd);
    gather(J_, n.sel_proj, n.free_dep, n.Jb);
    n.jlu.compute(n.Jb);
    if (n.jrcond0 < 0.0) n.jrcond0 = n.jlu.rcond();
    n.dx.noalias() = n.jlu.solve(n.en);
    for (std::size_t i = 0; i < n.free_dep.size(); ++i) qd[n.free_dep[i]] = n.dx[i];
  }
  return err;
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
    if (!n.free_dep.empty() && n.jrcond0 > 0.0) worst = std::min(worst, n.jlu.rcond() / n.jrcond0);
  return worst;
}

}  // namespace articula
