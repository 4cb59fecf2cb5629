#pragma once
// Shapes drawn for a body in the 3D view (docs/format-extensions.md, bodies[i].visuals; URDF and
// SDFormat <visual> boxes, cylinders and spheres). Display only: they change no mass property.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

struct VisualSpec {
  enum class Shape { Box, Cylinder, Sphere };
  Shape shape = Shape::Box;
  Vec3 size = Vec3::Zero();  // box: full edge lengths along the frame's x, y, z (m)
  double radius = 0.0;       // cylinder, sphere (m)
  double length = 0.0;       // cylinder: along the frame's z, centred on its origin (m)
  PoseSpec frame;            // the shape's frame in body coordinates
  nlohmann::json extra = nlohmann::json::object();  // unknown fields, kept
  bool operator==(const VisualSpec&) const = default;
};

// "box", "cylinder", "sphere".
const char* visual_shape_name(VisualSpec::Shape shape);
std::optional<VisualSpec::Shape> visual_shape_from_name(const std::string& name);
// Whether the shape's sizes are finite and > 0 and its frame finite (what the loader requires).
bool drawable(const VisualSpec& v);

}  // namespace articula
