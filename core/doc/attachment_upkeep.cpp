#include "core/doc/attachment_upkeep.hpp"

#include <algorithm>

namespace articula {

namespace {
bool among(const std::vector<std::string>& names, const std::string& n) {
  return !n.empty() && std::find(names.begin(), names.end(), n) != names.end();
}
}  // namespace

void remove_attached(const EditableMechanism& doc, const std::vector<std::string>& bodies,
                     const std::vector<std::string>& joints, Edit& edit) {
  const MechanismSpec& spec = doc.spec();
  for (int c = static_cast<int>(spec.contacts.size()) - 1; c >= 0; --c)
    if (among(bodies, spec.contacts[c].body) || among(bodies, spec.contacts[c].surface_body))
      edit.changes.push_back(remove_contact_change(doc, c));
  for (int s = static_cast<int>(spec.sensors.size()) - 1; s >= 0; --s)
    if (among(bodies, spec.sensors[s].body) || among(joints, spec.sensors[s].joint))
      edit.changes.push_back(remove_sensor_change(doc, s));
}

void rename_body_in_attached(const EditableMechanism& doc, const std::string& from,
                             const std::string& to, Edit& edit) {
  if (from == to) return;
  const MechanismSpec& spec = doc.spec();
  for (int c = 0; c < static_cast<int>(spec.contacts.size()); ++c) {
    ContactSpec cs = spec.contacts[c];
    if (cs.body != from && cs.surface_body != from) continue;
    if (cs.body == from) cs.body = to;
    if (cs.surface_body == from) cs.surface_body = to;
    edit.changes.push_back(replace_contact(doc, c, std::move(cs)));
  }
  for (int s = 0; s < static_cast<int>(spec.sensors.size()); ++s) {
    if (spec.sensors[s].body != from) continue;
    SensorSpec ss = spec.sensors[s];
    ss.body = to;
    edit.changes.push_back(replace_sensor(doc, s, std::move(ss)));
  }
}

void rename_joint_in_attached(const EditableMechanism& doc, const std::string& from,
                              const std::string& to, Edit& edit) {
  if (from == to) return;
  const MechanismSpec& spec = doc.spec();
  for (int s = 0; s < static_cast<int>(spec.sensors.size()); ++s) {
    if (spec.sensors[s].joint != from) continue;
    SensorSpec ss = spec.sensors[s];
    ss.joint = to;
    edit.changes.push_back(replace_sensor(doc, s, std::move(ss)));
  }
}

}  // namespace articula
