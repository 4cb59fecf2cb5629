// The items of a mechanism description as Python value classes: Pose, Body, Drive, Spring,
// Joint, Force, Coupling. They are copies: change one, then hand it back to the project
// (Project.set_body(...), add_joint(...)) so the edit is checked and can be undone.
#include <pybind11/eigen.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "item_class.hpp"

namespace articula::py {

namespace {
using pb::arg;

void bind_pose(pb::module_& m) {
  pb::class_<PoseSpec> c(m, "Pose", "Placement of a frame: a position and a unit quaternion.");
  c.def(pb::init([](const Vec3& position, const std::array<double, 4>& q) {
          PoseSpec p;
          p.position = position;
          p.orientation = Quat(q[0], q[1], q[2], q[3]);
          return p;
        }),
        arg("position") = Vec3(Vec3::Zero()), arg("quaternion") = std::array<double, 4>{1, 0, 0, 0},
        "A pose from a position [x, y, z] (m) and a quaternion [w, x, y, z].");
  c.def_property(
      "position", [](const PoseSpec& p) { return Vec3(p.position); },
      [](PoseSpec& p, const Vec3& v) { p.position = v; }, "Position [x, y, z], m.");
  c.def_property(
      "quaternion",
      [](const PoseSpec& p) {
        const Quat& q = p.orientation;
        return std::array<double, 4>{q.w(), q.x(), q.y(), q.z()};
      },
      [](PoseSpec& p, const std::array<double, 4>& q) {
        p.orientation = Quat(q[0], q[1], q[2], q[3]);
      },
      "Orientation as a quaternion [w, x, y, z] (as written in the file).");
  c.def("__repr__", [](const PoseSpec& p) {
    const Quat& q = p.orientation;
    return pb::str("Pose(position=[{}, {}, {}], quaternion=[{}, {}, {}, {}])")
        .format(p.position.x(), p.position.y(), p.position.z(), q.w(), q.x(), q.y(), q.z());
  });
  add_item_common(c);
}

void bind_body(pb::module_& m) {
  pb::class_<BodySpec> c(m, "Body", "A rigid body: name and mass properties (SI units).");
  c.def(pb::init([](std::string name, double mass, const Vec3& com,
                    const std::array<double, 6>& inertia, std::optional<PoseSpec> pose) {
          BodySpec b;
          b.name = std::move(name);
          b.mass = mass;
          b.com = com;
          b.inertia = inertia;
          b.pose = std::move(pose);
          return b;
        }),
        arg("name"), arg("mass") = 1.0, arg("com") = Vec3(Vec3::Zero()),
        arg("inertia") = std::array<double, 6>{0, 0, 0, 0, 0, 0}, arg("pose") = pb::none(),
        "A body; inertia is [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] about the centre of mass, body axes; "
        "pose is where it was sketched (world), used as the assembly's starting point.");
  c.def_readwrite("name", &BodySpec::name, "Unique name.");
  c.def_readwrite("mass", &BodySpec::mass, "Mass, kg.");
  c.def_property(
      "com", [](const BodySpec& b) { return Vec3(b.com); },
      [](BodySpec& b, const Vec3& v) { b.com = v; }, "Centre of mass in body coordinates, m.");
  c.def_readwrite("inertia", &BodySpec::inertia,
                  "[Ixx, Iyy, Izz, Ixy, Ixz, Iyz] about the centre of mass, body axes, kg m^2.");
  c.def_readwrite("pose", &BodySpec::pose, "Sketched world pose (a Pose) or None.");
  c.def("__repr__", [](const BodySpec& b) {
    return pb::str("Body(name={!r}, mass={})").format(b.name, b.mass);
  });
  add_item_common(c);
}

void bind_drive_spring(pb::module_& m) {
  pb::class_<DriveSpec> d(
      m, "Drive", "A joint drive: a prescribed motion q(t) or a prescribed force value(t).");
  d.def(pb::init([](const std::string& kind, std::string expression, pb::object law) {
          DriveSpec s;
          if (kind != "motion" && kind != "force")
            throw std::invalid_argument("drive kind must be 'motion' or 'force'");
          s.kind = kind == "motion" ? DriveSpec::Kind::Motion : DriveSpec::Kind::Force;
          s.expression = std::move(expression);
          if (!law.is_none()) s.law = from_python(law);
          return s;
        }),
        arg("kind") = "motion", arg("expression") = "", arg("law") = pb::none(),
        "kind 'motion' (expression is q(t), e.g. '0.3 + 2*pi*t') or 'force' (expression is the "
        "force or torque in t). law: a motion-law dict (docs/format-extensions.md) instead of an "
        "expression.");
  d.def_property(
      "kind",
      [](const DriveSpec& s) { return s.kind == DriveSpec::Kind::Motion ? "motion" : "force"; },
      [](DriveSpec& s, const std::string& k) {
        if (k != "motion" && k != "force")
          throw std::invalid_argument("drive kind must be 'motion' or 'force'");
        s.kind = k == "motion" ? DriveSpec::Kind::Motion : DriveSpec::Kind::Force;
      },
      "'motion' or 'force'.");
  d.def_readwrite("expression", &DriveSpec::expression, "Expression in t (q, or the force).");
  d.def_property(
      "law", [](const DriveSpec& s) { return to_python(s.law); },
      [](DriveSpec& s, pb::handle v) { s.law = from_python(v); },
      "Motion law as a dict, or None when the expression is used.");
  d.def("__repr__", [](const DriveSpec& s) {
    return pb::str("Drive(kind={!r}, expression={!r})")
        .format(s.kind == DriveSpec::Kind::Motion ? "motion" : "force", s.expression);
  });
  add_item_common(d);

  pb::class_<SpringSpec> s(m, "Spring", "A joint spring and damper: tau = -k (q - rest) - c qd.");
  s.def(pb::init([](double k, double rest, double c) {
          return SpringSpec{k, rest, c, {}};
        }),
        arg("stiffness") = 0.0, arg("rest") = 0.0, arg("damping") = 0.0);
  s.def_readwrite("stiffness", &SpringSpec::stiffness, "N/m or N m/rad.");
  s.def_readwrite("rest", &SpringSpec::rest, "Rest position (m or rad).");
  s.def_readwrite("damping", &SpringSpec::damping, "N s/m or N m s/rad.");
  s.def("__repr__", [](const SpringSpec& x) {
    return pb::str("Spring(stiffness={}, rest={}, damping={})")
        .format(x.stiffness, x.rest, x.damping);
  });
  add_item_common(s);
}
}  // namespace

void bind_spec(pb::module_& m) {
  bind_pose(m);
  bind_body(m);
  bind_drive_spring(m);
  bind_joint_items(m);
}

}  // namespace articula::py
