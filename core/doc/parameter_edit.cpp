#include "core/doc/parameter_edit.hpp"

#include "core/io/project.hpp"

namespace articula {

namespace {
// Top-level fields whose items edits change (EditableMechanism's kinds and its header).
bool editable(const std::string& key) {
  for (const char* k : {"bodies", "joints", "forces", "couplings", "gravity", "simulation"})
    if (key == k) return true;
  return false;
}

// One replace change per item of `after` that differs from the document's.
template <class T, class Replace>
void replaced(const EditableMechanism& doc, const std::vector<T>& before,
              const std::vector<T>& after, Replace replace, std::vector<Change>& out) {
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!(before[i] == after[i])) out.push_back(replace(doc, static_cast<int>(i), after[i]));
}
}  // namespace

Edit set_numbers(const EditableMechanism& doc, const std::vector<std::string>& pointers,
                 const std::vector<double>& values, std::string label) {
  const MechanismSpec& spec = doc.spec();
  nlohmann::json j = to_json(spec);
  for (std::size_t i = 0; i < pointers.size(); ++i) {
    nlohmann::json::json_pointer ptr;
    try {
      ptr = nlohmann::json::json_pointer(pointers[i]);
    } catch (const nlohmann::json::exception&) {
      throw ProjectError(pointers[i], "not a JSON pointer (e.g. /bodies/2/mass)");
    }
    const std::string top = ptr.empty() ? std::string() : ptr.to_string().substr(1);
    if (!editable(top.substr(0, top.find('/'))))
      throw ProjectError(pointers[i],
                         "only numbers of bodies, joints, forces, couplings, gravity and "
                         "simulation can be set");
    if (!j.contains(ptr) || !j.at(ptr).is_number())
      throw ProjectError(pointers[i], "the project has no number here");
    j[ptr] = values.at(i);
  }
  const MechanismSpec after = parse_project(j.dump()).spec;  // throws for an invalid value
  Edit edit;
  edit.label = std::move(label);
  replaced(doc, spec.bodies, after.bodies, replace_body, edit.changes);
  replaced(doc, spec.joints, after.joints, replace_joint, edit.changes);
  replaced(doc, spec.forces, after.forces, replace_force, edit.changes);
  replaced(doc, spec.couplings, after.couplings, replace_coupling, edit.changes);
  const MechanismHeader header{after.name, after.gravity, after.simulation, after.extra};
  if (!(header == doc.header())) edit.changes.push_back(replace_header(doc, header));
  EditableMechanism trial = doc;
  trial.apply(edit);
  if (!(trial.spec() == after))  // a number outside what edits change
    throw ProjectError(pointers.front(), "edits cannot change this part of the project");
  return edit;
}

}  // namespace articula
