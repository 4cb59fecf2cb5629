#pragma once
// Articulated-body forward dynamics (RBDA Table 7.1).
#include "core/algorithms/rnea.hpp"

namespace articula {

// q̈ = FD(q, qd, τ) with gravity and external forces (base coordinates). Returns data.qdd.
const VecX& aba(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                const ExternalForces* f_ext = nullptr);

}  // namespace articula
