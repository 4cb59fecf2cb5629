#pragma once
// Motion drives as rheonomic constraints (RBDA 8.5: a prescribed coordinate is a constraint row
// whose multiplier is the actuator force). On a tree joint the row is q̈_v = q̈_d(t) (hybrid
// dynamics can take it as a known acceleration, and the coordinate itself is set exactly after
// each step); on a 1-DoF loop joint it is P^T a_rel = q̈_d with Baumgarte terms, held by the
// projection like the loops.
#include <memory>

#include "core/sim/constraints/constraint_kind.hpp"

namespace articula {

// Null when there is no motion drive of that sort.
std::unique_ptr<ConstraintKind> make_tree_motion_drives(const Mechanism& mech,
                                                        const std::vector<DriveBinding>& drives);
std::unique_ptr<ConstraintKind> make_loop_motion_drives(const Mechanism& mech,
                                                        const std::vector<DriveBinding>& drives);

// Sets the coordinates and velocities of motion-driven tree joints to their laws at t (throws
// SetupError naming the drive when its law is not finite there).
void impose_tree_motion_drives(const Mechanism& mech, const std::vector<DriveBinding>& drives,
                               double t, VecX& q, VecX& qd);

}  // namespace articula
