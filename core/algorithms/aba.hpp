#pragma once
// Articulated-body forward dynamics (RBDA Table 7.1).
#include "core/algorithms/rnea.hpp"

namespace articula {

// q̈ = FD(q, qd, τ) with gravity and external forces (base coordinates). Returns data.qdd.
const VecX& aba(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                const ExternalForces* f_ext = nullptr);

// aba()'s passes, for algorithms that treat some bodies otherwise (the embedded ABA,
// core/sim/embedding/embedded_aba.hpp). Pass 1: base-coordinate kinematics oS, ov, oc, X0 and
// the rigid inertias oIA with bias forces opA. Pass 2 at body i (call tip to base): its D^-1,
// u, oU, and its articulated inertia and bias folded into its parent's oIA, opA. Pass 3 at body
// i (call base to tip, data.oa[0] = -a_grav first): its q̈ and oa from its parent's oa.
void aba_pass1(const Model& model, Data& data, const VecX& q, const VecX& qd,
               const ExternalForces* f_ext = nullptr);
void aba_pass2_body(const Model& model, Data& data, int i, const VecX& tau);
void aba_pass3_body(const Model& model, Data& data, int i);

}  // namespace articula
