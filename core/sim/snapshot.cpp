#include "core/sim/snapshot.hpp"

#include "core/algorithms/kinematics.hpp"

namespace articula {

void take_snapshot(const Simulation& sim, Data& data, Snapshot& out) {
  const Mechanism& mech = sim.mechanism();
  const Model& model = mech.model();
  out.t = sim.time();
  out.q = sim.q();
  out.qd = sim.qd();
  out.qdd = sim.qdd();
  out.tau = sim.tau();
  out.joints = sim.joint_states();
  out.wrench = sim.wrench();
  out.coupling_tau = sim.coupling_forces();
  out.unilateral_force = sim.unilaterals().force;
  out.gap = sim.gaps();
  out.loop_error = sim.loop_error();
  forward_kinematics(model, data, out.q, out.qd);
  out.X0.resize(model.nb + 1);
  out.X0[0] = Transform();
  for (int i = 1; i <= model.nb; ++i) out.X0[i] = data.X0[i];
  // The balance evaluate() made: potential energy of gravity, joint springs (loop joints too)
  // and spring-dampers.
  out.kinetic_energy = sim.energy().kinetic;
  out.potential_energy = sim.energy().potential;
  out.work = sim.energy().work;
  out.dissipated = sim.energy().dissipated;
  out.impact_loss = sim.energy().impact_loss;
  out.energy_residual = sim.energy().residual;
  out.power = sim.energy().power;
}

}  // namespace articula
