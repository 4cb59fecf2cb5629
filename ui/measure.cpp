#include "ui/measure.hpp"

#include <QObject>
#include <cmath>
#include <limits>

#include "ui/display_units.hpp"

namespace articula {

Measurement measure(const std::vector<Vec3>& points) {
  Measurement m;
  if (points.size() == 2) {
    m.kind = Measurement::Kind::Distance;
    m.value = (points[1] - points[0]).norm();
    m.text = QObject::tr("d = %1").arg(format_length(m.value, 6));
  } else if (points.size() >= 3) {
    m.kind = Measurement::Kind::Angle;
    const Vec3 a = points[0] - points[1], b = points[2] - points[1];
    if (a.norm() == 0 || b.norm() == 0) {
      m.value = std::numeric_limits<double>::quiet_NaN();
      m.text = QObject::tr("no angle: an arm has zero length");
      return m;
    }
    // atan2 of |a × b| and a·b: accurate near 0 and π, where acos of the cosine is not.
    m.value = std::atan2(a.cross(b).norm(), a.dot(b));
    m.text = QObject::tr("∠ = %1").arg(format_angle(m.value, 6));
  }
  return m;
}

}  // namespace articula
