#include "core/doc/spatial_edits.hpp"

#include <cmath>
#include <limits>
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

namespace {

// The body frame of a drawn outline: at the first point, x towards the second, z normal to the
// first three (two points: the shortest rotation taking x onto the link).
Quat outline_orientation(const std::vector<Vec3>& p) {
  const Vec3 x = (p[1] - p[0]).normalized();
  if (p.size() == 2) return Quat::FromTwoVectors(Vec3::UnitX(), x).normalized();
  const Vec3 n = x.cross(p[2] - p[0]);
  if (!(n.norm() > 1e-9 * (p[2] - p[0]).norm()))
    throw std::invalid_argument("plate points: the first three are collinear");
  Mat3 R;
  R.col(0) = x;
  R.col(2) = n.normalized();
  R.col(1) = R.col(2).cross(x);
  return Quat(R).normalized();
}

// A body of round bars through `points` (one bar, or a closed outline), point i joined as at[i].
Edit spatial_body(EditableMechanism& doc, const std::vector<Vec3>& points, double diameter,
                  const std::vector<std::optional<SpatialJoint>>& at, const char* stem,
                  const char* label) {
  double shortest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) throw std::invalid_argument("points: must be finite");
    const std::size_t k = (i + 1) % points.size();
    if (points.size() == 2 && k == 0) break;
    shortest = std::min(shortest, (points[k] - points[i]).norm());
  }
  if (!(shortest > 1e-9))
    throw std::invalid_argument(points.size() == 2 ? "the ends of a link must be distinct"
                                                   : "plate points: neighbours must be distinct");
  if (!(diameter > 0.0) || !std::isfinite(diameter) || diameter > shortest)
    throw std::invalid_argument("link diameter: must be positive and at most the link's length");
  BodySpec body;
  body.name = unique_name(doc.spec(), stem);
  body.pose = PoseSpec{};
  body.pose->position = points[0];
  body.pose->orientation = outline_orientation(points);
  MechanismSpec after = doc.spec();  // the joints' frames see the new body
  after.bodies.push_back(body);
  const int me = static_cast<int>(after.bodies.size()) - 1;
  nlohmann::json local = nlohmann::json::array();
  std::vector<Vec3> outline;
  for (const Vec3& p : points) {
    outline.push_back(to_local(after, me, p));
    local.push_back({outline.back().x(), outline.back().y(), outline.back().z()});
  }
  body.extra["sketch"] = {{"mass", "bars"}, {"diameter", diameter}, {"points", local}};
  bar_mass_properties(outline, LinkStock::of(body), body);
  after.bodies[me] = body;
  Edit e{label, {insert_body(doc, body)}};
  for (std::size_t i = 0; i < points.size() && i < at.size(); ++i) {
    if (!at[i]) continue;
    const JointSpec j = joint_at(after, *at[i], me, points[i]);
    after.joints.push_back(j);  // unique names for the next one
    e.changes.push_back(insert_joint(doc, j));
  }
  return e;
}

}  // namespace

Edit add_spatial_link(EditableMechanism& doc, const Vec3& a, const Vec3& b, double diameter,
                      const std::optional<SpatialJoint>& at_a,
                      const std::optional<SpatialJoint>& at_b) {
  return spatial_body(doc, {a, b}, diameter, {at_a, at_b}, "link", "Add link");
}

Edit add_spatial_plate(EditableMechanism& doc, const std::vector<Vec3>& points, double diameter,
                       const std::vector<std::optional<SpatialJoint>>& at) {
  if (points.size() < 3) throw std::invalid_argument("a plate has three or more points");
  return spatial_body(doc, points, diameter, at, "plate", "Add plate");
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

namespace {
void check_move(const RigidMove& move) {
  if (!move.pivot.allFinite() || !move.delta.allFinite() || !move.rotation.allFinite())
    throw std::invalid_argument("move: pivot, rotation and translation must be finite");
  if ((move.rotation.transpose() * move.rotation - Mat3::Identity()).norm() > 1e-9 ||
      move.rotation.determinant() < 0)
    throw std::invalid_argument("move: the rotation must be a proper rotation matrix");
}

// A frame on `body` (local pose) moved rigidly in the world, back in the body's coordinates.
PoseSpec moved_frame(const MechanismSpec& spec, int body, const PoseSpec& frame,
                     const RigidMove& move) {
  const Mat3 R = rotation_of(spec, body);
  PoseSpec out;
  out.position = to_local(spec, body, move.apply(to_world(spec, body, frame.position)));
  out.orientation = frame.orientation;  // a pure translation keeps it to the last bit
  if (move.rotation != Mat3::Identity())
    out.orientation =
        Quat(R.transpose() * move.rotation * R * frame.orientation.toRotationMatrix()).normalized();
  return out;
}
}  // namespace

Edit move_joint_frames(const EditableMechanism& doc, int joint, const RigidMove& move) {
  const MechanismSpec& spec = doc.spec();
  if (joint < 0 || joint >= static_cast<int>(spec.joints.size()))
    throw std::invalid_argument("joint: no joint " + std::to_string(joint));
  check_move(move);
  JointSpec j = spec.joints[joint];
  j.parent_frame = moved_frame(spec, spec.body_index(j.parent), j.parent_frame, move);
  j.child_frame = moved_frame(spec, spec.body_index(j.child), j.child_frame, move);
  return set_joint(doc, joint, j);
}

Edit move_body_pose(const EditableMechanism& doc, int body, const RigidMove& move) {
  const MechanismSpec& spec = doc.spec();
  if (body < 0 || body >= static_cast<int>(spec.bodies.size()))
    throw std::invalid_argument("body: no body " + std::to_string(body));
  check_move(move);
  BodySpec b = spec.bodies[body];
  const PoseSpec pose = b.pose.value_or(PoseSpec{});
  PoseSpec moved;
  moved.position = move.apply(pose.position);
  moved.orientation = pose.orientation;
  if (move.rotation != Mat3::Identity())
    moved.orientation = Quat(move.rotation * pose.orientation.toRotationMatrix()).normalized();
  b.pose = moved;
  return set_body(doc, body, b);
}

}  // namespace articula
