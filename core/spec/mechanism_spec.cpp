#include "core/spec/mechanism_spec.hpp"

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

}  // namespace articula
