#include "core/doc/spatial_edits.hpp"

#include <cmath>
#include <stdexcept>

#include "core/doc/sketch_edits.hpp"
#include "core/doc/sketch_geometry.hpp"

namespace articula {

namespace {

const char* stem_of(JointType type) {
  switch (type) {
    case JointType::Revolute:
      return "J";
    case JointType::Prismatic:
      return "P";
    case JointType::Spherical:
      return "S";
    case JointType::Universal:
      return "U";
    default:
      throw std::invalid_argument("joint: only revolute, prismatic, spherical, universal");
  }
}

Mat3 rotation_of(const MechanismSpec& spec, int body) {
  if (body < 0 || !spec.bodies.at(body).pose) return Mat3::Identity();
  return spec.bodies[body].pose->orientation.toRotationMatrix();
}

// The joint between `j.body` (parent) and `child` at world `at`, in the state `spec` (which holds
// both bodies): both joint frames coincide there, so q = 0 is the sketched configuration.
JointSpec joint_at(const MechanismSpec& spec, const SpatialJoint& j, int child, const Vec3& at) {
  if (j.body == child) throw std::invalid_argument("a joint joins two different bodies");
  if (!at.allFinite()) throw std::invalid_argument("joint point: must be finite");
  const Mat3 F = joint_frame(j.axis, j.across);
  JointSpec s;
  s.name = unique_name(spec, stem_of(j.joint.type));
  s.joint = j.joint;
  s.parent = j.body < 0 ? std::string("ground") : spec.bodies.at(j.body).name;
  s.child = child < 0 ? std::string("ground") : spec.bodies.at(child).name;
  s.parent_frame.position = to_local(spec, j.body, at);
  s.parent_frame.orientation = Quat(rotation_of(spec, j.body).transpose() * F).normalized();
  s.child_frame.position = to_local(spec, child, at);
  s.child_frame.orientation = Quat(rotation_of(spec, child).transpose() * F).normalized();
  return s;
}

}  // namespace

Mat3 joint_frame(const Vec3& axis, const Vec3& across) {
  if (!axis.allFinite() || axis.norm() < 1e-12)
    throw std::invalid_argument("joint axis: must be a finite, non-zero direction");
  const Vec3 z = axis.normalized();
  Vec3 y = z.cross(across.allFinite() ? across : Vec3::Zero());
  if (y.norm() < 1e-6) {  // parallel: the world axis least aligned with z
    Vec3 w = Vec3::Zero();
    int k = 0;
    z.cwiseAbs().minCoeff(&k);
    w[k] = 1.0;
    y = z.cross(w);
  }
  y.normalize();
  Mat3 F;
  F.col(0) = y.cross(z);
  F.col(1) = y;
  F.col(2) = z;
  return F;
}

Edit add_spatial_link(EditableMechanism& doc, const Vec3& a, const Vec3& b, double diameter,
                      const std::optional<SpatialJoint>& at_a,
                      const std::optional<SpatialJoint>& at_b) {
  if (!a.allFinite() || !b.allFinite()) throw std::invalid_argument("link ends: must be finite");
  const double length = (b - a).norm();
  if (!(length > 1e-9)) throw std::invalid_argument("the ends of a link must be distinct");
  if (!(diameter > 0.0) || !std::isfinite(diameter) || diameter > length)
    throw std::invalid_argument("link diameter: must be positive and at most the link's length");
  BodySpec body;
  body.name = unique_name(doc.spec(), "link");
  body.pose = PoseSpec{};
  body.pose->position = a;
  body.pose->orientation = Quat::FromTwoVectors(Vec3::UnitX(), b - a).normalized();
  body.extra["sketch"]["mass"] = "bars";
  body.extra["sketch"]["diameter"] = diameter;
  body.extra["sketch"]["points"] = nlohmann::json::array({{0.0, 0.0, 0.0}, {length, 0.0, 0.0}});
  bar_mass_properties({Vec3::Zero(), Vec3(length, 0, 0)}, LinkStock::of(body), body);
  MechanismSpec after = doc.spec();  // the joints' frames see the new body
  after.bodies.push_back(body);
  const int me = static_cast<int>(after.bodies.size()) - 1;
  std::vector<JointSpec> joints;
  for (const auto& [end, at] : {std::pair{&at_a, a}, std::pair{&at_b, b}}) {
    if (!*end) continue;
    joints.push_back(joint_at(after, **end, me, at));
    after.joints.push_back(joints.back());  // unique names for the second end
  }
  Edit e{"Add link", {insert_body(doc, body)}};
  for (const JointSpec& j : joints) e.changes.push_back(insert_joint(doc, j));
  return e;
}

Edit add_spatial_joint(EditableMechanism& doc, const SpatialJoint& parent, int child,
                       const Vec3& at) {
  const MechanismSpec& spec = doc.spec();
  const int n = static_cast<int>(spec.bodies.size());
  if (parent.body < -1 || parent.body >= n || child < -1 || child >= n)
    throw std::invalid_argument("joint: no such body");
  const JointSpec j = joint_at(spec, parent, child, at);
  return {"Add " + std::string(joint_type_name(j.joint.type)) + " joint " + j.name,
          {insert_joint(doc, j)}};
}

}  // namespace articula
