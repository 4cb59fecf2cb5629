#pragma once
// Forward kinematics: pose, velocity and acceleration of every body (RBDA 4.x, Table 5.1 pass 1
// without gravity). Fills data.jc, Xup, X0, and v, a when given qd, qdd.
#include "core/model/data.hpp"

namespace articula {

void forward_kinematics(const Model& model, Data& data, const VecX& q);
void forward_kinematics(const Model& model, Data& data, const VecX& q, const VecX& qd);
void forward_kinematics(const Model& model, Data& data, const VecX& q, const VecX& qd,
                        const VecX& qdd);
// As with qdd = 0: data.a holds the velocity-product accelerations (no gravity).
void forward_kinematics_bias(const Model& model, Data& data, const VecX& q, const VecX& qd);

// After forward_kinematics: the placement of body i in the base frame (R_0i, p_0i).
inline Mat3 body_rotation(const Data& data, int i) {
  return data.X0[i].rotation();
}
inline Vec3 body_position(const Data& data, int i) {
  return data.X0[i].translation();
}
// A point given in body i coordinates, in base coordinates.
Vec3 point_position(const Data& data, int i, const Vec3& p_body);
// Linear velocity / classical linear acceleration of that body-fixed point, base coordinates.
Vec3 point_velocity(const Data& data, int i, const Vec3& p_body);
Vec3 point_acceleration(const Data& data, int i, const Vec3& p_body);
// Spatial velocity of body i expressed in base coordinates.
Motion body_velocity_in_base(const Data& data, int i);

}  // namespace articula
