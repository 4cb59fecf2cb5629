#pragma once
// Joint limits and contacts in the project file (contract-additions-2 §2): reading with every
// problem named by JSON pointer, and writing back with unknown fields kept.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

// "limits" of a joint: object {lower, upper, restitution}; the joint must have 1 DoF.
LimitSpec read_limits(const nlohmann::json& j, const std::string& ptr, const Joint& joint);
// "friction" of a joint: object {coulomb, viscous}; the joint must have 1 DoF.
JointFrictionSpec read_joint_friction(const nlohmann::json& j, const std::string& ptr,
                                      const Joint& joint);
// One entry of "contacts"; `spec` holds the bodies read so far.
ContactSpec read_contact(const nlohmann::json& j, const std::string& ptr,
                         const MechanismSpec& spec);

nlohmann::ordered_json limits_json(const LimitSpec& l);
nlohmann::ordered_json joint_friction_json(const JointFrictionSpec& f);
nlohmann::ordered_json contact_json(const ContactSpec& c);

}  // namespace articula
