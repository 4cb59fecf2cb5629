#pragma once
// The editable document in core (no Qt): a MechanismSpec whose bodies, joints and forces carry
// stable ids, changed only through reversible edits. An Edit is a list of primitive changes
// (insert, remove or replace one item, each holding the item before and after), so reverting is
// replaying the inverted changes backwards; ids live in the changes, so they survive undo/redo.
// A joint's drive and spring belong to the joint and share its id. Couplings, contacts and sensors
// are items of their own (they name joints or bodies, as spring-dampers name two bodies).
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

using EntityId = std::uint64_t;  // 0 = none

// Everything of the spec that is not a list item: name, gravity, simulation, extension fields.
struct MechanismHeader {
  std::string name;
  Vec3 gravity{0.0, -9.81, 0.0};
  std::optional<SimulationSpec> simulation;
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const MechanismHeader&) const = default;
};

struct Change {
  enum class Kind { Body, Joint, Force, Header, Coupling, Contact, Sensor };
  using Item = std::variant<std::monostate, BodySpec, JointSpec, ForceSpec, MechanismHeader,
                            CouplingSpec, ContactSpec, SensorSpec>;
  Kind kind = Kind::Body;
  EntityId id = 0;
  int index = 0;  // list position of an insert, or where a removed item was
  Item before;    // monostate: the change inserts
  Item after;     // monostate: the change removes
  Change inverted() const;
};

struct Edit {
  std::string label;  // "Add link", "Rename body", ... (the undo text)
  std::vector<Change> changes;
  bool empty() const { return changes.empty(); }
};

class EditableMechanism {
 public:
  explicit EditableMechanism(MechanismSpec spec = {});

  const MechanismSpec& spec() const { return spec_; }
  MechanismHeader header() const;

  EntityId body_id(int index) const { return body_ids_.at(index); }
  EntityId joint_id(int index) const { return joint_ids_.at(index); }
  EntityId force_id(int index) const { return force_ids_.at(index); }
  EntityId coupling_id(int index) const { return coupling_ids_.at(index); }
  EntityId contact_id(int index) const { return contact_ids_.at(index); }
  EntityId sensor_id(int index) const { return sensor_ids_.at(index); }
  int body_index(EntityId id) const;  // -1 if absent
  int joint_index(EntityId id) const;
  int force_index(EntityId id) const;
  int coupling_index(EntityId id) const;
  int contact_index(EntityId id) const;
  int sensor_index(EntityId id) const;
  const std::vector<EntityId>& body_ids() const { return body_ids_; }
  const std::vector<EntityId>& joint_ids() const { return joint_ids_; }

  // A fresh id for an item an edit is about to insert (never reused).
  EntityId allocate_id() { return next_id_++; }

  // Apply or revert an edit. Throws std::invalid_argument (and leaves the document unchanged)
  // when the edit does not fit the current state, e.g. replacing an item that is gone.
  void apply(const Edit& edit);
  void revert(const Edit& edit);
  std::uint64_t revision() const { return revision_; }

 private:
  void apply_change(const Change& c);

  MechanismSpec spec_;
  std::vector<EntityId> body_ids_, joint_ids_, force_ids_, coupling_ids_, contact_ids_, sensor_ids_;
  EntityId next_id_ = 1;
  std::uint64_t revision_ = 0;
};

// Builders of single changes against the current state.
Change insert_body(EditableMechanism& doc, BodySpec body);
Change insert_joint(EditableMechanism& doc, JointSpec joint);
Change insert_force(EditableMechanism& doc, ForceSpec force);
Change insert_coupling(EditableMechanism& doc, CouplingSpec coupling);
Change insert_contact(EditableMechanism& doc, ContactSpec contact);
Change replace_body(const EditableMechanism& doc, int index, BodySpec after);
Change replace_joint(const EditableMechanism& doc, int index, JointSpec after);
Change replace_force(const EditableMechanism& doc, int index, ForceSpec after);
Change replace_coupling(const EditableMechanism& doc, int index, CouplingSpec after);
Change remove_coupling_change(const EditableMechanism& doc, int index);
Change replace_header(const EditableMechanism& doc, MechanismHeader after);
Change replace_contact(const EditableMechanism& doc, int index, ContactSpec after);
Change remove_contact_change(const EditableMechanism& doc, int index);
Change replace_sensor(const EditableMechanism& doc, int index, SensorSpec after);
Change remove_sensor_change(const EditableMechanism& doc, int index);

}  // namespace articula
