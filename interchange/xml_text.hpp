#pragma once
// Small helpers shared by the URDF, SDFormat and MJCF writers and readers: numbers that read back
// exactly, XML escaping, and the rotation conventions of those formats (URDF/SDF roll-pitch-yaw,
// MuJoCo quaternions [w x y z]).
#include <stdexcept>
#include <string>

#include "core/spatial/transform.hpp"
#include "core/spec/mechanism_spec.hpp"

namespace articula {

// A file in one of the exchange formats is invalid or cannot hold the mechanism. The message
// names the file and line (when known) and the element, e.g.
// "arm.urdf:12: <joint name='elbow'>: unknown type 'hinge'".
struct InterchangeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string num(double x);  // shortest text that reads back to the same double
std::string nums(const Vec3& v);
std::string xml_escape(const std::string& text);

// URDF/SDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll), fixed axes.
Vec3 rpy_of(const Mat3& R);
Mat3 rotation_of_rpy(const Vec3& rpy);
// A rotation whose third column is the unit vector `axis` (the joint frame of a joint about or
// along `axis`): the shortest rotation from z, so an axis along z gives the identity.
Mat3 rotation_z_to(const Vec3& axis);
// "w x y z" of a rotation matrix, w >= 0.
std::string quat_text(const Mat3& R);

// Pose of frame B in frame A (rotation R: B's axes in A; origin p) from ^B X_A, and back.
struct Pose {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  static Pose of(const Transform& X_BA) { return {X_BA.rotation(), X_BA.translation()}; }
  Transform transform() const { return Transform::from_pose(R, p); }
  Pose operator*(const Pose& o) const { return {R * o.R, p + R * o.p}; }  // A<-B, B<-C: A<-C
  Pose inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
};
// The project's form of a pose (the importers' joint frames, body poses and visuals).
PoseSpec pose_spec(const Pose& p);

}  // namespace articula
