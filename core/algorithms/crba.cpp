#include "core/algorithms/crba.hpp"

namespace articula {

const MatX& crba(const Model& model, Data& data, const VecX& q) {  // RBDA Table 6.2
  static const double kZero[6] = {0, 0, 0, 0, 0, 0};  // velocities are irrelevant here
  for (int i = 1; i <= model.nb; ++i) {
    if (is_axial_revolute(model.joints[i])) jcalc_axial_revolute(q[model.q_index[i]], 0.0, data.jc[i]);
    else jcalc(model.joints[i], q.data() + model.q_index[i], kZero, data.jc[i]);  // S depends on q
    data.Xup[i] = compose_joint(model.joints[i], data.jc[i].XJ, model.X_tree[i]);
  }
  return crba_from_kinematics(model, data);
}

const MatX& crba_from_kinematics(const Model& model, Data& data) {
  for (int i = 1; i <= model.nb; ++i) data.IC[i] = model.inertia[i];
  for (int i = model.nb; i >= 1; --i) {
    const int p = model.parent[i];
    if (p > 0) data.IC[p] += transpose_apply(data.Xup[i], data.IC[i]);
    const int ni = model.joints[i].nv();
    if (ni == 0) continue;
    const int vi = model.v_index[i];
    if (ni == 1) {  // the common case: one force vector carried up the ancestors
      Force f = data.IC[i] * Motion(data.jc[i].S.col(0));
      data.H(vi, vi) = f.dot(data.jc[i].S.col(0));
      for (int j = i; model.parent[j] > 0;) {
        f = data.Xup[j].transpose_apply(f);
        j = model.parent[j];
        const int vj = model.v_index[j];
        if (is_axial_revolute(model.joints[j])) {
          data.H(vi, vj) = data.H(vj, vi) = f[2];
          continue;
        }
        for (int k = 0; k < model.joints[j].nv(); ++k)
          data.H(vi, vj + k) = data.H(vj + k, vi) = f.dot(data.jc[j].S.col(k));
      }
      continue;
    }
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
