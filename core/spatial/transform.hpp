#pragma once
// Plücker coordinate transforms stored as rotation + translation (RBDA 2.8, Appendix A.3).
#include "core/spatial/types.hpp"

namespace articula {

// ^B X_A = rot(E) xlt(r): E rotates A coordinates into B coordinates, r is the position of B's
// origin in A coordinates. The 6x6 form is [E 0; -E r× E]; it is never built in hot loops.
struct Transform {
  Mat3 E = Mat3::Identity();
  Vec3 r = Vec3::Zero();

  Transform() = default;
  Transform(const Mat3& E_, const Vec3& r_) : E(E_), r(r_) {}

  static Transform identity() { return {}; }
  static Transform rot(const Mat3& E) { return {E, Vec3::Zero()}; }
  static Transform xlt(const Vec3& r) { return {Mat3::Identity(), r}; }
  // The frame B whose axes are R (columns, in A coordinates) and origin p, seen from A.
  static Transform from_pose(const Mat3& R, const Vec3& p) { return {R.transpose(), p}; }

  Mat3 rotation() const { return E.transpose(); }  // orientation of B in A
  const Vec3& translation() const { return r; }    // origin of B in A

  // The operations below are written out in scalars: on 3-vectors Eigen's 2-wide SSE2 packets
  // cost more shuffles than they save, and these run several times per body in every
  // algorithm. E x and E^T x are rot() and rot_t(); r × x is cross().

  // X m = [E w; E (v - r x w)]   (RBDA Table A.2 / A.3)
  Motion apply(const Motion& m) const {
    Motion out;
    rot(m[0], m[1], m[2], out.data());
    rot(m[3] - (r[1] * m[2] - r[2] * m[1]), m[4] - (r[2] * m[0] - r[0] * m[2]),
        m[5] - (r[0] * m[1] - r[1] * m[0]), out.data() + 3);
    return out;
  }
  // X^-1 m = [E^T w; E^T v + r x E^T w]
  Motion inverse_apply(const Motion& m) const {
    Motion out;
    rot_t(m[0], m[1], m[2], out.data());
    rot_t(m[3], m[4], m[5], out.data() + 3);
    out[3] += r[1] * out[2] - r[2] * out[1];
    out[4] += r[2] * out[0] - r[0] * out[2];
    out[5] += r[0] * out[1] - r[1] * out[0];
    return out;
  }
  // X* f = [E (n - r x f); E f]
  Force apply_force(const Force& f) const {
    Force out;
    rot(f[0] - (r[1] * f[5] - r[2] * f[4]), f[1] - (r[2] * f[3] - r[0] * f[5]),
        f[2] - (r[0] * f[4] - r[1] * f[3]), out.data());
    rot(f[3], f[4], f[5], out.data() + 3);
    return out;
  }
  // X^T f = (X*)^-1 f = [E^T n + r x E^T f; E^T f]
  Force transpose_apply(const Force& f) const {
    Force out;
    rot_t(f[0], f[1], f[2], out.data());
    rot_t(f[3], f[4], f[5], out.data() + 3);
    out[0] += r[1] * out[5] - r[2] * out[4];
    out[1] += r[2] * out[3] - r[0] * out[5];
    out[2] += r[0] * out[4] - r[1] * out[3];
    return out;
  }
  // Composition: (^C X_B) * (^B X_A) = ^C X_A: E = E_cb E_ba, r = r_ba + E_ba^T r_cb.
  Transform operator*(const Transform& b) const {
    Transform out;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i)
        out.E(i, j) = E(i, 0) * b.E(0, j) + E(i, 1) * b.E(1, j) + E(i, 2) * b.E(2, j);
      out.r[j] = b.r[j] + b.E(0, j) * r[0] + b.E(1, j) * r[1] + b.E(2, j) * r[2];
    }
    return out;
  }
  // X^-1: E^T and -E r, in scalars (Eigen's product would stall on E's fresh stores: types.hpp).
  Transform inverse() const {
    Transform out;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) out.E(i, j) = E(j, i);
    for (int a = 0; a < 3; ++a) out.r[a] = -(E(a, 0) * r[0] + E(a, 1) * r[1] + E(a, 2) * r[2]);
    return out;
  }

  // Dense forms, for tests and diagnostics only.
  Mat6 matrix() const {
    Mat6 X = Mat6::Zero();
    X.topLeftCorner<3, 3>() = E;
    X.bottomRightCorner<3, 3>() = E;
    X.bottomLeftCorner<3, 3>() = -E * skew(r);
    return X;
  }
  Mat6 force_matrix() const {  // X* = X^-T
    Mat6 X = Mat6::Zero();
    X.topLeftCorner<3, 3>() = E;
    X.bottomRightCorner<3, 3>() = E;
    X.topRightCorner<3, 3>() = -E * skew(r);
    return X;
  }
  bool isApprox(const Transform& o, double tol = 1e-12) const {
    return (E - o.E).norm() <= tol && (r - o.r).norm() <= tol;
  }

  // Rotation only, in scalars for the kernels above and the loop Jacobian.
  void rot(double x0, double x1, double x2, double* out) const {  // out = E x
    for (int a = 0; a < 3; ++a) out[a] = E(a, 0) * x0 + E(a, 1) * x1 + E(a, 2) * x2;
  }
  void rot_t(double x0, double x1, double x2, double* out) const {  // out = E^T x
    for (int a = 0; a < 3; ++a) out[a] = E(0, a) * x0 + E(1, a) * x1 + E(2, a) * x2;
  }
};

// Coordinate rotations about x, y, z (RBDA Table 2.2: rx, ry, rz). They transform coordinates,
// so rz(θ) is the transpose of the rotation matrix that turns a frame by θ.
Mat3 rx(double theta);
Mat3 ry(double theta);
Mat3 rz(double theta);

// A rotation that takes each axis to a signed axis, E(a, axis[a]) = sign[a] and zero elsewhere:
// a frame turned by multiples of 90°, as robot descriptions mostly give them. Multiplying by it
// is a row permutation with signs (RBDA App. A's special cases, one step further).
struct AxisPermutation {
  bool valid = false;
  int axis[3] = {0, 1, 2};
  double sign[3] = {1.0, 1.0, 1.0};
};
// When E is within 1e-15 of a signed permutation, makes it exactly that one and returns it
// (valid); otherwise leaves E alone. π/2 has no double: rx(π/2) carries cos = 6e-17 where the
// description meant 0, and the exact form lets algorithms skip the products with it.
AxisPermutation snap_axis_permutation(Mat3& E);

}  // namespace articula
