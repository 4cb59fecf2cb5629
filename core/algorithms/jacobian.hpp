#pragma once
// Body and point Jacobians (RBDA 4.x: J_i = Σ_{j ∈ κ(i)} ^iX_j S_j). Call forward_kinematics(q)
// first; they read data.X0 and data.jc[].S.
#include "core/model/data.hpp"

namespace articula {

// 6 x nv, v_i = J qd with v_i in body i coordinates.
void body_jacobian(const Model& model, const Data& data, int body, MatX& J);
// 6 x nv, spatial velocity of body i in base coordinates (reference point: base origin).
void base_jacobian(const Model& model, const Data& data, int body, MatX& J);
// 3 x nv, linear velocity in base coordinates of the body-fixed point p (body coordinates).
void point_jacobian(const Model& model, const Data& data, int body, const Vec3& p_body, MatX& J);

}  // namespace articula
