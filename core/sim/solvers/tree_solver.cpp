#include "core/sim/solvers/tree_solver.hpp"

#include "core/algorithms/aba.hpp"
#include "core/algorithms/hybrid_dynamics.hpp"

namespace articula {

TreeSolver::TreeSolver(const SolverEnv& env) : DynamicsSolver(env) {
  const Model& model = env.mech.model();
  fd_.assign(model.nb + 1, true);
  for (int i = 1; i <= model.nb; ++i)
    for (int v : env.constraints.prescribed_coordinates())
      if (v >= model.v_index[i] && v < model.v_index[i] + model.joints[i].nv()) fd_[i] = false;
  qdd_in_ = VecX::Zero(model.nv);
  mu_ = VecX::Zero(env.constraints.rows());
}

const VecX& TreeSolver::accelerations(const SolverInput& in) {
  const Model& model = env_.mech.model();
  const std::vector<int>& held = env_.constraints.prescribed_coordinates();
  if (held.empty()) {  // every joint free: plain (base-coordinate) ABA
    return aba(model, env_.data, in.q, in.v, in.tau, in.f_ext);
  }
  ConstraintContext c = context(in);
  env_.constraints.acceleration(c);  // the prescribed q̈ (rows e_v^T q̈ = g)
  const VecX& g = env_.constraints.g();
  for (std::size_t r = 0; r < held.size(); ++r) qdd_in_[held[r]] = g[r];
  hybrid_dynamics(model, env_.data, in.q, in.v, qdd_in_, in.tau, fd_, in.f_ext);
  for (std::size_t r = 0; r < held.size(); ++r) mu_[r] = env_.data.tau[held[r]] - in.tau[held[r]];
  return env_.data.qdd;
}

}  // namespace articula
