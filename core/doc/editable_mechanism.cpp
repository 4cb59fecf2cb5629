#include "core/doc/editable_mechanism.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace articula {

namespace {
int find(const std::vector<EntityId>& ids, EntityId id) {
  const auto it = std::find(ids.begin(), ids.end(), id);
  return it == ids.end() ? -1 : static_cast<int>(it - ids.begin());
}

// Insert, remove or replace one list item, keeping the id list parallel.
template <class T>
void change_list(std::vector<T>& items, std::vector<EntityId>& ids, const Change& c) {
  const bool insert = std::holds_alternative<std::monostate>(c.before);
  const bool remove = std::holds_alternative<std::monostate>(c.after);
  if (insert) {
    if (find(ids, c.id) >= 0) throw std::invalid_argument("item already present");
    const int at = std::clamp(c.index, 0, static_cast<int>(items.size()));
    items.insert(items.begin() + at, std::get<T>(c.after));
    ids.insert(ids.begin() + at, c.id);
    return;
  }
  const int at = find(ids, c.id);
  if (at < 0) throw std::invalid_argument("item not found");
  if (!(items[at] == std::get<T>(c.before))) throw std::invalid_argument("item changed since");
  if (remove) {
    items.erase(items.begin() + at);
    ids.erase(ids.begin() + at);
  } else {
    items[at] = std::get<T>(c.after);
  }
}
}  // namespace

Change Change::inverted() const {
  Change c = *this;
  std::swap(c.before, c.after);
  return c;
}

EditableMechanism::EditableMechanism(MechanismSpec spec) : spec_(std::move(spec)) {
  for (std::size_t i = 0; i < spec_.bodies.size(); ++i) body_ids_.push_back(next_id_++);
  for (std::size_t i = 0; i < spec_.joints.size(); ++i) joint_ids_.push_back(next_id_++);
  for (std::size_t i = 0; i < spec_.forces.size(); ++i) force_ids_.push_back(next_id_++);
  for (std::size_t i = 0; i < spec_.couplings.size(); ++i) coupling_ids_.push_back(next_id_++);
  for (std::size_t i = 0; i < spec_.contacts.size(); ++i) contact_ids_.push_back(next_id_++);
  for (std::size_t i = 0; i < spec_.sensors.size(); ++i) sensor_ids_.push_back(next_id_++);
}

MechanismHeader EditableMechanism::header() const {
  return {spec_.name, spec_.gravity, spec_.simulation, spec_.extra};
}

int EditableMechanism::body_index(EntityId id) const {
  return find(body_ids_, id);
}
int EditableMechanism::joint_index(EntityId id) const {
  return find(joint_ids_, id);
}
int EditableMechanism::force_index(EntityId id) const {
  return find(force_ids_, id);
}
int EditableMechanism::coupling_index(EntityId id) const {
  return find(coupling_ids_, id);
}
int EditableMechanism::contact_index(EntityId id) const {
  return find(contact_ids_, id);
}
int EditableMechanism::sensor_index(EntityId id) const {
  return find(sensor_ids_, id);
}

void EditableMechanism::apply_change(const Change& c) {
  switch (c.kind) {
    case Change::Kind::Body:
      change_list(spec_.bodies, body_ids_, c);
      break;
    case Change::Kind::Joint:
      change_list(spec_.joints, joint_ids_, c);
      break;
    case Change::Kind::Force:
      change_list(spec_.forces, force_ids_, c);
      break;
    case Change::Kind::Coupling:
      change_list(spec_.couplings, coupling_ids_, c);
      break;
    case Change::Kind::Contact:
      change_list(spec_.contacts, contact_ids_, c);
      break;
    case Change::Kind::Sensor:
      change_list(spec_.sensors, sensor_ids_, c);
      break;
    case Change::Kind::Header: {
      if (!(header() == std::get<MechanismHeader>(c.before)))
        throw std::invalid_argument("header changed since");
      const auto& h = std::get<MechanismHeader>(c.after);
      spec_.name = h.name;
      spec_.gravity = h.gravity;
      spec_.simulation = h.simulation;
      spec_.extra = h.extra;
      break;
    }
  }
}

