#pragma once
// Joint couplings (contract-additions-2 §1): gears, belts, rack and pinion and general linear
// couplings between two 1-DoF joints, q_B - q_B(0) = r (q_A - q_A(0)), as one constraint row
// each. A tree joint's coordinate enters the row directly; a loop joint's through its relative
// motion (q̇_l = P^T v_J, loop_geometry.hpp). The multiplier is the generalized force on joint B
// (on A it is -r times that): an ideal coupling does no work.
#include <memory>

#include "core/sim/constraints/constraint_kind.hpp"

namespace articula {

// Null when the mechanism has no couplings.
std::unique_ptr<ConstraintKind> make_couplings(const Mechanism& mech,
                                               const std::vector<DriveBinding>& drives);

}  // namespace articula
