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

// f = I s for column k of S, into scalars: for s = e_a, column a of [Ibar h×; -h× m1] (RBDA
// Eq. 2.63), read off. f stays a plain array in this file: Eigen's 2-wide loads of a vector just
// written scalar by scalar stall on store forwarding.
void inertia_times_column(const RigidBodyInertia& I, const Mat6X& S, int k, int a, double* f) {
  const Vec3& h = I.h;
  if (a < 0) {
    const double* v = S.data() + 6 * k;
    for (int e = 0; e < 3; ++e)
      f[e] = I.Ibar(e, 0) * v[0] + I.Ibar(e, 1) * v[1] + I.Ibar(e, 2) * v[2];
    f[0] += h[1] * v[5] - h[2] * v[4];
    f[1] += h[2] * v[3] - h[0] * v[5];
    f[2] += h[0] * v[4] - h[1] * v[3];
    f[3] = I.m * v[3] - (h[1] * v[2] - h[2] * v[1]);
    f[4] = I.m * v[4] - (h[2] * v[0] - h[0] * v[2]);
    f[5] = I.m * v[5] - (h[0] * v[1] - h[1] * v[0]);
  } else if (a < 3) {  // e_a angular: [Ibar e_a; e_a × h]
    for (int e = 0; e < 3; ++e) f[e] = I.Ibar(e, a);
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    f[3 + a] = 0.0, f[3 + b] = -h[c], f[3 + c] = h[b];
  } else {  // e_a linear: [h × e_a; m e_a]
    a -= 3;
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    f[a] = 0.0, f[b] = h[c], f[c] = -h[b];
    f[3] = f[4] = f[5] = 0.0;
    f[3 + a] = I.m;
  }
}

// f := X^T f (transform.hpp's transpose_apply on the array).
void transpose_apply_in_place(const Transform& X, double* f) {
  double n[3], l[3];
  X.rot_t(f[0], f[1], f[2], n);
  X.rot_t(f[3], f[4], f[5], l);
  const Vec3& r = X.r;
  f[0] = n[0] + (r[1] * l[2] - r[2] * l[1]);
  f[1] = n[1] + (r[2] * l[0] - r[0] * l[2]);
  f[2] = n[2] + (r[0] * l[1] - r[1] * l[0]);
  f[3] = l[0], f[4] = l[1], f[5] = l[2];
}

// s^T f for column l of S, with a = unit_axis(joint, l).
double column_dot(const double* f, const Mat6X& S, int l, int a) {
  if (a >= 0) return f[a];
  const double* s = S.data() + 6 * l;
  return f[0] * s[0] + f[1] * s[1] + f[2] * s[2] + f[3] * s[3] + f[4] * s[4] + f[5] * s[5];
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
      double f[6];
      inertia_times_column(data.IC[i], Si, k, unit_axis(model.joints[i], k), f);
      for (int l = 0; l <= k; ++l)
        data.H(vi + k, vi + l) = data.H(vi + l, vi + k) =
            column_dot(f, Si, l, unit_axis(model.joints[i], l));
      int j = i;
      for (int t = model.lambda_v[vi]; t >= 0; t = model.lambda_v[model.v_index[j]]) {
        const int b = model.v_body[t];
        for (; j != b; j = model.parent[j]) transpose_apply_in_place(data.Xup[j], f);
        const int vj = model.v_index[j];
        const Mat6X& Sj = data.jc[j].S;
        for (int l = 0; l < model.joints[j].nv(); ++l)
          data.H(vi + k, vj + l) = data.H(vj + l, vi + k) =
              column_dot(f, Sj, l, unit_axis(model.joints[j], l));
      }
    }
  }
  return data.H;
}

}  // namespace articula