void EditableMechanism::apply(const Edit& edit) {
  // All or nothing: work on a copy so that a failing change leaves no trace.
  EditableMechanism trial = *this;
  for (const Change& c : edit.changes) trial.apply_change(c);
  trial.revision_ = revision_ + 1;
  *this = std::move(trial);
}

void EditableMechanism::revert(const Edit& edit) {
  EditableMechanism trial = *this;
  for (auto it = edit.changes.rbegin(); it != edit.changes.rend(); ++it)
    trial.apply_change(it->inverted());
  trial.revision_ = revision_ + 1;
  *this = std::move(trial);
}

// Inserts append (an index past the end is clamped), so several inserts in one edit keep their
// order.
constexpr int kAppend = std::numeric_limits<int>::max();

Change insert_body(EditableMechanism& doc, BodySpec body) {
  return {Change::Kind::Body, doc.allocate_id(), kAppend, {}, std::move(body)};
}

Change insert_joint(EditableMechanism& doc, JointSpec joint) {
  return {Change::Kind::Joint, doc.allocate_id(), kAppend, {}, std::move(joint)};
}

Change insert_force(EditableMechanism& doc, ForceSpec force) {
  return {Change::Kind::Force, doc.allocate_id(), kAppend, {}, std::move(force)};
}

Change insert_coupling(EditableMechanism& doc, CouplingSpec coupling) {
  return {Change::Kind::Coupling, doc.allocate_id(), kAppend, {}, std::move(coupling)};
}

Change insert_contact(EditableMechanism& doc, ContactSpec contact) {
  return {Change::Kind::Contact, doc.allocate_id(), kAppend, {}, std::move(contact)};
}

Change replace_body(const EditableMechanism& doc, int index, BodySpec after) {
  return {Change::Kind::Body, doc.body_id(index), index, doc.spec().bodies.at(index),
          std::move(after)};
}

Change replace_joint(const EditableMechanism& doc, int index, JointSpec after) {
  return {Change::Kind::Joint, doc.joint_id(index), index, doc.spec().joints.at(index),
          std::move(after)};
}

Change replace_force(const EditableMechanism& doc, int index, ForceSpec after) {
  return {Change::Kind::Force, doc.force_id(index), index, doc.spec().forces.at(index),
          std::move(after)};
}

Change replace_coupling(const EditableMechanism& doc, int index, CouplingSpec after) {
  return {Change::Kind::Coupling, doc.coupling_id(index), index, doc.spec().couplings.at(index),
          std::move(after)};
}

Change remove_coupling_change(const EditableMechanism& doc, int index) {
  return {
      Change::Kind::Coupling, doc.coupling_id(index), index, doc.spec().couplings.at(index), {}};
}

Change replace_header(const EditableMechanism& doc, MechanismHeader after) {
  return {Change::Kind::Header, 0, 0, doc.header(), std::move(after)};
}

Change replace_contact(const EditableMechanism& doc, int index, ContactSpec after) {
  return {Change::Kind::Contact, doc.contact_id(index), index, doc.spec().contacts.at(index),
          std::move(after)};
}

Change remove_contact_change(const EditableMechanism& doc, int index) {
  return {Change::Kind::Contact, doc.contact_id(index), index, doc.spec().contacts.at(index), {}};
}

Change replace_sensor(const EditableMechanism& doc, int index, SensorSpec after) {
  return {Change::Kind::Sensor, doc.sensor_id(index), index, doc.spec().sensors.at(index),
          std::move(after)};
}

Change remove_sensor_change(const EditableMechanism& doc, int index) {
  return {Change::Kind::Sensor, doc.sensor_id(index), index, doc.spec().sensors.at(index), {}};
}

}  // namespace articula
