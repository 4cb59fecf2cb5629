#pragma once
// Internal to the template generators: a mechanism drawn in world coordinates. Bodies are added
// with their world pose and mass properties in body coordinates; joints with their frames in the
// parent and child bodies. q0 is computed from the two frames' world poses (joint_coordinates), so
// it matches the sketch exactly when the sketch is reachable by the joint.
#include <map>
#include <string>

#include "core/spec/link_inertia.hpp"
#include "core/spec/templates.hpp"

namespace articula::detail {

using Iso = Eigen::Isometry3d;

Iso make_iso(const Vec3& p, const Mat3& R = Mat3::Identity());
Mat3 rot(const Vec3& axis, double angle);
// A rotation whose x axis is `x` and whose z axis is the part of `z_hint` perpendicular to x.
Mat3 frame_xz(const Vec3& x, const Vec3& z_hint);
PoseSpec to_pose(const Iso& X);

class SpecBuilder {
 public:
  explicit SpecBuilder(std::string name, const Vec3& gravity);
  // Mass properties are in body coordinates.
  BodySpec& body(const std::string& name, const Iso& world, const MassProperties& mp);
  JointSpec& joint(const std::string& name, const Joint& type, const std::string& parent,
                   const std::string& child, const Iso& parent_frame, const Iso& child_frame);
  // A joint whose frame is given in world coordinates at the sketched pose (parent and child
  // frames coincide there, so q0 is the joint's zero).
  JointSpec& joint_at(const std::string& name, const Joint& type, const std::string& parent,
                      const std::string& child, const Iso& world_frame);
  const Iso& world(const std::string& body) const;
  // Largest distance between a joint's parent and child frames after removing X_J(q0): zero when
  // the sketch closes every loop.
  double closure_error() const;
  MechanismSpec finish(double duration, const std::string& description);

 private:
  MechanismSpec spec_;
  std::map<std::string, Iso> world_;
};

// A motion drive "c + A*sin(2*pi*f*t + phase)" with c = q0 - A sin(phase): the value at t = 0 is
// q0.
DriveSpec sine_drive(double q0, double amplitude, double frequency, double phase = 0.0);
DriveSpec ramp_drive(double q0, double speed);

void check_positive(double value, const char* parameter);
void check_section(const BarSection& s, const char* parameter);
void check_material(const Material& m, const char* parameter);

}  // namespace articula::detail
