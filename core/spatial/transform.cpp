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

AxisPermutation snap_axis_permutation(Mat3& E) {
  constexpr double kTol = 1e-15;
  AxisPermutation p;
  int used = 0;  // bit k: column k already taken
  for (int a = 0; a < 3; ++a) {
    int k = -1;
    for (int b = 0; b < 3; ++b) {
      if (std::abs(E(a, b)) <= kTol) continue;
      if (k >= 0 || std::abs(std::abs(E(a, b)) - 1.0) > kTol) return {};  // not 0 or ±1
      k = b;
    }
    if (k < 0 || (used >> k & 1)) return {};
    used |= 1 << k;
    p.axis[a] = k;
    p.sign[a] = E(a, k) > 0.0 ? 1.0 : -1.0;
  }
  if (E.determinant() < 0.0) return {};  // a reflection: not a rotation
  E.setZero();
  for (int a = 0; a < 3; ++a) E(a, p.axis[a]) = p.sign[a];
  p.valid = true;
  return p;
}

}  // namespace articula
