#include "core/algorithms/aba.hpp"

#include <Eigen/Cholesky>
#include <cmath>

#include "core/spatial/cross.hpp"
#include "core/spatial/trig.hpp"

namespace articula {

// RBDA Table 7.1 with every quantity in base coordinates (as Pinocchio does): the articulated
// inertias then accumulate inward by plain addition, without the X^T I^A X of each body, which
// was most of the cost. Per body: the motion subspace S0 = ^0X_i S_i and the inertia
// I0 = X^T I X once. v_J and c_J become S0 q̇ and v_λ × S0 q̇ (+ ^0X_i c_J).
// Data use: the base-coordinate fields oS, ov, oa, oc, oIA, opA, oU (converting v and a back to
// body coordinates would cost a tenth of the algorithm); Dinv, u, qdd as in Table 7.1. X0 is as
// usual; Xup and jc are filled for joints other than the axial revolute one only (its ^0X_i is
// formed directly, RBDA App. A: rz(q) applied to X_T ^λX_0 by rows, no X_J).
namespace {
// I^A_i = I0 as a 6x6 [Ibar h×; h×^T m1] and p^A_i = v × I0 v (RBDA Table 7.1, pass 1).
void rigid_articulated(const RigidBodyInertia& I0, const Motion& v, Mat6& IA, Force& pA) {
  const Vec3& h = I0.h;
  for (int b = 0; b < 3; ++b)
    for (int a = 0; a < 3; ++a) {
      IA(a, b) = I0.Ibar(a, b);
      IA(a + 3, b + 3) = a == b ? I0.m : 0.0;
    }
  IA(0, 3) = 0;
  IA(1, 3) = h[2];
  IA(2, 3) = -h[1];  // h×
  IA(0, 4) = -h[2];
  IA(1, 4) = 0;
  IA(2, 4) = h[0];
  IA(0, 5) = h[1];
  IA(1, 5) = -h[0];
  IA(2, 5) = 0;
  for (int b = 0; b < 3; ++b)
    for (int a = 0; a < 3; ++a) IA(a + 3, b) = IA(b, a + 3);  // h×^T
  pA = cross_force(v, I0 * v);
}

// ^0X_i for an axial revolute joint: rz(q) X_T ^λX_0, the rotation mixing rows 0 and 1 only
// (RBDA App. A, rotation about z); no 6x6 or 3x3 product with rz itself, and none with X_T's
// rotation either when that is a signed permutation (a frame turned by multiples of 90°).
void axial_base_transform(double c, double s, const Transform& XT, const AxisPermutation& axes,
                          const Transform* Xp, Transform& X0) {
  Mat3& E = X0.E;
  if (Xp) {
    for (int b = 0; b < 3; ++b)
      X0.r[b] = Xp->r[b] + Xp->E(0, b) * XT.r[0] + Xp->E(1, b) * XT.r[1] + Xp->E(2, b) * XT.r[2];
    if (axes.valid) {
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) E(a, b) = axes.sign[a] * Xp->E(axes.axis[a], b);
    } else {
      for (int b = 0; b < 3; ++b)
        for (int a = 0; a < 3; ++a)
          E(a, b) = XT.E(a, 0) * Xp->E(0, b) + XT.E(a, 1) * Xp->E(1, b) + XT.E(a, 2) * Xp->E(2, b);
    }
  } else {
    E = XT.E;
    X0.r = XT.r;
  }
  for (int k = 0; k < 3; ++k) {
    const double e0 = E(0, k), e1 = E(1, k);
    E(0, k) = c * e0 + s * e1;
    E(1, k) = c * e1 - s * e0;
  }
}

void world_pass1(const Model& model, Data& data, const VecX& q, const VecX& qd,
                 const ExternalForces* f_ext) {
  data.ov[0].setZero();
  for (int i = 1; i <= model.nb; ++i) {
    const int p = model.parent[i];
    const Joint& joint = model.joints[i];
    const int nv = joint.nv(), vi = model.v_index[i];
    Transform& X0 = data.X0[i];
    Mat6X& S0 = data.oS[i];
    const Motion& vp = data.ov[p];
    Motion& v = data.ov[i];
    if (is_axial_revolute(joint)) {
      const double qi = q[model.q_index[i]], qdi = qd[vi];
      double sq, cq;
      sin_cos(qi, sq, cq);
      axial_base_transform(cq, sq, model.X_tree[i], model.X_tree_axes[i],
                           p > 0 ? &data.X0[p] : nullptr, X0);
      // S0 = [w; r × w] with w = E^T e_z; v = v_p + S0 q̇; c = (v_p + vJ0) × vJ0 = v_p × S0 q̇.
      const Mat3& E = X0.E;
      const Vec3& r = X0.r;
      const double w0 = E(2, 0), w1 = E(2, 1), w2 = E(2, 2);
      const double l0 = r[1] * w2 - r[2] * w1, l1 = r[2] * w0 - r[0] * w2,
                   l2 = r[0] * w1 - r[1] * w0;
      S0(0, 0) = w0;
      S0(1, 0) = w1;
      S0(2, 0) = w2;
      S0(3, 0) = l0;
      S0(4, 0) = l1;
      S0(5, 0) = l2;
      Motion& ci = data.oc[i];
      ci[0] = qdi * (vp[1] * w2 - vp[2] * w1);
      ci[1] = qdi * (vp[2] * w0 - vp[0] * w2);
      ci[2] = qdi * (vp[0] * w1 - vp[1] * w0);
      ci[3] = qdi * (vp[1] * l2 - vp[2] * l1 + vp[4] * w2 - vp[5] * w1);
      ci[4] = qdi * (vp[2] * l0 - vp[0] * l2 + vp[5] * w0 - vp[3] * w2);
      ci[5] = qdi * (vp[0] * l1 - vp[1] * l0 + vp[3] * w1 - vp[4] * w0);
      v[0] = vp[0] + w0 * qdi;
      v[1] = vp[1] + w1 * qdi;
      v[2] = vp[2] + w2 * qdi;
      v[3] = vp[3] + l0 * qdi;
      v[4] = vp[4] + l1 * qdi;
      v[5] = vp[5] + l2 * qdi;
    } else {
      JointCalc& jc = data.jc[i];
      jcalc(joint, q.data() + model.q_index[i], qd.data() + vi, jc);
      data.Xup[i] = compose_joint(joint, jc.XJ, model.X_tree[i]);
      X0 = p > 0 ? data.Xup[i] * data.X0[p] : data.Xup[i];
      for (int k = 0; k < nv; ++k) S0.col(k) = X0.inverse_apply(Motion(jc.S.col(k)));
      const Motion vJ0 = X0.inverse_apply(jc.vJ);
      data.oc[i] = cross_motion(vp, vJ0) + X0.inverse_apply(jc.cJ);
      v = vp + vJ0;
    }
    rigid_articulated(transpose_apply(X0, model.inertia[i]), v, data.oIA[i], data.opA[i]);
    if (f_ext) data.opA[i] -= (*f_ext)[i];  // given in base coordinates
  }
}

// Pass 2 at a 1-DoF joint: U = I^A s, and the parent receives I^a = I^A - U U^T / D and
// p^a = p^A + I^A c + U (u - U.c) / D (one 6x6 product fewer). On a chain, I^A -> U -> D ->
// the parent's I^A is the critical path of the pass, so the sums over columns go as trees
// (three additions deep, not six) and the parent's I^A + I^A_i is formed off that path. Pass 3
// reads U / D and (u - U.c) / D, which are kept in U and u (for 1-DoF joints only).
void pass2_single(const Model& model, Data& data, int i, double tau_i) {
  const Mat6& IA = data.oIA[i];
  const Motion s = data.oS[i].col(0);
  const Motion& c = data.oc[i];
  const Vec6 U = (IA.col(0) * s[0] + IA.col(1) * s[1]) + (IA.col(2) * s[2] + IA.col(3) * s[3]) +
                 (IA.col(4) * s[4] + IA.col(5) * s[5]);
  const Vec6 IAc = (IA.col(0) * c[0] + IA.col(1) * c[1]) + (IA.col(2) * c[2] + IA.col(3) * c[3]) +
                   (IA.col(4) * c[4] + IA.col(5) * c[5]);
  const double Dinv = 1.0 / s.dot(U), u = tau_i - s.dot(data.opA[i]);
  const double ud = (u - U.dot(c)) * Dinv;
  const Vec6 UD = U * Dinv;
  data.oU[i].col(0) = UD;
  data.Dinv[i](0, 0) = Dinv;
  data.u[i][0] = ud;
  const int p = model.parent[i];
  if (p == 0) return;
  data.opA[p] += data.opA[i] + IAc + U * ud;
  Mat6& IAp = data.oIA[p];
  for (int k = 0; k < 6; ++k) IAp.col(k) = (IAp.col(k) + IA.col(k)) - UD * U[k];
}

}  // namespace

