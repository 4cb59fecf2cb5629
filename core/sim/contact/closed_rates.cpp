#include "core/sim/contact/closed_rates.hpp"

#include "core/algorithms/constrained_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"

namespace articula {

double kinetic_energy_lower(const MatX& H, const VecX& qd) {
  return 0.5 * qd.dot(H.selfadjointView<Eigen::Lower>() * qd);
}

// The rates left on the closed unilaterals (rows held from rest below kRest, a bounce brought to
// rest) taken out by a plastic impulse on the loop-constrained system, Δq̇ = H^-1 G^T π with the
// loops' and drives' rates kept (G Δq̇ = 0 on their rows), and accounted as an impact is: the
// unilaterals' impulses' work is impact loss, the rest of the change in T the drives' work. The
// Euclidean projection that took these rates out before changed T to first order in the rate
// (by the momentum times Δq̇, unaccounted): 1.1e-5 J on the walker for a 6.6e-7 m/s rate, the
// 2.6e-4 J residual of its 5 s run. The last nu rows of the set are the closed unilaterals'.
void absorb_closed_rates(const Model& model, Data& data, ConstraintSet& set,
                         const ConstraintContext& c, std::size_t nu, VecX& qd,
                         EnergyAccount& account) {
  if (nu == 0) return;
  forward_kinematics_bias(model, data, *c.q, qd);
  set.acceleration(c);
  const MatX& G = set.G();
  const int row0 = static_cast<int>(G.rows() - nu), n = static_cast<int>(nu);
  const VecX before = G.middleRows(row0, n) * qd;
  if (!(before.cwiseAbs().maxCoeff() > 0.0)) return;
  crba(model, data, *c.q);
  if (!ltdl_factor(model, data)) return;  // bodies without mass: left to the projection
  data.C.setZero(model.nv);
  VecX g = VecX::Zero(G.rows());
  g.segment(row0, n) = -before;
  ConstrainedDynamicsWork work;
  constrained_forward_dynamics(model, data, G, g, VecX::Zero(model.nv), work);
  const double T0 = kinetic_energy_lower(data.H, qd);
  qd += data.qdd;
  const VecX after = G.middleRows(row0, n) * qd;
  double contact_work = 0.0;
  for (int r = 0; r < n; ++r) contact_work += work.mu[row0 + r] * (before[r] + after[r]) / 2;
  account.add_impact(-contact_work, kinetic_energy_lower(data.H, qd) - T0 - contact_work);
}

}  // namespace articula
