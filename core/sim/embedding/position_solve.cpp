// The position level of the embedding (ConstraintEmbedding::solve_dependent): the dependent
// coordinates of each node from its independent ones by a local Newton iteration, which the
// paper leaves to the implementer (Jain Part II §8). Nodes are independent of each other (their
// constraints are internal), so one pass over the stacked rows is every node's own iteration.
#include <Eigen/LU>
#include <cmath>
#include <sstream>
#include <string>

#include "core/algorithms/kinematics.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/constraints/motion_drives.hpp"
#include "core/sim/embedding/partition.hpp"

namespace articula {

namespace {
MatX block(const MatX& J, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX A(rows.size(), cols.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) A(i, j) = J(rows[i], cols[j]);
  return A;
}
}  // namespace

double ConstraintEmbedding::solve_dependent(ConstraintContext& c, double tol, VecX& q, VecX& qd) {
  const Model& model = mech_.model();
  impose_tree_motion_drives(mech_, c.drives, c.t, q, qd);  // prescribed: the laws themselves
  c.q = &q;
  c.qd = &qd;
  dv_.setZero(model.nv);
  double err = 0.0, previous = INFINITY;
  for (int it = 0; it < 12; ++it) {
    forward_kinematics(model, c.data, q);
    set_.position(c, J_, e_);
    err = 0.0;
    for (const Node& n : nodes_)
      for (int r : n.sel_proj) err = std::max(err, std::abs(e_[r]));
    // Quadratic convergence: stop well below tol, or where round-off stops the progress.
    if (err <= 0.01 * tol || (err <= tol && err > 0.25 * previous)) break;
    previous = err;
    for (const Node& n : nodes_) {
      if (n.free_dep.empty()) continue;
      VecX en(n.sel_proj.size());
      for (std::size_t i = 0; i < n.sel_proj.size(); ++i) en[i] = e_[n.sel_proj[i]];
      const VecX dx = block(J_, n.sel_proj, n.free_dep).partialPivLu().solve(en);
      for (std::size_t i = 0; i < n.free_dep.size(); ++i) dv_[n.free_dep[i]] = dx[i];
    }
    integrate_in_place(model, q, dv_, -1.0);  // e(q ⊖ J⁻¹ e) = O(|e|²)
    dv_.setZero();
  }
  if (!(err <= tol)) {
    std::ostringstream os;
    os << "at t = " << c.t << " the loops cannot be closed from the independent coordinates "
       << describe() << " (residual " << err
       << "): the mechanism has reached the end of its range or a dead point";
    throw SetupError(os.str());
  }
  // Velocities: J_D q̇_D = y - J_R q̇_R on each node's selected rows.
  set_.velocity_targets(c, y_);
  for (const Node& n : nodes_) {
    if (n.free_dep.empty()) continue;
    for (int v : n.free_dep) qd[v] = 0.0;
    VecX rhs(n.sel_proj.size());
    for (std::size_t i = 0; i < n.sel_proj.size(); ++i)
      rhs[i] = y_[n.sel_proj[i]] - J_.row(n.sel_proj[i]).dot(qd);
    const VecX vd = block(J_, n.sel_proj, n.free_dep).partialPivLu().solve(rhs);
    for (std::size_t i = 0; i < n.free_dep.size(); ++i) qd[n.free_dep[i]] = vd[i];
  }
  return err;
}

}  // namespace articula
