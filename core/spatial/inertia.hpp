#pragma once
// Rigid-body and articulated-body inertias (RBDA 2.13, 7.1, Appendix A.2-A.3).
#include "core/spatial/transform.hpp"

namespace articula {

// Rigid-body inertia stored compactly: mass m, first moment h = m c and rotational inertia Ibar
// about the frame origin. The 6x6 form is [Ibar h×; h×^T m1] (RBDA Eq. 2.63).
struct RigidBodyInertia {
  double m = 0.0;
  Vec3 h = Vec3::Zero();
  Mat3 Ibar = Mat3::Zero();

  // From mass, centre of mass c and the rotational inertia Ic about the centre of mass (Eq. 2.62).
  static RigidBodyInertia from_mass_com(double mass, const Vec3& c, const Mat3& Ic) {
    const Mat3 cx = skew(c);
    return {mass, mass * c, Ic - mass * cx * cx};
  }

  Vec3 com() const { return m > 0 ? Vec3(h / m) : Vec3::Zero(); }
  Mat3 inertia_about_com() const {
    const Vec3 c = com();
    const Mat3 cx = skew(c);
    return Ibar + m * cx * cx;
  }

  // I v = [Ibar w + h x v; m v - h x w] (scalars: see transform.hpp)
  Force operator*(const Motion& v) const {
    Force f;
    for (int a = 0; a < 3; ++a) f[a] = Ibar(a, 0) * v[0] + Ibar(a, 1) * v[1] + Ibar(a, 2) * v[2];
    f[0] += h[1] * v[5] - h[2] * v[4];
    f[1] += h[2] * v[3] - h[0] * v[5];
    f[2] += h[0] * v[4] - h[1] * v[3];
    f[3] = m * v[3] - (h[1] * v[2] - h[2] * v[1]);
    f[4] = m * v[4] - (h[2] * v[0] - h[0] * v[2]);
    f[5] = m * v[5] - (h[0] * v[1] - h[1] * v[0]);
    return f;
  }
  RigidBodyInertia operator+(const RigidBodyInertia& o) const {
    return {m + o.m, h + o.h, Ibar + o.Ibar};
  }
  RigidBodyInertia& operator+=(const RigidBodyInertia& o) {
    m += o.m;
    h += o.h;
    Ibar += o.Ibar;
    return *this;
  }

  Mat6 matrix() const {
    Mat6 I;
    I.topLeftCorner<3, 3>() = Ibar;
    I.topRightCorner<3, 3>() = skew(h);
    I.bottomLeftCorner<3, 3>() = skew(h).transpose();
    I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
    return I;
  }
};

// X* I X^-1: an inertia given in A coordinates expressed in B coordinates (X = ^B X_A).
inline RigidBodyInertia apply(const Transform& X, const RigidBodyInertia& I) {
  const Vec3 hs = I.h - I.m * X.r;  // first moment about B's origin, A axes
  const Mat3 rx = skew(X.r), hx = skew(hs);
  const Mat3 Is = I.Ibar + rx * hx + hx * rx + I.m * rx * rx;
  return {I.m, X.E * hs, X.E * Is * X.E.transpose()};
}

// X^T I X: an inertia given in B coordinates expressed in A coordinates (RBDA Eq. 2.66 / A.3).
// The origin shift in closed form: with h1 = E^T h and h0 = h1 + m r (the shifted first moment),
// skew(a) skew(b) = b a^T - (a.b) 1 turns I1 - r× h1× - h1× r× - m r× r× into
// Ibar0 = E^T Ibar E - (h0 r^T + r h1^T) + (r.(h0 + h1)) 1, a symmetric rank-two update.
// Written in scalars (see transform.hpp); only the lower triangle is computed.
inline RigidBodyInertia transpose_apply(const Transform& X, const RigidBodyInertia& I) {
  double e[3][3], ib[3][3];  // locals: the compiler need not reload them around the stores
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) e[i][j] = X.E(i, j), ib[i][j] = I.Ibar(i, j);
  const double r[3] = {X.r[0], X.r[1], X.r[2]}, m = I.m;
  double h1[3], h0[3], ie[3][3];  // ie[b] = column b of Ibar E
  for (int a = 0; a < 3; ++a) {
    h1[a] = e[0][a] * I.h[0] + e[1][a] * I.h[1] + e[2][a] * I.h[2];
    h0[a] = h1[a] + m * r[a];
    for (int k = 0; k < 3; ++k)
      ie[a][k] = ib[k][0] * e[0][a] + ib[k][1] * e[1][a] + ib[k][2] * e[2][a];
  }
  const double diag = r[0] * (h0[0] + h1[0]) + r[1] * (h0[1] + h1[1]) + r[2] * (h0[2] + h1[2]);
  RigidBodyInertia out;
  out.m = m;
  out.h = Vec3(h0[0], h0[1], h0[2]);
  for (int b = 0; b < 3; ++b)
    for (int a = b; a < 3; ++a)
      out.Ibar(a, b) = out.Ibar(b, a) = e[0][a] * ie[b][0] + e[1][a] * ie[b][1] +
                                        e[2][a] * ie[b][2] - h0[a] * r[b] - r[a] * h1[b] +
                                        (a == b ? diag : 0.0);
  return out;
}

