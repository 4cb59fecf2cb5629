#pragma once
// The joint's operations on its motion subspace S (6 x nv, joint i's coordinates), with RBDA
// Appendix A's special case for the most common joint inside them: a revolute joint about z in
// its forward polarity has S = e_z, v_J = q̇ e_z, c_J = 0 and X_J = rz(q) in closed form.
// Algorithms call these and do not test joint types; each operation branches once, inline, so
// the fast path costs what the hand-written branches at every call site cost.
#include "core/model/data.hpp"
#include "core/model/joint.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

// RBDA Table 4.1, by closed form for an axial revolute joint.
inline void joint_calc(const Joint& joint, const double* q, const double* qd, JointCalc& out) {
  if (is_axial_revolute(joint))
    jcalc_axial_revolute(q[0], qd[0], out);
  else
    jcalc(joint, q, qd, out);
}

// v += v_J (the joint's velocity, from the last joint_calc).
inline void add_joint_velocity(const Joint& joint, const JointCalc& jc, Motion& v) {
  if (is_axial_revolute(joint))
    v[2] += jc.vJ[2];
  else
    v += jc.vJ;
}

// The velocity-product term c = c_J + v × v_J of a body moving with v (RBDA Eq. 5.7's c_i).
inline Motion joint_bias(const Joint& joint, const JointCalc& jc, const Motion& v) {
  if (is_axial_revolute(joint)) return cross_axial(v, jc.vJ[2]);
  Motion c = cross_motion(v, jc.vJ);
  for (int e = 0; e < 6; ++e) c[e] += jc.cJ[e];  // element by element: see kinematics' add_to
  return c;
}

// a += S x for the joint's nv rates x.
inline void add_subspace_product(const Joint& joint, const Mat6X& S, const double* x, Motion& a) {
  if (is_axial_revolute(joint)) {
    a[2] += x[0];
    return;
  }
  for (int k = 0; k < S.cols(); ++k)
    for (int e = 0; e < 6; ++e) a[e] += S(e, k) * x[k];
}

// out = S^T f (nv values): fixed-size dots column by column, not a dynamic-size product.
inline void subspace_transpose_product(const Joint& joint, const Mat6X& S, const Force& f,
                                       double* out) {
  if (is_axial_revolute(joint)) {
    out[0] = f[2];
    return;
  }
  for (int k = 0; k < S.cols(); ++k) out[k] = dot6(S.col(k).data(), f.data());
}

// fn(k, (S^T f)_k) for each column k of joint i's S (from data.jc): one call for S = e_z,
// without a loop and without touching S (CRBA's innermost loop: 15 % on a 100-link chain).
template <class Fn>
inline void for_each_subspace_product(const Model& model, const Data& data, int i, const Force& f,
                                      Fn&& fn) {
  if (is_axial_revolute(model.joints[i])) {
    fn(0, f[2]);
    return;
  }
  const Mat6X& S = data.jc[i].S;
  for (int k = 0; k < S.cols(); ++k) fn(k, dot6(S.col(k).data(), f.data()));
}

// Column k of S in base coordinates, ^0X_i^-1 S (X0 = ^iX_0). For S = e_z it is [w; r × w]
// with w = E^T e_z, no transform applied.
inline Motion subspace_in_base(const Joint& joint, const Transform& X0, const Mat6X& S, int k) {
  if (!is_axial_revolute(joint)) return X0.inverse_apply(Motion(S.col(k)));
  const Mat3& E = X0.E;
  const Vec3& r = X0.r;
  Motion s;  // scalar stores: callers read them one by one
  s[0] = E(2, 0), s[1] = E(2, 1), s[2] = E(2, 2);
  s[3] = r[1] * s[2] - r[2] * s[1], s[4] = r[2] * s[0] - r[0] * s[2],
  s[5] = r[0] * s[1] - r[1] * s[0];
  return s;
}

// Column k of S rotated to base axes, still at the body's origin: [E^T s_ang; E^T s_lin].
inline void subspace_rotated(const Joint& joint, const Transform& X0, const Mat6X& S, int k,
                             double* x) {
  if (is_axial_revolute(joint)) {
    x[0] = X0.E(2, 0), x[1] = X0.E(2, 1), x[2] = X0.E(2, 2), x[3] = x[4] = x[5] = 0.0;
    return;
  }
  const double* s = S.data() + 6 * k;
  X0.rot_t(s[0], s[1], s[2], x);
  X0.rot_t(s[3], s[4], s[5], x + 3);
}

// y = (S^T S)^-1 b for a general S (closed forms for one and two columns).
void solve_subspace_normal(const Mat6X& S, const VecN& b, double* y);

// The rates q̇ with S q̇ nearest to m (exact when m is a joint motion): least squares.
inline void rates_from_motion(const Joint& joint, const Mat6X& S, const Motion& m, double* out) {
  if (is_axial_revolute(joint)) {
    out[0] = m[2];
    return;
  }
  solve_subspace_normal(S, VecN(S.transpose() * m), out);
}

// The wrench S (S^T S)^-1 τ in the subspace whose generalized force is τ (S^T f = τ).
inline Force subspace_wrench(const Joint& joint, const Mat6X& S, const VecN& tau) {
  if (is_axial_revolute(joint)) return Force::Unit(2) * tau[0];
  VecN y(S.cols());
  solve_subspace_normal(S, tau, y.data());
  return S * y;
}

// Articulated-body terms of a 1-DoF joint with axis s (RBDA Table 7.1): U = I^A s, D = s^T U,
// s^T p^A. For s = e_z, U is column 2 of I^A.
struct SingleAxisTerms {
  Vec6 U;
  double D, s_pA;
};
inline SingleAxisTerms single_axis_terms(const Joint& joint, const Mat6X& S, const Mat6& IA,
                                         const Force& pA) {
  SingleAxisTerms t;
  if (is_axial_revolute(joint)) {
    t.U = IA.col(2);
    t.D = t.U[2];
    t.s_pA = pA[2];
    return t;
  }
  const Vec6 s = S.col(0);
  t.U.noalias() = IA * s;
  t.D = s.dot(t.U);
  t.s_pA = s.dot(pA);
  return t;
}

}  // namespace articula
