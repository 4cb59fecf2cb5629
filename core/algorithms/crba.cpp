#include "core/algorithms/crba.hpp"

namespace articula {

const MatX& crba(const Model& model, Data& data, const VecX& q) {  // RBDA Table 6.2
  for (int i = 1; i <= model.nb; ++i) {
    data.Xup[i] = joint_transform(model.joints[i], q.data() + model.q_index[i]) * model.X_tree[i];
    // S depends on q for some joints; velocities are irrelevant here.
    static const double kZero[6] = {0, 0, 0, 0, 0, 0};
    jcalc(model.joints[i], q.data() + model.q_index[i], kZero, data.jc[i]);
    data.IC[i] = model.inertia[i];
  }
  for (int i = model.nb; i >= 1; --i) {
    const int p = model.parent[i];
    if (p > 0) data.IC[p] += transpose_apply(data.Xup[i], data.IC[i]);
    const int ni = model.joints[i].nv();
    if (ni == 0) continue;
    const int vi = model.v_index[i];
    Mat6X& F = data.F[i];
    for (int k = 0; k < ni; ++k) F.col(k) = data.IC[i] * Motion(data.jc[i].S.col(k));
    data.H.block(vi, vi, ni, ni).noalias() = data.jc[i].S.transpose() * F;
    for (int j = i; model.parent[j] > 0;) {
      for (int k = 0; k < ni; ++k) F.col(k) = data.Xup[j].transpose_apply(Force(F.col(k)));
      j = model.parent[j];
      const int nj = model.joints[j].nv();
      if (nj == 0) continue;
      const int vj = model.v_index[j];
      data.H.block(vi, vj, ni, nj).noalias() = F.transpose() * data.jc[j].S;
      data.H.block(vj, vi, nj, ni) = data.H.block(vi, vj, ni, nj).transpose();
    }
  }
  return data.H;
}

}  // namespace articula
