#include "core/algorithms/crba.hpp"

namespace articula {

const MatX& crba(const Model& model, Data& data, const VecX& q) {  // RBDA Table 6.2
  static const double kZero[6] = {0, 0, 0, 0, 0, 0};               // velocities are irrelevant here
  for (int i = 1; i <= model.nb; ++i) {
    if (is_axial_revolute(model.joints[i]))
      jcalc_axial_revolute(q[model.q_index[i]], 0.0, data.jc[i]);
    else
      jcalc(model.joints[i], q.data() + model.q_index[i], kZero, data.jc[i]);  // S depends on q
    data.Xup[i] = compose_joint(model.joints[i], data.jc[i].XJ, model.X_tree[i]);
  }
  return crba_from_kinematics(model, data);
}

namespace {
// a when column k of the joint's S is the unit vector e_a (RBDA Table 4.1), else -1.
int unit_axis(const Joint& joint, int k) {
  if (joint.reversed) return -1;
  switch (joint.type) {
    case JointType::Revolute: return 2;
    case JointType::Prismatic: return 5;
    case JointType::Cylindrical: return k == 0 ? 2 : 5;
    case JointType::Universal: return k == 1 ? 1 : -1;
    case JointType::Spherical:
    case JointType::Free: return k;
    default: return -1;
  }
}

// I s for column k of S: for s = e_a, column a of [Ibar h×; -h× m1] (RBDA Eq. 2.63), read off.
Force inertia_times_column(const RigidBodyInertia& I, const Mat6X& S, int k, int a) {
  if (a < 0) return I * Motion(S.col(k));
  const Vec3& h = I.h;
  Force f;
  if (a < 3) {  // e_a angular: [Ibar e_a; -h × e_a]
    f.head<3>() = I.Ibar.col(a);
    const Vec3 e = Vec3::Unit(a);
    f.tail<3>() = e.cross(h);
  } else {  // e_b linear: [h × e_b; m e_b]
    const Vec3 e = Vec3::Unit(a - 3);
    f.head<3>() = h.cross(e);
    f.tail<3>() = I.m * e;
  }
  return f;
}

// s^T f for column l of S, with a = unit_axis(joint, l).
double column_dot(const Force& f, const Mat6X& S, int l, int a) {
  return a >= 0 ? f[a] : f.dot(S.col(l));
}
}  // namespace

const MatX& crba_from_kinematics(const Model& model, Data& data) {
  for (int i = 1; i <= model.nb; ++i) data.IC[i] = model.inertia[i];
  for (int i = model.nb; i >= 1; --i) {
    const int p = model.parent[i];
    if (body_moves(model, p)) data.IC[p] += transpose_apply(data.Xup[i], data.IC[i]);
    const int ni = model.joints[i].nv();
    if (ni == 0) continue;
    const int vi = model.v_index[i];
    const Mat6X& Si = data.jc[i].S;
    // Column by column: one force vector f = I^c_i s_k carried up to the ancestors that have
    // degrees of freedom (λ' gives them), in fixed-size scalars: a dynamic-size 6 x ni block
    // product costs more in dispatch than in arithmetic. Unit columns of S (most joints') are
    // read off instead of multiplied.
    for (int k = 0; k < ni; ++k) {
      Force f = inertia_times_column(data.IC[i], Si, k, unit_axis(model.joints[i], k));
      for (int l = 0; l <= k; ++l)
        data.H(vi + k, vi + l) = data.H(vi + l, vi + k) = column_dot(f, Si, l, unit_axis(model.joints[i], l));
      int j = i;
      for (int t = model.lambda_v[vi]; t >= 0; t = model.lambda_v[model.v_index[j]]) {
        const int b = model.v_body[t];
        for (; j != b; j = model.parent[j]) f = data.Xup[j].transpose_apply(f);
        const int vj = model.v_index[j];
        const Mat6X& Sj = data.jc[j].S;
        for (int l = 0; l < model.joints[j].nv(); ++l)
          data.H(vi + k, vj + l) = data.H(vj + l, vi + k) = column_dot(f, Sj, l, unit_axis(model.joints[j], l));
      }
    }
  }
  return data.H;
}

}  // namespace articula
