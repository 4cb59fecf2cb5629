#include "core/model/data.hpp"

namespace articula {

Data::Data(const Model& model) {
  const std::size_t n = static_cast<std::size_t>(model.nb) + 1;
  jc.resize(n);
  Xup.resize(n);
  X0.resize(n);
  v.assign(n, Motion::Zero());
  a.assign(n, Motion::Zero());
  c.assign(n, Motion::Zero());
  f.assign(n, Force::Zero());
  tau = VecX::Zero(model.nv);
  IC.resize(n);
  C = VecX::Zero(model.nv);  // H and LD: on first use (reserve_mass_matrix)
  LD_dinv = VecX::Zero(model.nv);
  IA.assign(n, Mat6::Zero());
  pA.assign(n, Force::Zero());
  U.resize(n);
  Dinv.resize(n);
  u.resize(n);
  oS.resize(n);
  ov.assign(n, Motion::Zero());
  oa.assign(n, Motion::Zero());
  oc.assign(n, Motion::Zero());
  oIA.assign(n, Mat6::Zero());
  opA.assign(n, Force::Zero());
  oU.resize(n);
  for (int i = 1; i <= model.nb; ++i) {
    const int nv = model.joints[i].nv();
    jc[i].S.setZero(6, nv);
    U[i].setZero(6, nv);
    oS[i].setZero(6, nv);
    oU[i].setZero(6, nv);
    Dinv[i].setZero(nv, nv);
    u[i].setZero(nv);
  }
  qdd = VecX::Zero(model.nv);
  S0.assign(model.nv, Motion::Zero());
}

}  // namespace articula
