#pragma once
// Articulated-body hybrid dynamics (RBDA Tables 9.2 and 9.3): some joints have a given
// acceleration (inverse-dynamics joints), the others a given force (forward-dynamics joints).
#include <vector>

#include "core/algorithms/rnea.hpp"

namespace articula {

// fd[i] (NB+1 entries) says whether joint i is a forward-dynamics joint. For those, tau_in gives
// τ_i and q̈_i is computed; for the others qdd_in gives q̈_i and τ_i is computed. On return
// data.qdd and data.tau hold the full vectors.
void hybrid_dynamics(const Model& model, Data& data, const VecX& q, const VecX& qd,
                     const VecX& qdd_in, const VecX& tau_in, const std::vector<bool>& fd,
                     const ExternalForces* f_ext = nullptr);

}  // namespace articula
