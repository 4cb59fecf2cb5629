#include "core/algorithms/jacobian.hpp"

namespace articula {

void base_jacobian(const Model& model, const Data& data, int body, MatX& J) {
  J.setZero(6, model.nv);
  for (int j = body; j > 0; j = model.parent[j]) {
    const int vj = model.v_index[j];
    for (int k = 0; k < model.joints[j].nv(); ++k)
      J.col(vj + k) = data.X0[j].inverse_apply(Motion(data.jc[j].S.col(k)));
  }
}

void body_jacobian(const Model& model, const Data& data, int body, MatX& J) {
  base_jacobian(model, data, body, J);
  for (int c = 0; c < model.nv; ++c) J.col(c) = data.X0[body].apply(Motion(J.col(c)));
}

void point_jacobian(const Model& model, const Data& data, int body, const Vec3& p_body, MatX& J) {
  MatX Js;
  base_jacobian(model, data, body, Js);
  const Vec3 p = data.X0[body].r + data.X0[body].E.transpose() * p_body;  // base coordinates
  J.resize(3, model.nv);
  for (int c = 0; c < model.nv; ++c)  // v_p = v_O + ω × p
    J.col(c) = Js.col(c).tail<3>() + Js.col(c).head<3>().cross(p);
}

}  // namespace articula
