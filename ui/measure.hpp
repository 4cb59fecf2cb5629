#pragma once
// What the measure tools (the sketch's, ui/sketch_measure_tool, and the 3D view's, in
// ui/build3d_tools) read off clicked points: two give their distance, three the angle at the
// second (between the arms to the first and to the third). World coordinates, metres; the text
// in the display units (ui/display_units).
#include <QString>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

struct Measurement {
  enum class Kind { None, Distance, Angle };
  Kind kind = Kind::None;
  double value = 0.0;  // m or rad (0..π); NaN for an angle with an arm of zero length
  QString text;        // "d = 12.5 mm", "∠ = 30°", or what is wrong
};

// The reading of the first two or three points (fewer: none).
Measurement measure(const std::vector<Vec3>& points);

}  // namespace articula
