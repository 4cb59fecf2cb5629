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

  // X m = [E w; E (v - r x w)]   (RBDA Table A.2 / A.3)
  Motion apply(const Motion& m) const {
    const Vec3 w = m.head<3>();
    Motion out;
    out.head<3>() = E * w;
    out.tail<3>() = E * (m.tail<3>() - r.cross(w));
    return out;
  }
  // X^-1 m = [E^T w; E^T v + r x E^T w]
  Motion inverse_apply(const Motion& m) const {
    const Vec3 w = E.transpose() * m.head<3>();
    Motion out;
    out.head<3>() = w;
    out.tail<3>() = E.transpose() * m.tail<3>() + r.cross(w);
    return out;
  }
  // X* f = [E (n - r x f); E f]
  Force apply_force(const Force& f) const {
    const Vec3 lin = f.tail<3>();
    Force out;
    out.head<3>() = E * (f.head<3>() - r.cross(lin));
    out.tail<3>() = E * lin;
    return out;
  }
  // X^T f = (X*)^-1 f = [E^T n + r x E^T f; E^T f]
  Force transpose_apply(const Force& f) const {
    const Vec3 lin = E.transpose() * f.tail<3>();
    Force out;
    out.head<3>() = E.transpose() * f.head<3>() + r.cross(lin);
    out.tail<3>() = lin;
    return out;
  }
  // Composition: (^C X_B) * (^B X_A) = ^C X_A.
  Transform operator*(const Transform& b) const { return {E * b.E, b.r + b.E.transpose() * r}; }
  Transform inverse() const { return {E.transpose(), -(E * r)}; }

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
};

// Coordinate rotations about x, y, z (RBDA Table 2.2: rx, ry, rz). They transform coordinates,
// so rz(θ) is the transpose of the rotation matrix that turns a frame by θ.
Mat3 rx(double theta);
Mat3 ry(double theta);
Mat3 rz(double theta);

}  // namespace articula
