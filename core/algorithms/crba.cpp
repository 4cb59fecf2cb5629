#include "core/algorithms/crba.hpp"

#include "core/model/joint_ops.hpp"

namespace articula {

const MatX& crba(const Model& model, Data& data, const VecX& q) {  // RBDA Table 6.2
  static const double kZero[6] = {0, 0, 0, 0, 0, 0};               // velocities are irrelevant here
  for (int i = 1; i <= model.nb; ++i) {
    joint_calc(model.joints[i], q.data() + model.q_index[i], kZero, data.jc[i]);  // S(q)
    data.Xup[i] = compose_joint(model.joints[i], data.jc[i].XJ, model.X_tree[i]);
  }
  return crba_from_kinematics(model, data);
}

const MatX& crba_from_kinematics(const Model& model, Data& data) {
  reserve_mass_matrix(data.H, model.nv);
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
    // product costs more in dispatch than in arithmetic. The products with S by dot6 (types.hpp):
    // Eigen's dot stalled on f's fresh stores, a fifth of CRBA's time on the Stewart platform.
    for (int k = 0; k < ni; ++k) {
      Force f = data.IC[i] * Motion(Si.col(k));
      for (int l = 0; l <= k; ++l)
        data.H(vi + k, vi + l) = data.H(vi + l, vi + k) = dot6(f.data(), Si.col(l).data());
      int j = i;
      for (int t = model.lambda_v[vi]; t >= 0; t = model.lambda_v[model.v_index[j]]) {
        const int b = model.v_body[t];
        for (; j != b; j = model.parent[j]) f = data.Xup[j].transpose_apply(f);
        const int vj = model.v_index[j];
        for_each_subspace_product(model, data, j, f, [&](int l, double h) {
          data.H(vi + k, vj + l) = data.H(vj + l, vi + k) = h;
        });
      }
    }
  }
  return data.H;
}

}  // namespace articula
