#pragma once
// Numbers of the project set by JSON pointer as one reversible Edit (issue 20: the app applies
// identified parameters, `identify --param` names them the same way). The spec is written to
// JSON, the numbers set, read back, and every body, joint, force or coupling that changed becomes
// one replace change; the header (gravity, simulation) likewise.
#include <string>
#include <vector>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

// Throws ProjectError naming the pointer when it leads to no number of the file, or to one of a
// part edits cannot change (sensors, contacts), or when the new value is invalid there.
Edit set_numbers(const EditableMechanism& doc, const std::vector<std::string>& pointers,
                 const std::vector<double>& values, std::string label);

}  // namespace articula
