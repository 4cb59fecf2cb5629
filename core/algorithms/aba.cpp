#include "core/algorithms/aba.hpp"

#include <Eigen/Cholesky>

#include "core/spatial/cross.hpp"

namespace articula {

// RBDA Table 7.1 with every quantity in base coordinates (as Pinocchio does): the articulated
// inertias then accumulate inward by plain addition, without the X^T I^A X of each body, which
// was most of the cost. Per body: the motion subspace S0 = ^0X_i S_i and the inertia
// I0 = X^T I X once. v_J and c_J become S0 q̇ and v0 × S0 q̇ (+ ^0X_i c_J).
// Data use: F holds S0; v, a, c, IA, pA, U are left in base coordinates (no caller reads them
// after aba(); converting v and a back cost a tenth of the algorithm). Xup, X0, jc are as usual.
namespace {
// X^T I X for X = ^iX_0: the body inertia in base coordinates (RBDA Eq. 2.66), with the origin
// shift in closed form: skew(a) skew(b) = b a^T - (a.b) 1 turns the three skew products of
// transpose_apply() into rank-one terms (about 90 flops instead of 250).
RigidBodyInertia to_base(const Transform& X, const RigidBodyInertia& I) {
  const Mat3& E = X.E;
  const Vec3& r = X.r;
  const Vec3 h1 = E.transpose() * I.h;
  Mat3 I1;
  I1.noalias() = E.transpose() * (I.Ibar * E);
  // I1 - (h1 r^T + r h1^T - 2 (r.h1) 1) - m (r r^T - (r.r) 1)
  const double diag = 2 * r.dot(h1) + I.m * r.squaredNorm();
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) I1(a, b) -= h1[a] * r[b] + r[a] * h1[b] + I.m * r[a] * r[b];
  I1.diagonal().array() += diag;
  return {I.m, h1 + I.m * r, I1};
}

void world_pass1(const Model& model, Data& data, const VecX& q, const VecX& qd, const ExternalForces* f_ext) {
  data.v[0].setZero();
  for (int i = 1; i <= model.nb; ++i) {
    const int p = model.parent[i];
    const Joint& joint = model.joints[i];
    const int nv = joint.nv(), vi = model.v_index[i];
    JointCalc& jc = data.jc[i];
    const bool axial = is_axial_revolute(joint);
    if (axial) jcalc_axial_revolute(q[model.q_index[i]], qd[vi], jc);
    else jcalc(joint, q.data() + model.q_index[i], qd.data() + vi, jc);
    data.Xup[i] = compose_joint(joint, jc.XJ, model.X_tree[i]);
    const Transform& X0 = data.X0[i] = p > 0 ? data.Xup[i] * data.X0[p] : data.Xup[i];
    Mat6X& S0 = data.F[i];
    Motion vJ0;
    if (axial) {
      const Vec3 w = X0.E.row(2).transpose();  // E^T e_z
      S0.col(0) << w, X0.r.cross(w);
      vJ0 = S0.col(0) * qd[vi];
      data.c[i] = cross_motion(data.v[p], vJ0);  // (v_p + vJ0) × vJ0 = v_p × vJ0
    } else {
      for (int k = 0; k < nv; ++k) S0.col(k) = X0.inverse_apply(Motion(jc.S.col(k)));
      vJ0 = X0.inverse_apply(jc.vJ);
      data.c[i] = cross_motion(data.v[p], vJ0) + X0.inverse_apply(jc.cJ);
    }
    data.v[i] = data.v[p] + vJ0;
    const RigidBodyInertia I0 = to_base(X0, model.inertia[i]);
    Mat6& IA = data.IA[i];  // [Ibar h×; h×^T m 1] written directly
    IA.topLeftCorner<3, 3>() = I0.Ibar;
    IA.topRightCorner<3, 3>() = skew(I0.h);
    IA.bottomLeftCorner<3, 3>() = -IA.topRightCorner<3, 3>();
    IA.bottomRightCorner<3, 3>() = I0.m * Mat3::Identity();
    data.pA[i] = cross_force(data.v[i], I0 * data.v[i]);
    if (f_ext) data.pA[i] -= (*f_ext)[i];  // given in base coordinates
  }
}

void world_pass2(const Model& model, Data& data, const VecX& tau) {
  for (int i = model.nb; i >= 1; --i) {
    const int nv = model.joints[i].nv(), p = model.parent[i];
    Mat6& IA = data.IA[i];
    if (nv == 1) {
      const Vec6 s = data.F[i].col(0);
      const Vec6 U = IA * s;
      const double D = s.dot(U), u = tau[model.v_index[i]] - s.dot(data.pA[i]);
      data.U[i].col(0) = U;
      data.Dinv[i](0, 0) = 1.0 / D;
      data.u[i][0] = u;
      if (p == 0) continue;
      IA.noalias() -= (U / D) * U.transpose();  // I^a
      data.pA[p] += data.pA[i] + U * (u / D);
      data.pA[p].noalias() += IA * data.c[i];
      data.IA[p] += IA;
      continue;
    }
    if (nv > 1) {
      const Mat6X& S0 = data.F[i];
      Mat6X& U = data.U[i];
      U.noalias() = IA * S0;
      const MatN D = S0.transpose() * U;
      data.Dinv[i] = D.ldlt().solve(MatN::Identity(nv, nv));
      data.u[i] = tau.segment(model.v_index[i], nv) - S0.transpose() * data.pA[i];
      if (p == 0) continue;
      const Mat6X UDinv = U * data.Dinv[i];
      IA.noalias() -= UDinv * U.transpose();
      data.pA[p].noalias() += UDinv * data.u[i];
    }
    if (p == 0) continue;
    data.pA[p] += data.pA[i];
    data.pA[p].noalias() += IA * data.c[i];
    data.IA[p] += IA;
  }
}

void world_pass3(const Model& model, Data& data) {
  data.a[0] = -model.a_grav;
  for (int i = 1; i <= model.nb; ++i) {
    const int nv = model.joints[i].nv(), vi = model.v_index[i];
    data.a[i] = data.a[model.parent[i]] + data.c[i];
    if (nv == 1) {
      const double qdd = data.Dinv[i](0, 0) * (data.u[i][0] - data.U[i].col(0).dot(data.a[i]));
      data.qdd[vi] = qdd;
      data.a[i] += data.F[i].col(0) * qdd;
    } else if (nv > 1) {
      auto qdd = data.qdd.segment(vi, nv);
      qdd.noalias() = data.Dinv[i] * (data.u[i] - data.U[i].transpose() * data.a[i]);
      data.a[i].noalias() += data.F[i] * qdd;
    }
  }
}
}  // namespace

const VecX& aba(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                const ExternalForces* f_ext) {  // RBDA Table 7.1
  world_pass1(model, data, q, qd, f_ext);
  world_pass2(model, data, tau);
  world_pass3(model, data);
  return data.qdd;
}

}  // namespace articula
