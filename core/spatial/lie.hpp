#pragma once
// Exponential and logarithm maps of SO(3) and SE(3), used to integrate and difference the
// quaternion joints (spherical, free) without leaving the manifold.
#include "core/spatial/types.hpp"

namespace articula {

// Unit quaternion of the rotation exp(phi×) (phi = axis * angle).
Quat quat_exp(const Vec3& phi);
// phi with exp(phi×) = R(q); |phi| <= pi, sign of q irrelevant.
Vec3 quat_log(const Quat& q);

// Rigid displacement of a frame moving for unit time with constant body twist (w, v):
// returns R (rotation) and p (origin) of the final frame in the initial frame's coordinates.
void se3_exp(const Vec3& w, const Vec3& v, Quat& R, Vec3& p);
// Inverse of se3_exp: the body twist that carries the identity to (R, p) in unit time.
void se3_log(const Quat& R, const Vec3& p, Vec3& w, Vec3& v);

}  // namespace articula
