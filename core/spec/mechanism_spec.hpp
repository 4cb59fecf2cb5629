#pragma once
// The editable description of a mechanism, as in a project file (project-format-v1): bodies and
// joints by name, in file order, with every field the user wrote. It is compiled into an immutable
// Model (core/spec/compile.hpp). Unknown JSON fields are kept in `extra` so they survive a save.
#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/model/joint.hpp"

namespace articula {

// Placement of a frame: position and unit quaternion [w, x, y, z] of its axes.
struct PoseSpec {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  nlohmann::json extra = nlohmann::json::object();
  // ^{frame} X_{outer}: the Plücker transform from the enclosing frame to this one.
  Transform transform() const {
    return Transform::from_pose(orientation.toRotationMatrix(), position);
  }
  bool operator==(const PoseSpec& o) const {
    return position == o.position && orientation.coeffs() == o.orientation.coeffs() &&
           extra == o.extra;
  }
};

struct BodySpec {
  std::string name;
  double mass = 1.0;
  Vec3 com = Vec3::Zero();
  // [Ixx, Iyy, Izz, Ixy, Ixz, Iyz] about the centre of mass, body axes.
  std::array<double, 6> inertia{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  std::optional<PoseSpec> pose;  // as sketched, world coordinates
  nlohmann::json extra = nlohmann::json::object();
  Mat3 inertia_matrix() const;
  bool operator==(const BodySpec&) const = default;
};

struct DriveSpec {
  enum class Kind { Motion, Force };
  Kind kind = Kind::Motion;
  std::string expression;  // "q" for motion drives, "value" for force drives
  nlohmann::json law;      // a motion law object instead of "q" (core/sim/motion_law.hpp), or null
  nlohmann::json extra = nlohmann::json::object();
  // {"type": "unknown"} (contract-additions-2 §5): a force drive whose force the estimator finds;
  // simulated as the force drive "0". Last, so that {kind, expression, law, extra} stays valid.
  bool unknown = false;
  bool operator==(const DriveSpec&) const = default;
};

struct SpringSpec {
  double stiffness = 0.0;
  double rest = 0.0;
  double damping = 0.0;
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const SpringSpec&) const = default;
};

// End stops of a 1-DoF joint (contract-additions-2 §2): lower <= q <= upper (either may be
// absent), Newton's restitution coefficient e in [0, 1] at an impact on a bound.
struct LimitSpec {
  std::optional<double> lower, upper;
  double restitution = 0.0;
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const LimitSpec&) const = default;
};

// Friction in a 1-DoF joint (contract-additions-2 §2): Coulomb force of magnitude `coulomb`
// (N or N·m) with exact stick and slip, plus viscous `viscous` q̇.
struct JointFrictionSpec {
  double coulomb = 0.0, viscous = 0.0;
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const JointFrictionSpec&) const = default;
};

struct JointSpec {
  std::string name;
  Joint joint;                // type and pitch
  std::string parent, child;  // body names; "ground" is the fixed world
  PoseSpec parent_frame, child_frame;
  std::optional<std::vector<double>> q0, qd0;
  std::optional<DriveSpec> drive;
  std::optional<SpringSpec> spring;
  std::optional<LimitSpec> limits;
  std::optional<JointFrictionSpec> friction;
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const JointSpec&) const = default;
};

// A point-to-point spring-damper between two bodies (extension of format v1, "forces" array):
// tension F = stiffness (L - rest_length) + damping dL/dt along the line between the points.
struct ForceSpec {
  std::string name;
  std::string type = "spring_damper";
  std::string body1, body2;                           // body names; "ground" allowed
  Vec3 point1 = Vec3::Zero(), point2 = Vec3::Zero();  // in body coordinates
  double stiffness = 0.0, rest_length = 0.0, damping = 0.0;
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const ForceSpec&) const = default;
};

// A joint coupling (contract-additions-2 §1, "couplings" array): q_B - q_B(0) = ratio (q_A -
// q_A(0)) between two 1-DoF joints (tree or loop joints, by name). An ideal constraint: no work.
struct CouplingSpec {
  enum class Type { Gear, Belt, RackPinion, Linear };
  std::string name;
  Type type = Type::Linear;
  std::array<std::string, 2> joints;  // A, B
  double ratio = 1.0;                 // dq_B/dq_A; m/rad for rack_pinion (A revolute, B prismatic)
  std::optional<std::array<double, 2>> radii;  // pitch radii [rA, rB], for drawing (gear, belt)
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const CouplingSpec&) const = default;
};
// "gear", "belt", "rack_pinion", "linear".
const char* coupling_type_name(CouplingSpec::Type type);
std::optional<CouplingSpec::Type> coupling_type_from_name(const std::string& name);

