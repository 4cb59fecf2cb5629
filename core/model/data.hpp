#pragma once
// The workspace of every algorithm, allocated once from a Model (Pinocchio's Model/Data split).
// Each field says its shape and which function fills it. Body-indexed arrays have NB+1 entries;
// entry 0 is the base.
#include <vector>

#include "core/model/model.hpp"

namespace articula {

struct Data {
  explicit Data(const Model& model);

  // Kinematics (forward_kinematics; also filled by rnea, aba, hybrid_dynamics, crba).
  std::vector<JointCalc> jc;   // X_J, S, v_J, c_J of joint i            (NB+1)
  std::vector<Transform> Xup;  // ^i X_λ(i) = X_J X_T(i)                 (NB+1)
  std::vector<Transform> X0;   // ^i X_0: base to body i coordinates     (NB+1)
  std::vector<Motion> v;       // body velocity, body coordinates       (NB+1)
  std::vector<Motion> a;       // body acceleration, body coordinates   (NB+1)
  std::vector<Motion> c;       // c_i = c_J + v_i × v_J (Table 7.1)      (NB+1)

  // Newton-Euler (rnea): body forces, then joint forces.
  std::vector<Force> f;  // force transmitted across joint i, body i coords (NB+1)
  VecX tau;              // generalized forces                     (nv)

  // Composite rigid bodies (crba): composite inertias and the joint-space inertia matrix.
  // H and LD are empty until the first crba / ltdl_factor on this Data (reserve_mass_matrix):
  // the O(n) solvers never form them, and at 1,000 coordinates each is 8 MB whose first zeroing
  // costs tens of ms in page faults, several times while a large mechanism is prepared.
  std::vector<RigidBodyInertia> IC;  // I^c_i in body coordinates              (NB+1)
  MatX H;                            // joint-space inertia matrix    (nv x nv, or 0 x 0)
  VecX C;                            // bias forces C(q, qd, a_grav, f_ext)   (nv)

  // Sparse L^T D L factor of H (ltdl_factor): D on the diagonal, L^T above it. (nv x nv, or 0 x 0)
  MatX LD;
  VecX LD_dinv;  // 1 / D, the inverse pivots (nv)

  // Articulated bodies in body coordinates (hybrid_dynamics, articulated_body.cpp).
  std::vector<Mat6> IA;   // articulated-body inertia I^A_i         (NB+1)
  std::vector<Force> pA;  // bias force p^A_i                      (NB+1)
  std::vector<Mat6X> U;   // U_i = I^A_i S_i                        (6 x nv_i, NB+1)
  // Joint-space terms, frame-free (aba and hybrid_dynamics).
  std::vector<MatN> Dinv;  // D_i^-1                                 (nv_i x nv_i, NB+1)
  std::vector<VecN> u;     // u_i = τ_i - S_i^T p^A_i                (nv_i, NB+1)
  VecX qdd;                // joint accelerations                    (nv)

  // ABA in base coordinates (aba only; Pinocchio's oYaba, ov, ...): the same quantities as above
  // expressed in base (world) axes about the base origin, so they accumulate by plain addition.
  std::vector<Mat6X> oS;   // ^0X_i S_i                               (6 x nv_i, NB+1)
  std::vector<Motion> ov;  // body velocity                          (NB+1)
  std::vector<Motion> oa;  // body acceleration (gravity as -a_grav at the base) (NB+1)
  std::vector<Motion> oc;  // velocity-product term c_i              (NB+1)
  std::vector<Mat6> oIA;   // articulated-body inertia               (NB+1)
  std::vector<Force> opA;  // articulated bias force                 (NB+1)
  std::vector<Mat6X> oU;   // I^A_i S_i                              (6 x nv_i, NB+1)

  // loop_constraints' scratch: each column of S_i in base axes at body i's origin. (nv)
  std::vector<Motion> S0;
};

// Gives `M` its nv x nv zeros on first use (data.H before CRBA writes its branch pattern, data.LD
// before the factor copies it): entries off the pattern are never written and must stay zero.
inline void reserve_mass_matrix(MatX& M, int nv) {
  if (M.rows() != nv || M.cols() != nv) M.setZero(nv, nv);
}

}  // namespace articula