void aba_pass2_body(const Model& model, Data& data, int i, const VecX& tau) {
  const int nv = model.joints[i].nv(), p = model.parent[i];
  Mat6& IA = data.oIA[i];
  if (nv == 1) {
    pass2_single(model, data, i, tau[model.v_index[i]]);
    return;
  }
  if (nv > 1) {
    const Mat6X& S0 = data.oS[i];
    Mat6X& U = data.oU[i];
    U.noalias() = IA * S0;
    const MatN D = S0.transpose() * U;
    data.Dinv[i] = D.ldlt().solve(MatN::Identity(nv, nv));
    data.u[i] = tau.segment(model.v_index[i], nv) - S0.transpose() * data.opA[i];
    if (p == 0) return;
    const Mat6X UDinv = U * data.Dinv[i];
    IA.noalias() -= UDinv * U.transpose();
    data.opA[p].noalias() += UDinv * data.u[i];
  }
  if (p == 0) return;
  data.opA[p] += data.opA[i];
  data.opA[p].noalias() += IA * data.oc[i];
  data.oIA[p] += IA;
}

void aba_pass3_body(const Model& model, Data& data, int i) {
  const int nv = model.joints[i].nv(), vi = model.v_index[i];
  const Motion& ap = data.oa[model.parent[i]];
  if (nv == 1) {  // q̈ = (u - U.c) / D - (U / D).a_λ (pass2_single): a shorter chain
    const double qdd = data.u[i][0] - data.oU[i].col(0).dot(ap);
    data.qdd[vi] = qdd;
    data.oa[i] = (ap + data.oc[i]) + data.oS[i].col(0) * qdd;
    return;
  }
  data.oa[i] = ap + data.oc[i];
  if (nv > 1) {
    auto qdd = data.qdd.segment(vi, nv);
    qdd.noalias() = data.Dinv[i] * (data.u[i] - data.oU[i].transpose() * data.oa[i]);
    data.oa[i].noalias() += data.oS[i] * qdd;
  }
}

void aba_pass1(const Model& model, Data& data, const VecX& q, const VecX& qd,
               const ExternalForces* f_ext) {
  world_pass1(model, data, q, qd, f_ext);
}

const VecX& aba(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                const ExternalForces* f_ext) {  // RBDA Table 7.1
  world_pass1(model, data, q, qd, f_ext);
  for (int i = model.nb; i >= 1; --i) aba_pass2_body(model, data, i, tau);
  data.oa[0] = -model.a_grav;
  for (int i = 1; i <= model.nb; ++i) aba_pass3_body(model, data, i);
  return data.qdd;
}

}  // namespace articula