// A sphere (radius >= 0; 0 is a point) fixed on `body` against a plane or a disc cam fixed on
// `surface_body` (contract-additions-2 §2, "contacts" array). Unilateral: the gap
// n . (p - s) - radius stays >= 0; impacts follow Newton's law with `restitution`.
struct ContactSpec {
  std::string name;
  std::string body;
  Vec3 point = Vec3::Zero();  // sphere centre, body coordinates
  double radius = 0.0;
  std::string surface_type = "plane";
  std::string surface_body = "ground";
  Vec3 surface_point = Vec3::Zero();    // on the plane, surface-body coordinates
  Vec3 surface_normal = Vec3(0, 1, 0);  // outward, surface-body coordinates
  // Cams (surface_type "cam"): the profile, an expression in theta or an array of radii
  // (core/sim/contact/cam_profile.hpp); surface_point is then the cam centre.
  nlohmann::json profile;
  // Slots (surface_type "slot", the Geneva drive): surface_point is the slot's mouth, the pin
  // (the sphere, its diameter the slot's width) runs in along `slot_direction` up to
  // `slot_length` (surface-body coordinates, metres).
  Vec3 slot_direction = Vec3(1, 0, 0);
  double slot_length = 0.0;
  double restitution = 0.0;
  double friction = 0.0;  // Coulomb coefficient μ
  nlohmann::json surface_extra = nlohmann::json::object();
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const ContactSpec&) const = default;
};

// A sensor on the mechanism (contract-additions-2 §5, "sensors" array): what it measures, with
// the standard deviation `sigma` (> 0, SI units) of its Gaussian noise. Values per reading:
// encoder the joint's nq coordinates; gyro the body's angular velocity in body axes (3);
// accelerometer the proper acceleration (gravity included, as a real one reads at rest +g up)
// of `point` in body axes (3); position the world position of `point` (3); load_cell one
// component of the joint's wrench (as the J.Fx..J.Mz CSV columns).
struct SensorSpec {
  enum class Type { Encoder, Gyro, Accelerometer, Position, LoadCell };
  std::string name;
  Type type = Type::Encoder;
  double sigma = 1.0;
  std::string joint;          // encoder, load_cell
  std::string body;           // gyro, accelerometer, position
  Vec3 point = Vec3::Zero();  // accelerometer, position: body coordinates
  int component = 0;          // load_cell: 0..5 = Fx, Fy, Fz, Mx, My, Mz
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const SensorSpec&) const = default;
};
// "encoder", "gyro", "accelerometer", "position", "load_cell".
const char* sensor_type_name(SensorSpec::Type type);
std::optional<SensorSpec::Type> sensor_type_from_name(const std::string& name);
// "Fx", "Fy", "Fz", "Mx", "My", "Mz": the load cell's components, in CSV column order.
const char* wrench_component_name(int component);

struct SimulationSpec {
  double duration = 5.0;
  double step = 0.001;
  std::string integrator = "rk4";
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const SimulationSpec&) const = default;
};

struct MechanismSpec {
  std::string name;
  Vec3 gravity{0.0, -9.81, 0.0};
  std::vector<BodySpec> bodies;
  std::vector<JointSpec> joints;
  std::vector<ForceSpec> forces;
  std::vector<CouplingSpec> couplings;
  std::vector<ContactSpec> contacts;
  std::vector<SensorSpec> sensors;
  std::optional<SimulationSpec> simulation;
  nlohmann::json extra = nlohmann::json::object();  // unknown top-level fields
  bool operator==(const MechanismSpec&) const = default;

  int body_index(const std::string& name) const;      // -1 if absent; "ground" is absent
  int joint_index(const std::string& name) const;     // -1 if absent
  int coupling_index(const std::string& name) const;  // -1 if absent
  // Per body: does a chain of joints (in either direction) connect it to ground? Format v1
  // requires it of every body; a sketch may hold links not pinned yet.
  std::vector<bool> grounded_bodies() const;
  bool has_floating_bodies() const;  // some body not connected to ground
};

}  // namespace articula
