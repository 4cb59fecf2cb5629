#pragma once
// The closed unilaterals (joint limits at a bound, contacts touching) as constraint rows: while
// closed, a unilateral is an equality φ = 0 like a loop joint (RBDA 11.3: the active set), held
// by the solvers with Baumgarte terms and by the projection; its multiplier is the normal force
// λ, which must stay >= 0 (the contact stepper opens it when it would not). The number of rows
// changes with the active set: ConstraintSet::restack() after a change.
#include <memory>

#include "core/sim/constraints/constraint_kind.hpp"
#include "core/sim/contact/unilateral.hpp"

namespace articula {

std::unique_ptr<ConstraintKind> make_unilateral_rows(const Mechanism& mech, UnilateralState& state);

}  // namespace articula
