// The effect of an edit (see edit_effect.hpp).
#include "core/doc/edit_effect.hpp"

#include <algorithm>

namespace articula {
namespace {

// `a` with the names of `b`: equal to b exactly when only names differ.
BodySpec renamed_like(BodySpec a, const BodySpec& b) {
  a.name = b.name;
  return a;
}
JointSpec renamed_like(JointSpec a, const JointSpec& b) {
  a.name = b.name, a.parent = b.parent, a.child = b.child;
  return a;
}
ForceSpec renamed_like(ForceSpec a, const ForceSpec& b) {
  a.name = b.name, a.body1 = b.body1, a.body2 = b.body2;
  return a;
}
CouplingSpec renamed_like(CouplingSpec a, const CouplingSpec& b) {
  a.name = b.name, a.joints = b.joints;
  return a;
}
ContactSpec renamed_like(ContactSpec a, const ContactSpec& b) {
  a.name = b.name, a.body = b.body, a.surface_body = b.surface_body;
  return a;
}
SensorSpec renamed_like(SensorSpec a, const SensorSpec& b) {
  a.name = b.name, a.body = b.body, a.joint = b.joint;
  return a;
}
MechanismHeader renamed_like(MechanismHeader a, const MechanismHeader& b) {
  a.name = b.name;
  return a;
}

}  // namespace

bool differs_only_in_names(const Change::Item& before, const Change::Item& after) {
  if (before.index() != after.index()) return false;
  return std::visit(
      [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return false;
        } else {
          const T& b = std::get<T>(after);
          return renamed_like(a, b) == b;
        }
      },
      before);
}

EditEffect describe_edit(const Edit& edit, bool reverted) {
  EditEffect e;
  for (const Change& c : edit.changes) {
    const Change::Item& before = reverted ? c.after : c.before;
    const Change::Item& after = reverted ? c.before : c.after;
    EditEffect::Item item{c.kind, c.id, EditEffect::What::Edited};
    EditEffect::Scope scope = EditEffect::Scope::Dynamics;
    if (std::holds_alternative<std::monostate>(before)) {
      item.what = EditEffect::What::Inserted, scope = EditEffect::Scope::Structure;
    } else if (std::holds_alternative<std::monostate>(after)) {
      item.what = EditEffect::What::Removed, scope = EditEffect::Scope::Structure;
    } else if (before == after || differs_only_in_names(before, after)) {
      item.what = EditEffect::What::Renamed, scope = EditEffect::Scope::Names;
    }
    e.items.push_back(item);
    e.scope = std::max(e.scope, scope);
  }
  return e;
}

}  // namespace articula
