#pragma once
// A renderer- and GUI-neutral copy of the simulation state at one instant (MuJoCo's simulate:
// the physics thread hands out snapshots, the GUI never touches the live Simulation).
#include <vector>

#include "core/sim/simulation.hpp"

namespace articula {

struct Snapshot {
  double t = 0.0;
  VecX q, qd, qdd, tau;                        // model coordinates (nq / nv)
  std::vector<Simulation::JointState> joints;  // per user joint (file order)
  std::vector<Force> wrench;                   // per user joint, child joint frame [n; f]
  std::vector<double> coupling_tau;            // per coupling: generalized force on joint B
  std::vector<double> unilateral_force;        // per limit / contact (bind_unilaterals order): λ
  std::vector<double> gap;                     // per limit / contact: φ (m or rad)
  std::vector<Transform> X0;                   // per model body: ^iX_0 (base to body)
  double loop_error = 0.0;
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;              // gravity and joint springs
  double work = 0.0, dissipated = 0.0;        // energy account since t = 0 (to resume)
  double impact_loss = 0.0;                   // energy taken by impacts since t = 0
  double energy_residual = 0.0, power = 0.0;  // the simulation's balance (CSV columns)
};

// Fill `out` from the simulation's last evaluate(); reuses out's storage (no allocation once
// sized). Runs forward kinematics on `data` (a Data of the same model) for the body poses.
void take_snapshot(const Simulation& sim, Data& data, Snapshot& out);

}  // namespace articula
