// Project: the editor's sketch edits (ground pivots, links, pins, sliders, moving points, the
// Motor tool), drives and springs on joints, and couplings from pitch radii. Each is the same
// core edit the desktop editor makes, so a mechanism drawn here saves to the same file.
#include <pybind11/stl.h>

#include "convert.hpp"
#include "core/doc/coupling_edits.hpp"
#include "core/doc/sketch_edits.hpp"
#include "project.hpp"

namespace articula::py {

namespace {
using pb::arg;

// A point given as (x, y) or (x, y, z), metres.
Vec3 point_of(const std::vector<double>& p) {
  if (p.size() != 2 && p.size() != 3) throw std::invalid_argument("a point is (x, y) or (x, y, z)");
  return Vec3(p[0], p[1], p.size() == 3 ? p[2] : 0.0);
}

// "ground" (or None) is -1, else the body's index.
int body_or_ground(const MechanismSpec& spec, const std::optional<std::string>& name) {
  if (!name || *name == "ground") return -1;
  return body_index(spec, *name);
}

std::string joint_pointer(int j) {
  return "/joints/" + std::to_string(j);
}

// Replace joint `name` after changing it with `change`, as one checked edit.
template <class Change>
void edit_joint(Project& p, const std::string& name, Change change, const std::string& label) {
  const int j = joint_index(p.spec(), name);
  JointSpec js = p.spec().joints[j];
  change(js);
  p.apply_checked(joint_pointer(j), [&] {
    Edit e = set_joint(p.doc(), j, std::move(js));
    e.label = label;
    return e;
  });
}

void bind_points(pb::class_<Project>& c) {
  c.def(
      "add_ground_point",
      [](Project& p, const std::vector<double>& at) {
        p.apply(add_ground_point(p.doc(), point_of(at)));
      },
      arg("at"), "A ground pivot point at (x, y), m (the sketch's Ground pivot tool).");
  c.def(
      "remove_ground_point",
      [](Project& p, const std::vector<double>& at) {
        p.apply(remove_ground_point(p.doc(), point_of(at)));
      },
      arg("at"), "Remove the ground pivot point at (x, y).");
  c.def(
      "add_link",
      [](Project& p, const std::vector<std::vector<double>>& points,
         std::optional<std::vector<std::optional<std::string>>> attach) {
        std::vector<Vec3> pts;
        for (const auto& q : points) pts.push_back(point_of(q));
        std::vector<std::optional<Attachment>> at(pts.size());
        if (attach) {
          if (attach->size() != pts.size())
            throw std::invalid_argument("attach needs one entry per point");
          for (std::size_t i = 0; i < pts.size(); ++i)
            if ((*attach)[i]) at[i] = Attachment{body_or_ground(p.spec(), (*attach)[i])};
        }
        p.apply(add_link(p.doc(), pts, at));
        return p.spec().bodies.back().name;
      },
      arg("points"), arg("attach") = pb::none(),
      "A link through 2 (bar) or 3 (ternary) world points (x, y), as the Link tool draws it "
      "(aluminium bar 20 x 6 mm). attach[i] pins point i with a revolute joint to 'ground' or to "
      "a body by name; None leaves it free. Returns the new body's name.");
  c.def(
      "add_pin",
      [](Project& p, const std::string& a, const std::string& b, const std::vector<double>& at) {
        p.apply(add_pin(p.doc(), body_or_ground(p.spec(), a), body_or_ground(p.spec(), b),
                        point_of(at)));
      },
      arg("body_a"), arg("body_b"), arg("at"),
      "A revolute joint between two bodies (either may be 'ground') at world point (x, y).");
  c.def(
      "add_slider",
      [](Project& p, const std::string& guide, const std::vector<double>& at,
         const std::vector<double>& direction) {
        p.apply(add_slider(p.doc(), body_or_ground(p.spec(), guide), point_of(at),
                           point_of(direction)));
      },
      arg("guide"), arg("at"), arg("direction"),
      "A slider block at (x, y) on guide (a body or 'ground') moving along direction.");
  c.def(
      "move_point",
      [](Project& p, const std::vector<double>& from, const std::vector<double>& to) {
        p.apply(move_point(p.doc(), point_of(from), point_of(to)));
      },
      arg("from_"), arg("to"),
      "Move every sketch point at from_ to to (joint frames follow; links whose mass follows "
      "the sketch get new mass properties).");
}

void bind_drives(pb::class_<Project>& c) {
  c.def(
      "add_motor",
      [](Project& p, const std::string& joint) {
        const int j = joint_index(p.spec(), joint);
        if (p.spec().joints[j].drive)
          throw ProjectError(joint_pointer(j) + "/drive", "the joint already has a drive");
        std::shared_ptr<const Mechanism> mech;
        try {
          mech = p.mechanism();
        } catch (const std::exception&) {  // an incomplete sketch: start from 0, as the editor
        }
        p.apply_checked(joint_pointer(j), [&] { return toggle_motor(p.doc(), mech.get(), j); });
      },
      arg("joint"),
      "The Motor tool: drive a revolute joint at one turn per second (a slider: 50 mm sine "
      "stroke) from where it is assembled now.");
  c.def(
      "set_drive",
      [](Project& p, const std::string& joint, const std::string& expression,
         const std::string& kind, pb::object law) {
        DriveSpec d;
        d.kind = kind == "force" ? DriveSpec::Kind::Force : DriveSpec::Kind::Motion;
        if (kind != "motion" && kind != "force")
          throw std::invalid_argument("kind must be 'motion' or 'force'");
        d.expression = expression;
        if (!law.is_none()) d.law = from_python(law);
        edit_joint(
            p, joint, [&](JointSpec& j) { j.drive = d; }, "Set drive of " + joint);
      },
      arg("joint"), arg("expression") = "", arg("kind") = "motion", arg("law") = pb::none(),
      "Drive a joint: kind 'motion' prescribes q(t) = expression (e.g. '0.3 + 2*pi*t') or a "
      "motion-law dict (law=...); kind 'force' applies expression as force/torque in t.");
  c.def(
      "remove_drive",
      [](Project& p, const std::string& joint) {
        edit_joint(
            p, joint, [](JointSpec& j) { j.drive.reset(); }, "Remove drive of " + joint);
      },
      arg("joint"), "Remove the joint's drive.");
  c.def(
      "set_spring",
      [](Project& p, const std::string& joint, double k, double rest, double damping) {
        edit_joint(
            p, joint,
            [&](JointSpec& j) {
              j.spring = SpringSpec{k, rest, damping, {}};
            },
            "Set spring of " + joint);
      },
      arg("joint"), arg("stiffness") = 0.0, arg("rest") = 0.0, arg("damping") = 0.0,
      "A joint spring-damper: tau = -stiffness (q - rest) - damping qd.");
  c.def(
      "remove_spring",
      [](Project& p, const std::string& joint) {
        edit_joint(
            p, joint, [](JointSpec& j) { j.spring.reset(); }, "Remove spring of " + joint);
      },
      arg("joint"), "Remove the joint's spring.");
}

void bind_coupling_tools(pb::class_<Project>& c) {
  c.def(
      "add_coupling_from_radii",
      [](Project& p, const std::string& type, const std::string& a, const std::string& b, double ra,
         double rb) {
        const auto t = coupling_type_from_name(type);
        if (!t) throw std::invalid_argument("unknown coupling type '" + type + "'");
        const int n = static_cast<int>(p.spec().couplings.size());
        const int ja = joint_index(p.spec(), a), jb = joint_index(p.spec(), b);
        p.apply_checked("/couplings/" + std::to_string(n),
                        [&] { return add_coupling_from_radii(p.doc(), *t, ja, jb, ra, rb); });
        return p.spec().couplings.back().name;
      },
      arg("type"), arg("joint_a"), arg("joint_b"), arg("radius_a"), arg("radius_b"),
      "The Gear / Belt / Rack-and-pinion tools: a coupling from pitch radii (gear: ratio "
      "-rA/rB, belt: rA/rB, rack_pinion: rA m/rad). Returns its name (G1, B1, R1, ...).");
}
}  // namespace

void bind_project_sketch(pb::class_<Project>& c) {
  bind_points(c);
  bind_drives(c);
  bind_coupling_tools(c);
}

}  // namespace articula::py
