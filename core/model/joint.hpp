#pragma once
// The joint catalogue: jcalc (RBDA Table 4.1), configuration-space operations for the quaternion
// joints, and the loop-joint form [δ, T] (RBDA Table 8.1, Eq. 8.27). Motion is about/along the
// joint frame's z axis (project-format-v1).
#include <cmath>
#include <optional>
#include <string_view>

#include "core/spatial/transform.hpp"
#include "core/spatial/trig.hpp"

namespace articula {

enum class JointType {
  Revolute,
  Prismatic,
  Helical,
  Cylindrical,
  Universal,
  Spherical,
  Planar,
  Free,
  Fixed
};

struct Joint {
  JointType type = JointType::Fixed;
  double pitch = 0.0;  // helical only: translation along z per radian (m/rad)
  // A tree joint traversed from its successor to its predecessor (RBDA 4.4, Table 4.2): jcalc
  // returns the values for the opposite polarity, q keeps the user's meaning.
  bool reversed = false;

  int nq() const {
    constexpr int kNq[] = {1, 1, 1, 2, 2, 4, 3, 7, 0};  // in JointType order
    return kNq[static_cast<int>(type)];
  }
  int nv() const {
    constexpr int kNv[] = {1, 1, 1, 2, 2, 3, 3, 6, 0};
    return kNv[static_cast<int>(type)];
  }
  int nc() const { return 6 - nv(); }  // constraint rows when used as a loop joint
  bool operator==(const Joint&) const = default;
  bool has_quaternion() const { return type == JointType::Spherical || type == JointType::Free; }

  static Joint revolute() { return {JointType::Revolute}; }
  static Joint prismatic() { return {JointType::Prismatic}; }
  static Joint helical(double pitch) { return {JointType::Helical, pitch}; }
  static Joint cylindrical() { return {JointType::Cylindrical}; }
  static Joint universal() { return {JointType::Universal}; }
  static Joint spherical() { return {JointType::Spherical}; }
  static Joint planar() { return {JointType::Planar}; }
  static Joint free() { return {JointType::Free}; }
  static Joint fixed() { return {JointType::Fixed}; }
};

std::string_view joint_type_name(JointType type);
std::optional<JointType> joint_type_from_name(std::string_view name);

// Output of jcalc: X_J = ^s X_p, motion subspace S (6 x nv), v_J = S qd, c_J = S̊ qd.
struct JointCalc {
  Transform XJ;
  Mat6X S;
  Motion vJ = Motion::Zero();
  Motion cJ = Motion::Zero();
};

// RBDA Table 4.1. q and qd point at the joint's nq and nv coordinates. Quaternions need not be
// exactly unit; they are normalised here.
void jcalc(const Joint& joint, const double* q, const double* qd, JointCalc& out);
// ^i X_λ(i) = X_J X_T. Joints that rotate about z without translating (revolute, and the
// rotation of cylindrical/helical is handled generally) only mix the first two rows of E:
// RBDA Appendix A's rotation special case, 12 multiplications instead of 27.
inline Transform compose_joint(const Joint& joint, const Transform& XJ, const Transform& XT) {
  if (joint.type != JointType::Revolute || joint.reversed) return XJ * XT;
  Transform out;
  const double c = XJ.E(0, 0), s = XJ.E(0, 1);  // XJ.E = rz(q)
  out.E.row(0) = c * XT.E.row(0) + s * XT.E.row(1);
  out.E.row(1) = c * XT.E.row(1) - s * XT.E.row(0);
  out.E.row(2) = XT.E.row(2);
  out.r = XT.r;  // rz has no translation: r = r_T + E_T^T 0
  return out;
}

// RBDA Appendix A's special case for the most common joint, a revolute joint about z in its
// forward polarity: S = e_z, v_J = q̇ e_z, c_J = 0, and X_J = rz(q) in closed form.
inline bool is_axial_revolute(const Joint& joint) {
  return joint.type == JointType::Revolute && !joint.reversed;
}
inline void jcalc_axial_revolute(double q, double qd, JointCalc& out) {
  double s, c;
  sin_cos(q, s, c);
  out.XJ.E << c, s, 0, -s, c, 0, 0, 0, 1;
  out.XJ.r.setZero();
  out.S.setZero(6, 1);
  out.S(2, 0) = 1.0;
  out.vJ.setZero();
  out.vJ[2] = qd;
  out.cJ.setZero();
}
// v × (q̇ e_z) for a motion vector v: the velocity-product term of an axial revolute joint.
inline Motion cross_axial(const Motion& v, double qd) {
  Motion out;
  out << qd * v[1], -qd * v[0], 0.0, qd * v[4], -qd * v[3], 0.0;
  return out;
}

// X_J only (position kinematics).
Transform joint_transform(const Joint& joint, const double* q);
// The coordinates whose X_J is nearest to X (exact when X is reachable); for quaternion joints a
// unit quaternion. Used to start assembly from sketched poses. Ignores `reversed`.
void joint_coordinates(const Joint& joint, const Transform& X, double* q);

// q_out = q ⊕ v dt: exact for constant v (exponential map on the quaternion joints).
void joint_integrate(const Joint& joint, const double* q, const double* v, double dt,
                     double* q_out);
// v with joint_integrate(q0, v, 1) = q1.
void joint_difference(const Joint& joint, const double* q1, const double* q0, double* v);
// dq/dt for joint velocity v (differs from v only for the quaternion joints).
void joint_q_dot(const Joint& joint, const double* q, const double* v, double* q_dot);
void joint_neutral(const Joint& joint, double* q);
void joint_normalize(const Joint& joint, double* q);

// Loop-joint form (RBDA 8.3, Table 8.1): for X_sp = ^s X_p of a loop joint, δ (nc values) measures
// how far X_sp is from any X_J the joint allows, and T (6 x nc, successor coordinates) spans the
// constraint forces, T^T S = 0. δ is zero exactly on the joint's motion manifold and satisfies
// dδ/dt = T^T v_rel there, v_rel being the successor's velocity relative to the predecessor.
void loop_jcalc(const Joint& joint, const Transform& X_sp, VecN& delta, Mat6X& T);

}  // namespace articula
