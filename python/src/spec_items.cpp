// Joint, Force and Coupling as Python value classes (see spec_bindings.cpp).
#include <pybind11/eigen.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "item_class.hpp"

namespace articula::py {

namespace {
using pb::arg;

Joint joint_of(const std::string& type, double pitch) {
  const auto t = joint_type_from_name(type);
  if (!t) throw std::invalid_argument("unknown joint type '" + type + "'");
  Joint j{*t};
  if (*t == JointType::Helical) j.pitch = pitch;
  return j;
}

void bind_joint(pb::module_& m) {
  pb::class_<JointSpec> c(m, "Joint",
                          "A joint between a parent and a child body ('ground' is the world). "
                          "It moves about/along the z axis of its frames.");
  c.def(
      pb::init([](std::string name, const std::string& type, std::string parent, std::string child,
                  PoseSpec pf, PoseSpec cf, std::optional<std::vector<double>> q0,
                  std::optional<std::vector<double>> qd0, std::optional<DriveSpec> drive,
                  std::optional<SpringSpec> spring, double pitch) {
        JointSpec j;
        j.name = std::move(name);
        j.joint = joint_of(type, pitch);
        j.parent = std::move(parent);
        j.child = std::move(child);
        j.parent_frame = std::move(pf);
        j.child_frame = std::move(cf);
        j.q0 = std::move(q0);
        j.qd0 = std::move(qd0);
        j.drive = std::move(drive);
        j.spring = std::move(spring);
        return j;
      }),
      arg("name"), arg("type"), arg("parent"), arg("child"), arg("parent_frame") = PoseSpec{},
      arg("child_frame") = PoseSpec{}, arg("q0") = pb::none(), arg("qd0") = pb::none(),
      arg("drive") = pb::none(), arg("spring") = pb::none(), arg("pitch") = 0.0,
      "type: revolute, prismatic, helical (with pitch, m/rad), cylindrical, universal, "
      "spherical, planar, free or fixed. parent_frame and child_frame place the joint frame in "
      "the parent's and the child's body coordinates.");
  c.def_readwrite("name", &JointSpec::name, "Unique name.");
  c.def_property(
      "type", [](const JointSpec& j) { return std::string(joint_type_name(j.joint.type)); },
      [](JointSpec& j, const std::string& t) { j.joint = joint_of(t, j.joint.pitch); },
      "Joint type name ('revolute', ...).");
  c.def_property(
      "pitch", [](const JointSpec& j) { return j.joint.pitch; },
      [](JointSpec& j, double p) { j.joint.pitch = p; }, "Helical pitch, m/rad.");
  c.def_property_readonly(
      "nq", [](const JointSpec& j) { return j.joint.nq(); }, "Number of position coordinates.");
  c.def_property_readonly(
      "nv", [](const JointSpec& j) { return j.joint.nv(); },
      "Number of velocity coordinates (degrees of freedom).");
  c.def_readwrite("parent", &JointSpec::parent, "Parent body name ('ground' for the world).");
  c.def_readwrite("child", &JointSpec::child, "Child body name.");
  c.def_readwrite("parent_frame", &JointSpec::parent_frame, "Joint frame in the parent (Pose).");
  c.def_readwrite("child_frame", &JointSpec::child_frame, "Joint frame in the child (Pose).");
  c.def_readwrite("q0", &JointSpec::q0, "Initial coordinates (list) or None.");
  c.def_readwrite("qd0", &JointSpec::qd0, "Initial velocities (list) or None.");
  c.def_readwrite("drive", &JointSpec::drive, "Drive or None.");
  c.def_readwrite("spring", &JointSpec::spring, "Spring or None.");
  c.def("__repr__", [](const JointSpec& j) {
    return pb::str("Joint(name={!r}, type={!r}, parent={!r}, child={!r})")
        .format(j.name, std::string(joint_type_name(j.joint.type)), j.parent, j.child);
  });
  add_item_common(c);
}

void bind_force(pb::module_& m) {
  pb::class_<ForceSpec> c(m, "Force",
                          "A point-to-point spring-damper: tension = stiffness (L - rest_length) "
                          "+ damping dL/dt along the line between the two points.");
  c.def(pb::init([](std::string name, std::string b1, std::string b2, const Vec3& p1,
                    const Vec3& p2, double k, double rest, double c) {
          ForceSpec f;
          f.name = std::move(name);
          f.body1 = std::move(b1);
          f.body2 = std::move(b2);
          f.point1 = p1;
          f.point2 = p2;
          f.stiffness = k;
          f.rest_length = rest;
          f.damping = c;
          return f;
        }),
        arg("name"), arg("body1"), arg("body2"), arg("point1") = Vec3(Vec3::Zero()),
        arg("point2") = Vec3(Vec3::Zero()), arg("stiffness") = 0.0, arg("rest_length") = 0.0,
        arg("damping") = 0.0, "Points are in the bodies' coordinates; 'ground' is allowed.");
  c.def_readwrite("name", &ForceSpec::name, "Unique name among the forces.");
  c.def_readwrite("type", &ForceSpec::type, "'spring_damper'.");
  c.def_readwrite("body1", &ForceSpec::body1, "First body's name ('ground' allowed).");
  c.def_readwrite("body2", &ForceSpec::body2, "Second body's name ('ground' allowed).");
  c.def_property(
      "point1", [](const ForceSpec& f) { return Vec3(f.point1); },
      [](ForceSpec& f, const Vec3& v) { f.point1 = v; }, "Point on body1, its coordinates, m.");
  c.def_property(
      "point2", [](const ForceSpec& f) { return Vec3(f.point2); },
      [](ForceSpec& f, const Vec3& v) { f.point2 = v; }, "Point on body2, its coordinates, m.");
  c.def_readwrite("stiffness", &ForceSpec::stiffness, "N/m.");
  c.def_readwrite("rest_length", &ForceSpec::rest_length, "m.");
  c.def_readwrite("damping", &ForceSpec::damping, "N s/m.");
  c.def("__repr__", [](const ForceSpec& f) {
    return pb::str("Force(name={!r}, body1={!r}, body2={!r}, stiffness={})")
        .format(f.name, f.body1, f.body2, f.stiffness);
  });
  add_item_common(c);
}

CouplingSpec::Type coupling_type_of(const std::string& name) {
  const auto t = coupling_type_from_name(name);
  if (!t) throw std::invalid_argument("unknown coupling type '" + name + "'");
  return *t;
}

void bind_coupling(pb::module_& m) {
  pb::class_<CouplingSpec> c(m, "Coupling",
                             "A joint coupling q_B - q_B(0) = ratio (q_A - q_A(0)) between two "
                             "1-DoF joints (contract-additions-2 §1).");
  c.def(pb::init([](std::string name, const std::string& type, std::array<std::string, 2> joints,
                    double ratio, std::optional<std::array<double, 2>> radii) {
          CouplingSpec s;
          s.name = std::move(name);
          s.type = coupling_type_of(type);
          s.joints = std::move(joints);
          s.ratio = ratio;
          s.radii = radii;
          return s;
        }),
        arg("name"), arg("type"), arg("joints"), arg("ratio") = 1.0, arg("radii") = pb::none(),
        "type: gear, belt, rack_pinion or linear; joints: [A, B] names; radii: [rA, rB] pitch "
        "radii for drawing (gear/belt: ratio must equal -rA/rB or rA/rB).");
  c.def_readwrite("name", &CouplingSpec::name, "Unique name (G1, B1, R1, ... from the tools).");
  c.def_property(
      "type", [](const CouplingSpec& s) { return std::string(coupling_type_name(s.type)); },
      [](CouplingSpec& s, const std::string& t) { s.type = coupling_type_of(t); },
      "'gear', 'belt', 'rack_pinion' or 'linear'.");
  c.def_readwrite("joints", &CouplingSpec::joints, "[A, B] joint names.");
  c.def_readwrite("ratio", &CouplingSpec::ratio, "dq_B/dq_A (m/rad for rack_pinion).");
  c.def_readwrite("radii", &CouplingSpec::radii, "[rA, rB] pitch radii, m, or None.");
  c.def("__repr__", [](const CouplingSpec& s) {
    return pb::str("Coupling(name={!r}, type={!r}, joints=[{!r}, {!r}], ratio={})")
        .format(s.name, std::string(coupling_type_name(s.type)), s.joints[0], s.joints[1], s.ratio);
  });
  add_item_common(c);
}
}  // namespace

void bind_joint_items(pb::module_& m) {
  bind_joint(m);
  bind_force(m);
  bind_coupling(m);
}

}  // namespace articula::py
