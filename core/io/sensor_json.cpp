#include "core/io/sensor_json.hpp"

#include "core/io/json_read.hpp"

namespace articula {

using namespace json_read;
using ojson = nlohmann::ordered_json;

namespace {
using Type = SensorSpec::Type;

std::string body_name(const json& j, const std::string& ptr, const MechanismSpec& spec) {
  const std::string name = name_value(required(j, ptr, "body"), at(ptr, "body"));
  if (spec.body_index(name) < 0)
    fail(at(ptr, "body"), "unknown body '" + name + "'; a sensor sits on a body of the file");
  return name;
}

std::string joint_name(const json& j, const std::string& ptr, const MechanismSpec& spec) {
  const std::string name = name_value(required(j, ptr, "joint"), at(ptr, "joint"));
  if (spec.joint_index(name) < 0) fail(at(ptr, "joint"), "unknown joint '" + name + "'");
  return name;
}

int component(const json& j, const std::string& ptr) {
  const std::string c = string_value(required(j, ptr, "component"), at(ptr, "component"));
  for (int k = 0; k < 6; ++k)
    if (c == wrench_component_name(k)) return k;
  fail(at(ptr, "component"),
       "unknown component '" + c + "'; expected one of Fx, Fy, Fz, Mx, My, Mz");
}

// The fields of each type; a field of another type is kept as unknown (extra), like any other.
void read_type_fields(const json& j, const std::string& ptr, const MechanismSpec& spec,
                      SensorSpec& s) {
  switch (s.type) {
    case Type::Encoder:
      s.joint = joint_name(j, ptr, spec);
      if (spec.joints[spec.joint_index(s.joint)].joint.nq() == 0)
        fail(at(ptr, "joint"), "joint '" + s.joint + "' is fixed: an encoder reads nothing");
      break;
    case Type::LoadCell:
      s.joint = joint_name(j, ptr, spec);
      s.component = component(j, ptr);
      break;
    case Type::Gyro:
      s.body = body_name(j, ptr, spec);
      break;
    case Type::Accelerometer:
    case Type::Position:
      s.body = body_name(j, ptr, spec);
      if (const json* p = find(j, "point")) s.point = vec3(*p, at(ptr, "point"));
      break;
  }
}
}  // namespace

SensorSpec read_sensor(const json& j, const std::string& ptr, const MechanismSpec& spec) {
  expect_object(j, ptr);
  SensorSpec s;
  s.name = name_value(required(j, ptr, "name"), at(ptr, "name"));
  // The name heads measurement CSV columns ("<name>" or "<name>[i]") next to the time "t".
  if (s.name == "t" || s.name.find_first_of(",\"[]\r\n") != std::string::npos)
    fail(at(ptr, "name"), "sensor name '" + s.name +
                              "' cannot head a CSV column: not \"t\", and no comma, quote, "
                              "bracket or line break");
  const std::string type = string_value(required(j, ptr, "type"), at(ptr, "type"));
  const auto t = sensor_type_from_name(type);
  if (!t)
    fail(at(ptr, "type"), "unknown sensor type '" + type +
                              "'; expected one of: encoder, gyro, accelerometer, position, "
                              "load_cell");
  s.type = *t;
  // σ = 0 would make a measurement an exact constraint: the estimator's weights are 1/σ.
  s.sigma = positive(required(j, ptr, "sigma"), at(ptr, "sigma"));
  read_type_fields(j, ptr, spec, s);
  const bool has_point = s.type == Type::Accelerometer || s.type == Type::Position;
  const bool on_joint = s.type == Type::Encoder || s.type == Type::LoadCell;
  if (has_point)
    s.extra = extra_fields(j, {"name", "type", "sigma", "body", "point"});
  else if (on_joint)
    s.extra = extra_fields(j, {"name", "type", "sigma", "joint", "component"});
  else
    s.extra = extra_fields(j, {"name", "type", "sigma", "body"});
  return s;
}

ojson sensor_json(const SensorSpec& s) {
  ojson out;
  out["name"] = s.name;
  out["type"] = sensor_type_name(s.type);
  out["sigma"] = s.sigma;
  if (s.type == Type::Encoder || s.type == Type::LoadCell) out["joint"] = s.joint;
  if (s.type == Type::LoadCell) out["component"] = wrench_component_name(s.component);
  if (!s.body.empty()) out["body"] = s.body;
  if (s.type == Type::Accelerometer || s.type == Type::Position)
    out["point"] = ojson::array({s.point.x(), s.point.y(), s.point.z()});
  if (s.extra.is_object())
    for (const auto& [key, value] : s.extra.items())
      if (!out.contains(key)) out[key] = ojson(value);
  return out;
}

}  // namespace articula
