#pragma once
// Recursive Newton-Euler inverse dynamics (RBDA Table 5.1).
#include <vector>

#include "core/model/data.hpp"

namespace articula {

// External forces: one spatial force per body (NB+1 entries, entry 0 ignored), expressed in base
// coordinates as in RBDA (f^x_i). nullptr means none.
using ExternalForces = std::vector<Force>;

// τ = ID(q, qd, qdd) with gravity and external forces. Returns data.tau; also fills data.v, a, f.
const VecX& rnea(const Model& model, Data& data, const VecX& q, const VecX& qd, const VecX& qdd,
                 const ExternalForces* f_ext = nullptr);

// C(q, qd) = ID(q, qd, 0): Coriolis, centrifugal, gravity and external forces. Returns data.C.
const VecX& nonlinear_effects(const Model& model, Data& data, const VecX& q, const VecX& qd,
                              const ExternalForces* f_ext = nullptr);
// The same from data.Xup, X0, v and c of a forward_kinematics(q, qd) pass at this state.
const VecX& nonlinear_effects_from_kinematics(const Model& model, Data& data,
                                              const ExternalForces* f_ext = nullptr);
// The same when data.a already holds the velocity-product accelerations (q̈ = 0, no gravity) of
// a forward_kinematics_bias(q, qd) pass, as loop_constraints leaves it: gravity enters as the
// base acceleration -a_g seen from body i, ^iX_0 (-a_g) = [0; -E_i g], so the outward pass is
// skipped. data.a is left as it was.
const VecX& nonlinear_effects_from_bias_kinematics(const Model& model, Data& data,
                                                   const ExternalForces* f_ext = nullptr);

}  // namespace articula
