#pragma once
// Rates left on closed unilaterals taken out as an accounted plastic impulse (the contact
// stepper's rest and settle steps), and the kinetic energy the impacts book.
#include "core/sim/constraints/constraint_set.hpp"
#include "core/sim/energy_account.hpp"

namespace articula {

// ½ q̇ᵀ H q̇ from the lower triangle of H (as CRBA leaves it).
double kinetic_energy_lower(const MatX& H, const VecX& qd);

// The rates left on the last nu rows of the set (the closed unilaterals') removed by a plastic
// impulse with the loops and drives held, booked in the account (see the .cpp). Needs c.q.
void absorb_closed_rates(const Model& model, Data& data, ConstraintSet& set,
                         const ConstraintContext& c, std::size_t nu, VecX& qd,
                         EnergyAccount& account);

}  // namespace articula
