#include "core/sim/solvers/operator_solver.hpp"

#include "core/algorithms/aba.hpp"
#include "core/algorithms/kinematics.hpp"

namespace articula {

OperatorSolver::OperatorSolver(const SolverEnv& env)
    : DynamicsSolver(env), fallback_(env, nullptr, false) {
  work_.resize(env.mech.model());
}

const VecX& OperatorSolver::accelerations(const SolverInput& in) {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  forward_kinematics_bias(model, data, in.q, in.v);
  const ConstraintContext ctx = context(in);
  env_.constraints.acceleration(ctx);  // g (and G for the right-hand side)
  env_.constraints.operator_rows(ctx, rows_);
  aba(model, data, in.q, in.v, in.tau, in.f_ext);  // step A: q̈_f, and M's factors in data
  fell_back_ = !innovations_valid(model, data);
  if (fell_back_) return fallback_.accelerations(in);
  multipliers_and_correction();
  return data.qdd;
}

void OperatorSolver::multipliers_and_correction() {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  const MatX& G = env_.constraints.G();
  const VecX& g = env_.constraints.g();
  const int m = static_cast<int>(G.rows());
  mu_.setZero(m);
  rank_ = 0;
  if (m == 0) return;
  // Rows under 1e-24 of the largest squared norm (a planar loop's out-of-plane rows) are left
  // out, as Method 2 leaves them out (constrained_dynamics.cpp).
  significant_rows(G, 1e-24, selected_);
  const int mc = static_cast<int>(selected_.size());
  inverse_operational_inertia(model, data, rows_, selected_, A_, work_);  // step C
  rhs_.resize(mc);
  for (int c = 0; c < mc; ++c) rhs_[c] = g[selected_[c]] - G.row(selected_[c]).dot(data.qdd);
  ldlt_.factor(A_, 1e-10);  // step D, with Method 2's rank tolerance
  rank_ = ldlt_.rank();
  ldlt_.solve(rhs_);
  for (Force& f : work_.z) f.setZero();
  work_.tau.setZero();
  for (int c = 0; c < mc; ++c) {
    mu_[selected_[c]] = rhs_[c];
    add_row_force(rows_[selected_[c]], rhs_[c], work_);
  }
  solve_in_place(model, data, work_);  // step E: M^-1 G^T μ
  data.qdd += work_.qdd;               // step F
}

}  // namespace articula
