// The elimination orders of the instant dynamics graph and its solution.
#include "core/factor_graph/dynamics_graph.hpp"
#include "core/factor_graph/ordering.hpp"

namespace articula::fg {

namespace {
void append(std::vector<int>& order, int id, const FactorGraph& g) {
  if (id >= 0 && !g.variable(id).known) order.push_back(id);
}
}  // namespace

// RNEA (Fig. 5): torques leaf to root, wrenches root to leaf, accelerations leaf to root, so
// that back-substitution runs accelerations outward, wrenches inward, then torques. CRBA
// (Fig. 7a): wrenches, then accelerations, then the joint accelerations and torques (the dense
// H block). ABA (Fig. 7b): body by body from the leaves, wrench, acceleration, q̈, τ (the
// articulated-body recursion). Loop forces and loop-drive forces last in all three (the dense
// K H⁻¹ Kᵀ block of Method 2).
std::vector<int> InstantDynamicsGraph::order(EliminationOrder kind) const {
  if (kind == EliminationOrder::Colamd) return structural_order(graph_, StructuralOrder::Colamd);
  if (kind == EliminationOrder::Amd) return structural_order(graph_, StructuralOrder::Amd);
  if (kind == EliminationOrder::MinDegree)
    return structural_order(graph_, StructuralOrder::MinDegree);
  const int nb = model_.nb;
  std::vector<int> o;
  if (kind == EliminationOrder::Rnea) {
    for (int i = nb; i >= 1; --i) append(o, tau_[i], graph_);
    for (int i = 1; i <= nb; ++i) append(o, F_[i], graph_);
    for (int i = nb; i >= 1; --i) append(o, A_[i], graph_);
    for (int i = nb; i >= 1; --i) append(o, qdd_[i], graph_);
  } else if (kind == EliminationOrder::Crba) {
    for (int i = 1; i <= nb; ++i) append(o, F_[i], graph_);
    for (int i = nb; i >= 1; --i) append(o, A_[i], graph_);
    for (int i = 1; i <= nb; ++i) append(o, qdd_[i], graph_), append(o, tau_[i], graph_);
  } else {
    for (int i = nb; i >= 1; --i) {
      append(o, F_[i], graph_), append(o, A_[i], graph_);
      append(o, qdd_[i], graph_), append(o, tau_[i], graph_);
    }
  }
  for (size_t k = 0; k < lambda_.size(); ++k) {
    append(o, lambda_[k], graph_);
    append(o, loop_tau_[k], graph_);
  }
  return o;
}

InstantResult InstantDynamicsGraph::solve(EliminationOrder kind, BayesNet* net) {
  BayesNet local;
  BayesNet& bn = net ? *net : local;
  // Linear in the unknowns at a known q, q̇: one elimination from zero gives the solution.
  for (int v : graph_.unknowns()) graph_.set_value(v, VecX::Zero(graph_.variable(v).dim));
  bn = eliminate(graph_, order(kind));
  std::vector<VecX> dx(graph_.num_variables());
  bn.solve(dx);
  for (int v : graph_.unknowns()) graph_.set_value(v, dx[v]);
  InstantResult r = collect();
  r.iterations = 1;
  return r;
}

InstantResult InstantDynamicsGraph::collect() const {
  InstantResult r;
  r.qdd.resize(model_.nv);
  r.tau.resize(model_.nv);
  for (int i = 1; i <= model_.nb; ++i) {
    if (qdd_[i] < 0) continue;
    const int v0 = model_.v_index[i], nv = model_.joints[i].nv();
    r.qdd.segment(v0, nv) = graph_.variable(qdd_[i]).value;
    r.tau.segment(v0, nv) = graph_.variable(tau_[i]).value;
  }
  for (size_t k = 0; k < lambda_.size(); ++k) {
    r.loop_force.push_back(graph_.variable(lambda_[k]).value);
    if (loop_tau_[k] >= 0) {
      const int d = loop_drive_of_[k];
      if (static_cast<int>(r.loop_drive_tau.size()) <= d) r.loop_drive_tau.resize(d + 1);
      r.loop_drive_tau[d] = graph_.variable(loop_tau_[k]).value[0];
    }
  }
  return r;
}

}  // namespace articula::fg
