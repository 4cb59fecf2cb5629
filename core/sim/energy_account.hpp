#pragma once
// The energy balance of a run: kinetic and potential energy at an instant, and the work done by
// drives and applied forces and the energy dissipated by dampers since t = 0, integrated with
// the same quadrature as the state (the power is recorded at every integrator stage). The
// residual T + V - (T0 + V0) - W + D + impact losses is zero for an exact integration.
#include "core/model/data.hpp"

namespace articula {

struct Energy {
  double kinetic = 0, potential = 0, work = 0, dissipated = 0, residual = 0;
  double impact_loss = 0;  // kinetic energy lost in impacts since t = 0 (RBDA 11.7)
  double power = 0;        // drive and applied-force power at this instant
};

class EnergyAccount {
 public:
  // Stages of one step: record() stores the power at each, commit_*() adds the step's integral.
  void begin_step() { stage_ = 0; }
  void end_step() { stage_ = -1; }
  bool recording() const { return stage_ >= 0 && stage_ < kStages; }
  void record(double power, double dissipation);
  void commit_rk4(double h);
  void commit_euler(double h);
  void commit_dopri5(double h);

  // The state of the account (saved with a step, restored on failure or scrub-back).
  double work() const { return work_; }
  double dissipated() const { return dissipated_; }
  void reset(double work, double dissipated, double impact_loss = 0.0) {
    work_ = work, dissipated_ = dissipated, impact_loss_ = impact_loss;
  }
  double impact_loss() const { return impact_loss_; }
  // An impact: the kinetic energy it took, and the work of the drives' impulses.
  void add_impact(double loss, double drive_work) { impact_loss_ += loss, work_ += drive_work; }

  // Energy at an instant from T and V; the first call (or set_reference) fixes T0 + V0.
  void set_reference(double kinetic, double potential) { initial_ = kinetic + potential; }
  Energy balance(double kinetic, double potential, double power) const;

 private:
  static constexpr int kStages = 7;
  double power_[kStages] = {}, dissipation_[kStages] = {};
  int stage_ = -1;  // -1: not inside a step
  double work_ = 0.0, dissipated_ = 0.0, impact_loss_ = 0.0, initial_ = 0.0;
};

}  // namespace articula
