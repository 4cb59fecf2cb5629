#include "core/spec/visual_spec.hpp"

#include <cmath>

namespace articula {

const char* visual_shape_name(VisualSpec::Shape shape) {
  switch (shape) {
    case VisualSpec::Shape::Box:
      return "box";
    case VisualSpec::Shape::Cylinder:
      return "cylinder";
    case VisualSpec::Shape::Sphere:
      return "sphere";
  }
  return "box";
}

std::optional<VisualSpec::Shape> visual_shape_from_name(const std::string& name) {
  for (auto s : {VisualSpec::Shape::Box, VisualSpec::Shape::Cylinder, VisualSpec::Shape::Sphere})
    if (name == visual_shape_name(s)) return s;
  return std::nullopt;
}

bool drawable(const VisualSpec& v) {
  auto good = [](double x) { return std::isfinite(x) && x > 0; };
  const bool sizes =
      v.shape == VisualSpec::Shape::Box
          ? good(v.size.x()) && good(v.size.y()) && good(v.size.z())
          : good(v.radius) && (v.shape != VisualSpec::Shape::Cylinder || good(v.length));
  return sizes && v.frame.position.allFinite() && v.frame.orientation.coeffs().allFinite();
}

}  // namespace articula
