#pragma once
// Loop-closing joints as constraint rows (RBDA 8.2-8.3, Table 8.4): δ, the loop Jacobian K and
// the bias k with Baumgarte terms, from the spatial kinematics or, for planar mechanisms, the
// planar ones (RBDA 2.16). Multipliers are the loop joints' constraint wrenches, T λ.
#include <memory>

#include "core/sim/constraints/constraint_kind.hpp"

namespace articula {

// Null when the mechanism has no loop joints. Its rows come first in the set (row0 = 0): the
// loop algorithms write K in place at the rows LoopJoint::row gives.
std::unique_ptr<ConstraintKind> make_loop_closure(const Mechanism& mech,
                                                  const std::vector<DriveBinding>& drives);

}  // namespace articula
