#pragma once
// The upkeep body and joint edits owe the items that name them without being part of them:
// contacts (a body and its surface's body) and sensors (a body or a joint). Renaming a body or a
// joint renames it there; deleting one deletes those items (back to front, so that undo restores
// their order). Couplings have theirs in coupling_edits.hpp.
#include <string>
#include <vector>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

// Appended to `edit`: the contacts and sensors on any of `bodies` and the sensors on any of
// `joints` are removed.
void remove_attached(const EditableMechanism& doc, const std::vector<std::string>& bodies,
                     const std::vector<std::string>& joints, Edit& edit);

// Appended to `edit`: body `from` renamed `to` in contacts and sensors.
void rename_body_in_attached(const EditableMechanism& doc, const std::string& from,
                             const std::string& to, Edit& edit);

// Appended to `edit`: joint `from` renamed `to` in sensors.
void rename_joint_in_attached(const EditableMechanism& doc, const std::string& from,
                              const std::string& to, Edit& edit);

}  // namespace articula
