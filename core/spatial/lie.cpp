#include "core/spatial/lie.hpp"

#include <Eigen/LU>
#include <cmath>

namespace articula {

Quat quat_exp(const Vec3& phi) {
  const double theta = phi.norm();
  const double half = 0.5 * theta;
  // sin(θ/2)/θ by its Taylor series near zero, to keep full precision for tiny steps.
  const double k = theta < 1e-4 ? 0.5 - theta * theta / 48.0 : std::sin(half) / theta;
  Quat q(std::cos(half), k * phi.x(), k * phi.y(), k * phi.z());
  q.normalize();
  return q;
}

Vec3 quat_log(const Quat& q_in) {
  Quat q = q_in.normalized();
  if (q.w() < 0) q.coeffs() = -q.coeffs();  // shortest rotation
  const Vec3 u = q.vec();
  const double s = u.norm();
  // θ = 2 atan2(s, w); θ/s by its series when s is tiny.
  const double k = s < 1e-8 ? 2.0 / q.w() * (1.0 - s * s / (3.0 * q.w() * q.w()))
                            : 2.0 * std::atan2(s, q.w()) / s;
  return k * u;
}

namespace {
// Coefficients of V(φ) = I + a φ× + b φ×², a = (1-cosθ)/θ², b = (θ-sinθ)/θ³.
void v_coeffs(double theta, double& a, double& b) {
  const double t2 = theta * theta;
  if (theta < 1e-3) {
    a = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
    b = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0;
  } else {
    a = (1.0 - std::cos(theta)) / t2;
    b = (theta - std::sin(theta)) / (t2 * theta);
  }
}
}  // namespace

void se3_exp(const Vec3& w, const Vec3& v, Quat& R, Vec3& p) {
  double a, b;
  v_coeffs(w.norm(), a, b);
  const Mat3 wx = skew(w);
  p = v + a * (wx * v) + b * (wx * (wx * v));
  R = quat_exp(w);
}

void se3_log(const Quat& R, const Vec3& p, Vec3& w, Vec3& v) {
  w = quat_log(R);
  double a, b;
  v_coeffs(w.norm(), a, b);
  const Mat3 wx = skew(w);
  const Mat3 V = Mat3::Identity() + a * wx + b * wx * wx;
  v = V.lu().solve(p);  // V is well conditioned for |w| <= pi
}

}  // namespace articula
