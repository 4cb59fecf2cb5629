#include "core/sim/energy_account.hpp"

#include "core/sim/integrators.hpp"

namespace articula {

void EnergyAccount::record(double power, double dissipation) {
  power_[stage_] = power;
  dissipation_[stage_] = dissipation;
  ++stage_;
}

void EnergyAccount::commit_rk4(double h) {
  const double* P = power_;
  const double* D = dissipation_;
  work_ += h / 6 * (P[0] + 2 * P[1] + 2 * P[2] + P[3]);  // the same quadrature as the states
  dissipated_ += h / 6 * (D[0] + 2 * D[1] + 2 * D[2] + D[3]);
}

void EnergyAccount::commit_euler(double h) {
  work_ += h * power_[0];
  dissipated_ += h * dissipation_[0];
}

void EnergyAccount::commit_dopri5(double h) {
  for (int s = 0; s < kStages; ++s) {
    work_ += h * kDopri5Weights[s] * power_[s];
    dissipated_ += h * kDopri5Weights[s] * dissipation_[s];
  }
}

Energy EnergyAccount::balance(double kinetic, double potential, double power) const {
  Energy e;
  e.kinetic = kinetic;
  e.potential = potential;
  e.work = work_;
  e.dissipated = dissipated_;
  e.impact_loss = impact_loss_;
  e.residual = kinetic + potential - initial_ - work_ + dissipated_ + impact_loss_;
  e.power = power;
  return e;
}

}  // namespace articula
