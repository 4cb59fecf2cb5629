#pragma once
// Edits of joint couplings (gears, belts, rack and pinion, linear), and the upkeep other edits
// owe them: a coupling names two joints, so renaming a joint renames it in its couplings and
// deleting a joint deletes its couplings (restored together on undo).
#include <string>
#include <vector>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

// A coupling between joints `joint_a` and `joint_b` (indices) of `type` from pitch radii: ratio
// -rA/rB (gear), rA/rB (belt) or rA m/rad (rack and pinion; rB is the rack's drawing offset).
// Named "G1", "B1", "R1", ... Throws std::invalid_argument naming the problem.
Edit add_coupling_from_radii(EditableMechanism& doc, CouplingSpec::Type type, int joint_a,
                             int joint_b, double rA, double rB);
Edit add_coupling(EditableMechanism& doc, CouplingSpec coupling);
Edit set_coupling(const EditableMechanism& doc, int index, CouplingSpec after);
Edit remove_coupling(const EditableMechanism& doc, int index);

// Checks a coupling against the document; "" when valid, else the field and the problem.
std::string check_coupling(const MechanismSpec& spec, int index, const CouplingSpec& coupling);

// Upkeep appended to `edit`: removal of the couplings naming any of `joints` (back to front, so
// undo restores their order), and the rename of joint `from` to `to` in them.
void remove_couplings_on(const EditableMechanism& doc, const std::vector<std::string>& joints,
                         Edit& edit);
void rename_in_couplings(const EditableMechanism& doc, const std::string& from,
                         const std::string& to, Edit& edit);

}  // namespace articula
