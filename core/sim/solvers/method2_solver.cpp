#include "core/sim/solvers/method2_solver.hpp"

#include "core/algorithms/augmented_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/sim/diagnostics.hpp"

namespace articula {

Method2Solver::Method2Solver(const SolverEnv& env, const PlanarModel* planar, bool minimum_norm)
    : DynamicsSolver(env), planar_model_(planar) {
  if (planar) planar_ = std::make_unique<PlanarData>(*planar);
  cd_.minimum_norm = minimum_norm;
}

ConstraintContext Method2Solver::context(const SolverInput& in) const {
  ConstraintContext c = DynamicsSolver::context(in);
  c.planar_model = planar_model_;
  c.planar = planar_.get();
  return c;
}

const VecX& Method2Solver::accelerations(const SolverInput& in) {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  if (planar_) {  // planar vectors: no applied body forces reach this solver (make_solver)
    planar_kinematics(*planar_model_, *planar_, in.q, &in.v);
    env_.constraints.acceleration(context(in));
    planar_crba(*planar_model_, *planar_, data.H);
    planar_bias_forces(*planar_model_, *planar_, data.C);
  } else {
    forward_kinematics_bias(model, data, in.q, in.v);
    env_.constraints.acceleration(context(in));
    crba_from_kinematics(model, data);  // the constraint rows ran on the same kinematics
    nonlinear_effects_from_bias_kinematics(model, data, in.f_ext);
  }
  solve(in);
  return data.qdd;
}

const VecX& Method2Solver::resolve(const SolverInput& in) {
  Data& data = env_.data;
  if (!constrained_resolve(env_.mech.model(), data, env_.constraints.G(), env_.constraints.g(),
                           in.tau, cd_))
    return accelerations(in);
  return data.qdd;
}

const VecX& Method2Solver::resolve_multipliers(const SolverInput& in) {
  if (!constrained_resolve_multipliers(env_.mech.model(), env_.data, env_.constraints.G(),
                                       env_.constraints.g(), in.tau, cd_))
    accelerations(in);
  return cd_.mu;
}

void Method2Solver::solve(const SolverInput& in) {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  const MatX& G = env_.constraints.G();
  const VecX& g = env_.constraints.g();
  if (ltdl_factor(model, data)) {
    constrained_forward_dynamics(model, data, G, g, in.tau, cd_);
  } else if (!augmented_forward_dynamics(model, data, G, g, in.tau, cd_)) {
    // Massless bodies that not even the constraints move: name their joints.
    check_mass_matrix(env_.mech, in.q, env_.constraints.prescribed_coordinates(), true,
                      " at t = " + std::to_string(in.t) +
                          ", and the loops and drives do not determine their motion either");
  }
}

}  // namespace articula
