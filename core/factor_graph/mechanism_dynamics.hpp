#pragma once
// The instant factor-graph dynamics of a prepared mechanism (a project) at (t, q, q̇): motion
// drives give their joints' accelerations (the drive law's exact second derivative), every
// other joint its applied force (springs, dampers, force drives; body forces from loop-joint
// forces and spring-dampers); the graph solves the rest. With more motion drives than degrees
// of freedom (redundant actuation) the drive forces are the minimum-norm split (weights 1/σ²
// per drive, all 1 by default); contradictory laws throw fg::EliminationError naming the
// equations. What `articula-cli dynamics` prints.
#include <string>
#include <vector>

#include "core/factor_graph/dynamics_graph.hpp"
#include "core/sim/mechanism.hpp"

namespace articula::fg {

struct MechanismDynamicsOptions {
  EliminationOrder order = EliminationOrder::Colamd;
  // Per drive (Mechanism::drives order) σ of its minimum-force prior; empty: all 1.
  std::vector<double> drive_sigma;
};

struct MechanismDynamicsResult {
  VecX qdd;                         // tree coordinates (nv)
  VecX tau;                         // total generalized force per tree coordinate (nv)
  std::vector<double> drive_force;  // per Mechanism::drives entry: the actuator's force (motion
                                    // drives), the prescribed force (force drives)
  std::vector<double> drive_qdd;    // per drive: its joint's acceleration
  int motion_drives = 0, mobility = 0;
  bool redundant = false;  // more motion drives than degrees of freedom
  BayesNet net;
};

// Throws SetupError when the mechanism has what the factor graph does not model yet (joint
// couplings), fg::EliminationError when the drives contradict each other or leave the
// accelerations undetermined.
MechanismDynamicsResult mechanism_dynamics(const Mechanism& m, double t, const VecX& q,
                                           const VecX& qd,
                                           const MechanismDynamicsOptions& options = {});

// The graph behind it, for `info --graph` (unsolved; `data` is the workspace it ran in).
InstantInput mechanism_instant_input(const Mechanism& m, double t, const VecX& q, const VecX& qd,
                                     Data& data, const MechanismDynamicsOptions& options,
                                     std::vector<int>& loop_drive_of_drive);

}  // namespace articula::fg
