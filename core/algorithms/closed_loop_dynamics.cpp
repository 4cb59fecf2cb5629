#include "core/algorithms/closed_loop_dynamics.hpp"

#include "core/algorithms/crba.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/ltdl.hpp"

namespace articula {

bool closed_loop_forward_dynamics(const Model& model, Data& data,
                                  const std::vector<LoopJoint>& loops, const VecX& q,
                                  const VecX& qd, const VecX& tau, double alpha, double beta,
                                  ClosedLoopWork& w, const ExternalForces* f_ext) {
  loop_constraints(model, data, loops, q, qd, alpha, beta, w.delta, w.K, w.k);
  (void)q;
  crba_from_kinematics(model, data);  // loop_constraints ran the kinematics at (q, q̇)
  nonlinear_effects_from_bias_kinematics(model, data, f_ext);
  if (!ltdl_factor(model, data)) return false;
  constrained_forward_dynamics(model, data, w.K, w.k, tau, w.cd);
  return true;
}

}  // namespace articula
