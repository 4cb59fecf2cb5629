#include "core/algorithms/rnea.hpp"

#include "core/model/joint_ops.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

namespace {
// Pass 1 of Table 5.1: velocities, accelerations and body forces, outward.
void rnea_forward(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX* qdd,
                  const ExternalForces* f_ext) {
  data.v[0].setZero();
  data.a[0] = -model.a_grav;  // a fictitious base acceleration accounts for gravity
  for (int i = 1; i <= model.nb; ++i) {
    const int p = model.parent[i];
    JointCalc& jc = data.jc[i];
    const int vi = model.v_index[i];
    joint_calc(model.joints[i], q.data() + model.q_index[i], qd.data() + vi, jc);
    data.Xup[i] = compose_joint(model.joints[i], jc.XJ, model.X_tree[i]);
    data.v[i] = data.Xup[i].apply(data.v[p]);
    add_joint_velocity(model.joints[i], jc, data.v[i]);
    data.a[i] = data.Xup[i].apply(data.a[p]) + joint_bias(model.joints[i], jc, data.v[i]);
    if (qdd) add_subspace_product(model.joints[i], jc.S, qdd->data() + vi, data.a[i]);
    const RigidBodyInertia& I = model.inertia[i];
    data.f[i] = I * data.a[i] + cross_force(data.v[i], I * data.v[i]);
    if (f_ext) {
      data.X0[i] = p > 0 ? data.Xup[i] * data.X0[p] : data.Xup[i];
      data.f[i] -= data.X0[i].apply_force((*f_ext)[i]);
    }
  }
}

// Pass 2: joint forces, inward. all_forces = false when only τ is wanted: a force is then not
// carried into a parent that cannot move (a welded base), whose f enters no τ.
void rnea_backward(const Model& model, Data& data, VecX& tau, bool all_forces = true) {
  for (int i = model.nb; i >= 1; --i) {
    const int vi = model.v_index[i];
    subspace_transpose_product(model.joints[i], data.jc[i].S, data.f[i], tau.data() + vi);
    const int p = model.parent[i];
    if (p > 0 && (all_forces || body_moves(model, p)))
      data.f[p] += data.Xup[i].transpose_apply(data.f[i]);
  }
}
}  // namespace

const VecX& rnea(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& qdd,
                 const ExternalForces* f_ext) {  // RBDA Table 5.1
  rnea_forward(model, data, q, qd, &qdd, f_ext);
  rnea_backward(model, data, data.tau);
  return data.tau;
}

const VecX& nonlinear_effects_from_kinematics(const Model& model, Data& data,
                                              const ExternalForces* f_ext) {
  data.a[0] = -model.a_grav;
  for (int i = 1; i <= model.nb; ++i) {
    data.a[i] = data.Xup[i].apply(data.a[model.parent[i]]) + data.c[i];  // q̈ = 0
    const RigidBodyInertia& I = model.inertia[i];
    data.f[i] = I * data.a[i] + cross_force(data.v[i], I * data.v[i]);
    if (f_ext) data.f[i] -= data.X0[i].apply_force((*f_ext)[i]);
  }
  rnea_backward(model, data, data.C);
  return data.C;
}

const VecX& nonlinear_effects_from_bias_kinematics(const Model& model, Data& data,
                                                   const ExternalForces* f_ext) {
  const Vec3 g = model.gravity();
  for (int i = 1; i <= model.nb; ++i) {
    Motion a = data.a[i];
    const Mat3& E = data.X0[i].E;
    for (int k = 0; k < 3; ++k) a[3 + k] -= E(k, 0) * g[0] + E(k, 1) * g[1] + E(k, 2) * g[2];
    const RigidBodyInertia& I = model.inertia[i];
    // Summed element by element: both terms were just stored scalar by scalar, and Eigen's
    // 2-wide loads of them would stall on store forwarding.
    const Force ia = I * a, vxiv = cross_force(data.v[i], I * data.v[i]);
    for (int e = 0; e < 6; ++e) data.f[i][e] = ia[e] + vxiv[e];
    if (f_ext) data.f[i] -= data.X0[i].apply_force((*f_ext)[i]);
  }
  rnea_backward(model, data, data.C, false);  // C only: a welded base's force is not needed
  return data.C;
}

const VecX& nonlinear_effects(const Model& model, Data& data, const VecX& q, const VecX& qd,
                              const ExternalForces* f_ext) {
  rnea_forward(model, data, q, qd, nullptr, f_ext);
  rnea_backward(model, data, data.C);
  return data.C;
}

}  // namespace articula
