#pragma once
// The edits a user makes: each builds one reversible Edit against the current document (nothing
// changes until EditableMechanism::apply). Planar sketch edits draw in the world x-y plane; the
// spatial ones take numeric frames. Every builder throws std::invalid_argument naming the problem
// when the edit makes no sense (e.g. pinning a link to itself).
#include <optional>

#include "core/doc/editable_mechanism.hpp"
#include "core/doc/sketch_geometry.hpp"

namespace articula {

struct Mechanism;

// Where a drawn point attaches: ground (body = -1) or a body; none = a free end.
struct Attachment {
  int body = -1;
};

// Unique names: "link1", "link2", ... (the first number not used by a body or joint).
std::string unique_name(const MechanismSpec& spec, const std::string& stem);

Edit add_ground_point(const EditableMechanism& doc, const Vec3& p);
Edit remove_ground_point(const EditableMechanism& doc, const Vec3& p);
// A new link through 2 (bar) or 3 (ternary) world points; attach[i] pins point i with a revolute
// joint to that body or to ground.
Edit add_link(EditableMechanism& doc, const std::vector<Vec3>& points,
              const std::vector<std::optional<Attachment>>& attach);
// A revolute joint between two bodies (either may be ground, -1) at a world point.
Edit add_pin(EditableMechanism& doc, int body_a, int body_b, const Vec3& at);
// A slider block at `at` on `guide` (a body, or ground = -1), moving along the world direction
// `direction` (in the x-y plane) with a prismatic joint.
Edit add_slider(EditableMechanism& doc, int guide, const Vec3& at, const Vec3& direction);
// Removing a body removes its joints and the forces on it.
Edit remove_body(const EditableMechanism& doc, int body);
Edit remove_joint(const EditableMechanism& doc, int joint);
Edit remove_force(const EditableMechanism& doc, int force);
// Geometry: every sketch point at world `from` (on any body or ground) moves to `to`; joint frames
// there follow. Links whose mass follows the sketch get new mass properties; a link with a typed
// mass keeps it, with its centre of mass and inertia from the new outline (bars of that mass).
Edit move_point(const EditableMechanism& doc, const Vec3& from, const Vec3& to);
// The configuration after kinematic dragging: body poses (and q0 where given) from model q.
Edit set_configuration(const EditableMechanism& doc, const Mechanism& mech, const VecX& q);

// The Motor tool: a motion drive on 1-DoF joint `joint` starting where the joint is in `mech`
// (its assembled q0; 0 for a loop joint or without a mechanism), so that switching it on does not
// move the sketch: "q0 + 2*pi*t" (one turn per second), or "q0 + 0.05*sin(2*pi*t)" for a slider;
// q0 printed with 12 significant digits. Removes the drive when the joint has one.
Edit toggle_motor(const EditableMechanism& doc, const Mechanism* mech, int joint);

// Property edits (one item, with name references kept consistent on rename).
Edit set_body(const EditableMechanism& doc, int body, BodySpec after);
Edit set_joint(const EditableMechanism& doc, int joint, JointSpec after);
Edit set_force(const EditableMechanism& doc, int force, ForceSpec after);
Edit set_header(const EditableMechanism& doc, MechanismHeader after);
Edit add_body(EditableMechanism& doc, BodySpec body);
Edit add_joint(EditableMechanism& doc, JointSpec joint);
Edit add_force(EditableMechanism& doc, ForceSpec force);

// Checks a body, joint or force against the rest of the document. Returns "" when valid, else
// the reason ("mass must be positive", "name 'crank' is taken", ...).
std::string check_body(const MechanismSpec& spec, int index, const BodySpec& body);
std::string check_joint(const MechanismSpec& spec, int index, const JointSpec& joint);
std::string check_force(const MechanismSpec& spec, int index, const ForceSpec& force);

}  // namespace articula
