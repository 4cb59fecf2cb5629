#pragma once
// Sensors in the project file (contract-additions-2 §5, top-level "sensors"): reading with every
// problem named by JSON pointer, and writing back with unknown fields kept.
#include <nlohmann/json.hpp>
#include <string>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

// One entry of "sensors"; `spec` holds the bodies and joints it may name.
SensorSpec read_sensor(const nlohmann::json& j, const std::string& ptr, const MechanismSpec& spec);
nlohmann::ordered_json sensor_json(const SensorSpec& s);

}  // namespace articula
