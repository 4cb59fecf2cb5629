#include "core/spatial/transform.hpp"

#include <cmath>

#include "core/spatial/trig.hpp"

namespace articula {

Mat3 rx(double theta) {  // RBDA Table 2.2
  double s, c;
  sin_cos(theta, s, c);
  Mat3 m;
  m << 1, 0, 0, 0, c, s, 0, -s, c;
  return m;
}

Mat3 ry(double theta) {
  double s, c;
  sin_cos(theta, s, c);
  Mat3 m;
  m << c, 0, -s, 0, 1, 0, s, 0, c;
  return m;
}

Mat3 rz(double theta) {
  double s, c;
  sin_cos(theta, s, c);
  Mat3 m;
  m << c, s, 0, -s, c, 0, 0, 0, 1;
  return m;
}

}  // namespace articula
