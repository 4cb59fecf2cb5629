#pragma once
// Builders for the small hand-made mechanisms of the contact, friction and coupling tests: a body
// with an isotropic inertia, a joint between two named bodies, and one body on one joint from the
// ground under gravity -g y. Header-only: each is a few assignments.
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula::test {

// A body of mass m (kg) with its centre of mass at com (body frame, m) and the rotational inertia
// diag(I, I, I) about it (kg m^2).
inline BodySpec isotropic_body(const std::string& name, double m, double I,
                               const Vec3& com = Vec3::Zero()) {
  BodySpec b;
  b.name = name;
  b.mass = m;
  b.com = com;
  b.inertia = {I, I, I, 0, 0, 0};
  return b;
}

// A joint of the given type from parent to child, with identity frames and, when given, the
// initial position and rate (the joint's own coordinates).
inline JointSpec joint_between(const std::string& name, const Joint& type,
                               const std::string& parent, const std::string& child,
                               std::vector<double> q0 = {}, std::vector<double> qd0 = {}) {
  JointSpec j;
  j.name = name;
  j.joint = type;
  j.parent = parent;
  j.child = child;
  if (!q0.empty()) j.q0 = std::move(q0);
  if (!qd0.empty()) j.qd0 = std::move(qd0);
  return j;
}

// A prismatic joint from the ground whose axis (the joint's z) points up, world +y: q is the
// height of the child's origin, starting at q0.
inline JointSpec vertical_slider(const std::string& name, const std::string& child, double q0) {
  JointSpec j = joint_between(name, Joint::prismatic(), "ground", child, {q0});
  j.parent_frame.orientation = Quat(Eigen::AngleAxisd(-std::numbers::pi / 2, Vec3::UnitX()));
  return j;
}

// The mechanism `name` made of body b on joint j (whose parent is the ground), gravity g down -y.
inline MechanismSpec one_body_on(const std::string& name, BodySpec b, JointSpec j,
                                 double g = 9.81) {
  MechanismSpec s;
  s.name = name;
  s.gravity = Vec3(0, -g, 0);
  s.bodies.push_back(std::move(b));
  s.joints.push_back(std::move(j));
  return s;
}

}  // namespace articula::test
