#include "core/algorithms/aba.hpp"

#include "core/algorithms/articulated_body.hpp"

namespace articula {

const VecX& aba(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                const ExternalForces* f_ext) {  // RBDA Table 7.1
  detail::ab_pass1(model, data, q, qd, f_ext, nullptr, nullptr);
  detail::ab_pass2(model, data, tau, nullptr);
  detail::ab_pass3(model, data, nullptr, nullptr);
  return data.qdd;
}

}  // namespace articula
