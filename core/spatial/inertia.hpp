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

  // I v = [Ibar w + h x v; m v - h x w]
  Force operator*(const Motion& v) const {
    const Vec3 w = v.head<3>(), vl = v.tail<3>();
    Force f;
    f.head<3>() = Ibar * w + h.cross(vl);
    f.tail<3>() = m * vl - h.cross(w);
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
inline RigidBodyInertia transpose_apply(const Transform& X, const RigidBodyInertia& I) {
  const Vec3 h1 = X.E.transpose() * I.h;
  const Mat3 I1 = X.E.transpose() * I.Ibar * X.E;
  const Mat3 rx = skew(X.r), hx = skew(h1);
  return {I.m, h1 + I.m * X.r, I1 - rx * hx - hx * rx - I.m * rx * rx};
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
