#include "core/spec/mechanism_spec.hpp"

#include <algorithm>
#include <array>

namespace articula {

Mat3 BodySpec::inertia_matrix() const {
  const auto& I = inertia;  // [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]
  Mat3 m;
  m << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
  return m;
}

int MechanismSpec::body_index(const std::string& name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == name) return static_cast<int>(i);
  return -1;
}

int MechanismSpec::joint_index(const std::string& name) const {
  for (std::size_t i = 0; i < joints.size(); ++i)
    if (joints[i].name == name) return static_cast<int>(i);
  return -1;
}

int MechanismSpec::coupling_index(const std::string& name) const {
  for (std::size_t i = 0; i < couplings.size(); ++i)
    if (couplings[i].name == name) return static_cast<int>(i);
  return -1;
}

const char* coupling_type_name(CouplingSpec::Type type) {
  switch (type) {
    case CouplingSpec::Type::Gear:
      return "gear";
    case CouplingSpec::Type::Belt:
      return "belt";
    case CouplingSpec::Type::RackPinion:
      return "rack_pinion";
    case CouplingSpec::Type::Linear:
      return "linear";
  }
  return "linear";
}

std::optional<CouplingSpec::Type> coupling_type_from_name(const std::string& name) {
  for (auto t : {CouplingSpec::Type::Gear, CouplingSpec::Type::Belt, CouplingSpec::Type::RackPinion,
                 CouplingSpec::Type::Linear})
    if (name == coupling_type_name(t)) return t;
  return std::nullopt;
}

std::vector<bool> MechanismSpec::grounded_bodies() const {
  std::vector<bool> reached(bodies.size(), false);
  for (bool grew = true; grew;) {  // a fixed point; joints may be listed in any order
    grew = false;
    for (const JointSpec& js : joints) {
      const int p = body_index(js.parent), c = body_index(js.child);
      const bool p_in = p < 0 || reached[p], c_in = c < 0 || reached[c];
      if (p_in != c_in) {
        reached[p_in ? c : p] = true;
        grew = true;
      }
    }
  }
  return reached;
}

bool MechanismSpec::has_floating_bodies() const {
  const std::vector<bool> grounded = grounded_bodies();
  return std::find(grounded.begin(), grounded.end(), false) != grounded.end();
}

namespace {
constexpr std::array<const char*, 5> kSensorTypes{"encoder", "gyro", "accelerometer", "position",
                                                  "load_cell"};
constexpr std::array<const char*, 6> kWrenchComponents{"Fx", "Fy", "Fz", "Mx", "My", "Mz"};
}  // namespace

const char* sensor_type_name(SensorSpec::Type type) {
  return kSensorTypes[static_cast<std::size_t>(type)];
}

std::optional<SensorSpec::Type> sensor_type_from_name(const std::string& name) {
  for (std::size_t i = 0; i < kSensorTypes.size(); ++i)
    if (name == kSensorTypes[i]) return static_cast<SensorSpec::Type>(i);
  return std::nullopt;
}

const char* wrench_component_name(int component) {
  return kWrenchComponents[static_cast<std::size_t>(component)];
}

}  // namespace articula