// Articulated-body inertias are general symmetric 6x6 matrices (RBDA 7.1); X^T IA X is done
// blockwise: rotate the blocks, then shift the origin (no 6x6 products).
inline Mat6 transpose_apply(const Transform& X, const Mat6& IA) {
  const Mat3& E = X.E;
  const Mat3 I1 = E.transpose() * IA.topLeftCorner<3, 3>() * E;
  const Mat3 H1 = E.transpose() * IA.topRightCorner<3, 3>() * E;
  const Mat3 M1 = E.transpose() * IA.bottomRightCorner<3, 3>() * E;
  const Mat3 rx = skew(X.r);
  const Mat3 rxM = rx * M1;
  Mat6 out;
  out.topLeftCorner<3, 3>() = I1 - H1 * rx + rx * H1.transpose() - rxM * rx;
  out.topRightCorner<3, 3>() = H1 + rxM;
  out.bottomLeftCorner<3, 3>() = out.topRightCorner<3, 3>().transpose();
  out.bottomRightCorner<3, 3>() = M1;
  return out;
}

// out += X^T IA X, without the temporary 6x6 (ABA's inward accumulation).
inline void transpose_apply_add(const Transform& X, const Mat6& IA, Mat6& out) {
  const Mat3& E = X.E;
  const Mat3 I1 = E.transpose() * IA.topLeftCorner<3, 3>() * E;
  const Mat3 H1 = E.transpose() * IA.topRightCorner<3, 3>() * E;
  const Mat3 M1 = E.transpose() * IA.bottomRightCorner<3, 3>() * E;
  const Mat3 rx = skew(X.r);
  const Mat3 rxM = rx * M1;
  const Mat3 H2 = H1 + rxM;
  out.topLeftCorner<3, 3>() += I1 - H1 * rx + rx * H1.transpose() - rxM * rx;
  out.topRightCorner<3, 3>() += H2;
  out.bottomLeftCorner<3, 3>() += H2.transpose();
  out.bottomRightCorner<3, 3>() += M1;
}

// IA += I for a rigid-body inertia, without forming its 6x6 matrix.
inline void add_to(Mat6& IA, const RigidBodyInertia& I) {
  const Mat3 hx = skew(I.h);
  IA.topLeftCorner<3, 3>() += I.Ibar;
  IA.topRightCorner<3, 3>() += hx;
  IA.bottomLeftCorner<3, 3>() -= hx;
  IA.bottomRightCorner<3, 3>().diagonal().array() += I.m;
}

}  // namespace articula
