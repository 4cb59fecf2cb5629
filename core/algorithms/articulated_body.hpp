#pragma once
// The three passes shared by the articulated-body algorithm (RBDA Table 7.1) and its hybrid
// version (Table 9.3). fd == nullptr means every joint is a forward-dynamics joint.
#include <vector>

#include "core/algorithms/rnea.hpp"

namespace articula::detail {

// Pass 1: v_i, c_i (plus S q̈ for inverse-dynamics joints), I^A_i = I_i, p^A_i.
void ab_pass1(const Model& model, Data& data, const VecX& q, const VecX& qd,
              const ExternalForces* f_ext, const std::vector<bool>* fd, const VecX* qdd_in);
// Pass 2: U, D^-1, u at forward-dynamics joints; accumulate I^A and p^A inward.
void ab_pass2(const Model& model, Data& data, const VecX& tau, const std::vector<bool>* fd);
// Pass 3: accelerations outward; q̈ at forward-dynamics joints, τ at inverse-dynamics joints.
void ab_pass3(const Model& model, Data& data, const std::vector<bool>* fd, const VecX* qdd_in);

}  // namespace articula::detail
