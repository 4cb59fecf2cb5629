#include "core/algorithms/hybrid_dynamics.hpp"

#include "core/algorithms/articulated_body.hpp"

namespace articula {

void hybrid_dynamics(const Model& model, Data& data, const VecX& q, const VecX& qd,
                     const VecX& qdd_in, const VecX& tau_in, const std::vector<bool>& fd,
                     const ExternalForces* f_ext) {  // RBDA Table 9.3
  detail::ab_pass1(model, data, q, qd, f_ext, &fd, &qdd_in);
  detail::ab_pass2(model, data, tau_in, &fd);
  detail::ab_pass3(model, data, &fd, &qdd_in);
  for (int i = 1; i <= model.nb; ++i)  // forward-dynamics joints keep the force they were given
    if (fd[i] && model.joints[i].nv() > 0)
      data.tau.segment(model.v_index[i], model.joints[i].nv()) =
          tau_in.segment(model.v_index[i], model.joints[i].nv());
}

}  // namespace articula
