#include "core/sim/snapshot.hpp"

#include "core/algorithms/energy.hpp"
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
  out.loop_error = sim.loop_error();
  forward_kinematics(model, data, out.q, out.qd);
  out.X0.resize(model.nb + 1);
  out.X0[0] = Transform();
  for (int i = 1; i <= model.nb; ++i) out.X0[i] = data.X0[i];
  out.kinetic_energy = kinetic_energy(model, data);
  double V = potential_energy(model, data);
  for (const SpringBinding& s : mech.springs)
    if (s.q >= 0) V += 0.5 * s.stiffness * (out.q[s.q] - s.rest) * (out.q[s.q] - s.rest);
  out.potential_energy = V;
  out.work = sim.energy().work;
  out.dissipated = sim.energy().dissipated;
}

}  // namespace articula
