#include "core/algorithms/articulated_body.hpp"

#include <Eigen/Cholesky>

#include "core/model/joint_ops.hpp"
#include "core/spatial/cross.hpp"

namespace articula::detail {

namespace {
bool is_fd(const std::vector<bool>* fd, int i) {
  return fd == nullptr || (*fd)[i];
}

// Pass 2 at a 1-DoF forward-dynamics joint: fixed-size algebra, D is a scalar.
void pass2_single(const Joint& joint, Data& data, int i, double tau_i, Mat6& Ia, Force& pa) {
  const SingleAxisTerms t = single_axis_terms(joint, data.jc[i].S, data.IA[i], data.pA[i]);
  const Vec6& U = t.U;
  const double D = t.D, u = tau_i - t.s_pA;
  data.U[i].col(0) = U;
  data.Dinv[i](0, 0) = 1.0 / D;
  data.u[i][0] = u;
  Ia = data.IA[i];
  Ia.noalias() -= (U / D) * U.transpose();  // I^a = I^A - U U^T / D
  pa = data.pA[i];
  pa.noalias() += Ia * data.c[i];
  pa += U * (u / D);  // p^a = p^A + I^a c + U u / D
}
}  // namespace

void ab_pass1(const Model& model, Data& data, const VecX& q, const VecX& qd,
              const ExternalForces* f_ext, const std::vector<bool>* fd, const VecX* qdd_in) {
  data.v[0].setZero();
  for (int i = 1; i <= model.nb; ++i) {
    const int p = model.parent[i];
    const int nv = model.joints[i].nv();
    JointCalc& jc = data.jc[i];
    joint_calc(model.joints[i], q.data() + model.q_index[i], qd.data() + model.v_index[i], jc);
    data.Xup[i] = compose_joint(model.joints[i], jc.XJ, model.X_tree[i]);
    data.v[i] = data.Xup[i].apply(data.v[p]);
    add_joint_velocity(model.joints[i], jc, data.v[i]);
    data.c[i] = joint_bias(model.joints[i], jc, data.v[i]);
    if (!is_fd(fd, i) && nv > 0)
      data.c[i].noalias() += jc.S * qdd_in->segment(model.v_index[i], nv);
    const RigidBodyInertia& I = model.inertia[i];
    data.IA[i].setZero();
    add_to(data.IA[i], I);
    data.pA[i] = cross_force(data.v[i], I * data.v[i]);
    if (f_ext) {
      data.X0[i] = p > 0 ? data.Xup[i] * data.X0[p] : data.Xup[i];
      data.pA[i] -= data.X0[i].apply_force((*f_ext)[i]);
    }
  }
}

void ab_pass2(const Model& model, Data& data, const VecX& tau, const std::vector<bool>* fd) {
  for (int i = model.nb; i >= 1; --i) {
    const int nv = model.joints[i].nv();
    const int p = model.parent[i];
    const bool forward = nv > 0 && is_fd(fd, i);
    if (forward && nv == 1) {
      Mat6 Ia;
      Force pa;
      pass2_single(model.joints[i], data, i, tau[model.v_index[i]], Ia, pa);
      if (p == 0) continue;
      transpose_apply_add(data.Xup[i], Ia, data.IA[p]);
      data.pA[p] += data.Xup[i].transpose_apply(pa);
      continue;
    }
    if (forward) {
      const Mat6X& S = data.jc[i].S;
      Mat6X& U = data.U[i];
      U.noalias() = data.IA[i] * S;
      const MatN D = S.transpose() * U;
      data.Dinv[i] = D.ldlt().solve(MatN::Identity(nv, nv));
      data.u[i] = tau.segment(model.v_index[i], nv) - S.transpose() * data.pA[i];
    }
    if (p == 0) continue;
    Mat6 Ia = data.IA[i];
    Force pa = data.pA[i] + Ia * data.c[i];
    if (forward) {  // I^a = I^A - U D^-1 U^T,  p^a = p^A + I^a c + U D^-1 u
      const Mat6X UDinv = data.U[i] * data.Dinv[i];
      Ia.noalias() -= UDinv * data.U[i].transpose();
      pa.noalias() += UDinv * (data.u[i] - data.U[i].transpose() * data.c[i]);
    }
    transpose_apply_add(data.Xup[i], Ia, data.IA[p]);
    data.pA[p] += data.Xup[i].transpose_apply(pa);
  }
}

void ab_pass3(const Model& model, Data& data, const std::vector<bool>* fd, const VecX* qdd_in) {
  data.a[0] = -model.a_grav;
  for (int i = 1; i <= model.nb; ++i) {
    const int nv = model.joints[i].nv();
    const int vi = model.v_index[i];
    data.a[i] = data.Xup[i].apply(data.a[model.parent[i]]) + data.c[i];  // a'_i
    if (nv == 0) continue;
    const Mat6X& S = data.jc[i].S;
    if (is_fd(fd, i)) {
      if (nv == 1) {
        const double qdd = data.Dinv[i](0, 0) * (data.u[i][0] - data.U[i].col(0).dot(data.a[i]));
        data.qdd[vi] = qdd;
        add_subspace_product(model.joints[i], S, &qdd, data.a[i]);
        continue;
      }
      auto qdd = data.qdd.segment(vi, nv);
      qdd.noalias() = data.Dinv[i] * (data.u[i] - data.U[i].transpose() * data.a[i]);
      data.a[i].noalias() += S * qdd;
    } else {  // τ_i = S^T (I^A a_i + p^A_i)   (Table 9.3)
      data.qdd.segment(vi, nv) = qdd_in->segment(vi, nv);
      data.tau.segment(vi, nv).noalias() = S.transpose() * (data.IA[i] * data.a[i] + data.pA[i]);
    }
  }
}

}  // namespace articula::detail
