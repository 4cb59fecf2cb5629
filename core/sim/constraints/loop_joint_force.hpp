#pragma once
// A generalized force τ across a 1-DoF loop joint, as the constraint kinds report it: the wrench
// P τ across the joint (successor frame), and its two body forces in base coordinates.
#include "core/sim/constraints/constraint_kind.hpp"

namespace articula {

void add_loop_joint_force(const ConstraintContext& c, int loop, int user_joint, double tau,
                          ConstraintForces& out);

}  // namespace articula
