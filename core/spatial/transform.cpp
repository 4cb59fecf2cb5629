#include "core/spatial/transform.hpp"

#include <cmath>

namespace articula {

Mat3 rx(double theta) {  // RBDA Table 2.2
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 m;
  m << 1, 0, 0, 0, c, s, 0, -s, c;
  return m;
}

Mat3 ry(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 m;
  m << c, 0, -s, 0, 1, 0, s, 0, c;
  return m;
}

Mat3 rz(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 m;
  m << c, s, 0, -s, c, 0, 0, 0, 1;
  return m;
}

}  // namespace articula
