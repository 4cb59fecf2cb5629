// Coupling edits (see coupling_edits.hpp).
#include "core/doc/coupling_edits.hpp"

#include <stdexcept>

#include "core/spec/coupling_rules.hpp"

namespace articula {
namespace {

const char* name_stem(CouplingSpec::Type type) {
  switch (type) {
    case CouplingSpec::Type::Gear:
      return "G";
    case CouplingSpec::Type::Belt:
      return "B";
    case CouplingSpec::Type::RackPinion:
      return "R";
    case CouplingSpec::Type::Linear:
      break;
  }
  return "C";
}

std::string unique_coupling_name(const MechanismSpec& spec, const std::string& stem) {
  for (int k = 1;; ++k) {
    const std::string n = stem + std::to_string(k);
    if (spec.coupling_index(n) < 0 && spec.joint_index(n) < 0 && spec.body_index(n) < 0) return n;
  }
}

}  // namespace

std::string check_coupling(const MechanismSpec& spec, int index, const CouplingSpec& coupling) {
  const auto problem = coupling_problem(spec, index, coupling);
  return problem ? problem->field + ": " + problem->message : "";
}

Edit add_coupling(EditableMechanism& doc, CouplingSpec coupling) {
  if (const std::string why = check_coupling(doc.spec(), -1, coupling); !why.empty())
    throw std::invalid_argument(why);
  const std::string label =
      "Add " + std::string(coupling_type_name(coupling.type)) + " " + coupling.name;
  return {label, {insert_coupling(doc, std::move(coupling))}};
}

Edit add_coupling_from_radii(EditableMechanism& doc, CouplingSpec::Type type, int joint_a,
                             int joint_b, double rA, double rB) {
  const MechanismSpec& spec = doc.spec();
  if (!(rA > 0.0) || !(rB > 0.0)) throw std::invalid_argument("radii must be > 0");
  CouplingSpec c;
  c.name = unique_coupling_name(spec, name_stem(type));
  c.type = type;
  c.joints = {spec.joints.at(joint_a).name, spec.joints.at(joint_b).name};
  c.ratio = ratio_from_radii(type, rA, rB).value_or(1.0);
  c.radii = std::array<double, 2>{rA, rB};
  return add_coupling(doc, std::move(c));
}

Edit set_coupling(const EditableMechanism& doc, int index, CouplingSpec after) {
  if (const std::string why = check_coupling(doc.spec(), index, after); !why.empty())
    throw std::invalid_argument(why);
  const std::string& old = doc.spec().couplings.at(index).name;
  return {(after.name == old ? "Edit " : "Rename ") + old,
          {replace_coupling(doc, index, std::move(after))}};
}

Edit remove_coupling(const EditableMechanism& doc, int index) {
  return {"Delete coupling " + doc.spec().couplings.at(index).name,
          {remove_coupling_change(doc, index)}};
}

void remove_couplings_on(const EditableMechanism& doc, const std::vector<std::string>& joints,
                         Edit& edit) {
  const MechanismSpec& spec = doc.spec();
  // Back to front over all of them, so that undo reinserts each at its recorded index.
  for (int i = static_cast<int>(spec.couplings.size()) - 1; i >= 0; --i)
    for (const std::string& name : joints)
      if (spec.couplings[i].joints[0] == name || spec.couplings[i].joints[1] == name) {
        edit.changes.push_back(remove_coupling_change(doc, i));
        break;
      }
}

void rename_in_couplings(const EditableMechanism& doc, const std::string& from,
                         const std::string& to, Edit& edit) {
  if (from == to) return;
  for (int i : couplings_on_joint(doc.spec(), from)) {
    CouplingSpec c = doc.spec().couplings[i];
    for (std::string& j : c.joints)
      if (j == from) j = to;
    edit.changes.push_back(replace_coupling(doc, i, std::move(c)));
  }
}

}  // namespace articula
