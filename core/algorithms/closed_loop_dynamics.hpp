#pragma once
// Forward dynamics of a spanning tree closed by loop joints (RBDA 8.3-8.5): loop constraints with
// Baumgarte stabilisation (Eq. 8.22), the joint-space inertia matrix and its sparse factor, and
// the constrained solve of constrained_dynamics.hpp. What a simulator needs for q̈ from q, q̇, τ.
#include <vector>

#include "core/algorithms/constrained_dynamics.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/model/loop_joint.hpp"

namespace articula {

struct ClosedLoopWork {
  VecX delta, k;  // loop position errors, constraint right-hand side K q̈ = k
  MatX K;         // loop Jacobian
  ConstrainedDynamicsWork cd;
};

// Returns data.qdd. alpha, beta: Baumgarte gains (0 for the exact acceleration constraint).
// Returns false when H is not positive definite (a massless end body).
bool closed_loop_forward_dynamics(const Model& model, Data& data,
                                  const std::vector<LoopJoint>& loops, const VecX& q,
                                  const VecX& qd, const VecX& tau, double alpha, double beta,
                                  ClosedLoopWork& work, const ExternalForces* f_ext = nullptr);

}  // namespace articula
