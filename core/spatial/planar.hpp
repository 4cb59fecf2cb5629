#pragma once
// Planar vector algebra (RBDA 2.16, Table A.1): spatial algebra restricted to the x-y plane.
// Motion [ω, v_Ox, v_Oy], force [n, f_x, f_y]; a planar transform has four numbers and a planar
// rigid-body inertia four parameters (Eq. 2.78), so every pass costs about a third of the 6D one.
#include "core/spatial/types.hpp"

namespace articula {

using PlanarMotion = Eigen::Vector3d;
using PlanarForce = Eigen::Vector3d;

// ^B X_A: frame B at (x, y) in A coordinates, its axes turned by θ (c = cos θ, s = sin θ)
// (RBDA Eq. 2.77).
struct PlanarTransform {
  double c = 1.0, s = 0.0, x = 0.0, y = 0.0;

  // X m = [ω; E (v - r × ω)] with r × ω = (y ω, -x ω).
  PlanarMotion apply(const PlanarMotion& m) const {
    const double vx = m[1] - y * m[0], vy = m[2] + x * m[0];
    return {m[0], c * vx + s * vy, c * vy - s * vx};
  }
  // X^-1 m = [ω; E^T v + r × ω].
  PlanarMotion inverse_apply(const PlanarMotion& m) const {
    return {m[0], c * m[1] - s * m[2] + y * m[0], s * m[1] + c * m[2] - x * m[0]};
  }
  // X^T f (B forces to A): f_A = E^T f, n_A = n + (r × f_A)_z.
  PlanarForce transpose_apply(const PlanarForce& f) const {
    const double fx = c * f[1] - s * f[2], fy = s * f[1] + c * f[2];
    return {f[0] + x * fy - y * fx, fx, fy};
  }
  // A point given in B coordinates, in A coordinates: r + E^T p.
  void point_to_parent(double px, double py, double& ox, double& oy) const {
    ox = x + c * px - s * py;
    oy = y + s * px + c * py;
  }
  // A direction given in B coordinates, in A coordinates: E^T d.
  void direction_to_parent(double dx, double dy, double& ox, double& oy) const {
    ox = c * dx - s * dy;
    oy = s * dx + c * dy;
  }
};

// (^C X_B)(^B X_A) = ^C X_A: angles add, r = r_BA + E_BA^T r_CB.
inline PlanarTransform operator*(const PlanarTransform& cb, const PlanarTransform& ba) {
  PlanarTransform out;
  out.c = cb.c * ba.c - cb.s * ba.s;
  out.s = cb.s * ba.c + cb.c * ba.s;
  ba.point_to_parent(cb.x, cb.y, out.x, out.y);
  return out;
}

// v × m (RBDA Eq. 2.76).
inline PlanarMotion cross_motion(const PlanarMotion& v, const PlanarMotion& m) {
  return {0.0, v[2] * m[0] - v[0] * m[2], v[0] * m[1] - v[1] * m[0]};
}
// v ×* f = -(v ×)^T f.
inline PlanarForce cross_force(const PlanarMotion& v, const PlanarForce& f) {
  return {v[1] * f[2] - v[2] * f[1], -v[0] * f[2], v[0] * f[1]};
}

// Mass m, first moment h = m c and rotational inertia Io about the origin (RBDA Eq. 2.78).
struct PlanarInertia {
  double m = 0.0, hx = 0.0, hy = 0.0, Io = 0.0;

  PlanarForce operator*(const PlanarMotion& v) const {
    return {Io * v[0] - hy * v[1] + hx * v[2], m * v[1] - hy * v[0], m * v[2] + hx * v[0]};
  }
  PlanarInertia& operator+=(const PlanarInertia& o) {
    m += o.m, hx += o.hx, hy += o.hy, Io += o.Io;
    return *this;
  }
};

// X^T I X for X = ^B X_A and I in B coordinates: the same body in A coordinates, with
// c_A = E^T c_B + r, so h_A = E^T h_B + m r and Io_A = Io_B + 2 r · E^T h_B + m |r|^2.
inline PlanarInertia transpose_apply(const PlanarTransform& X, const PlanarInertia& I) {
  const double hx = X.c * I.hx - X.s * I.hy, hy = X.s * I.hx + X.c * I.hy;  // E^T h_B
  PlanarInertia out;
  out.m = I.m;
  out.hx = hx + I.m * X.x;
  out.hy = hy + I.m * X.y;
  out.Io = I.Io + 2.0 * (X.x * hx + X.y * hy) + I.m * (X.x * X.x + X.y * X.y);
  return out;
}

}  // namespace articula
