#pragma once
// A sample prepared from samples/ and a snapshot of it after a few RK4 steps of its own run (the
// render tests draw scenes from such snapshots, away from the initial state).
#include <string>

#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/snapshot.hpp"

namespace articula::test {

inline Mechanism prepared_sample(const std::string& file) {
  return prepare(load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/" + file).spec);
}

// `steps` RK4 steps of 1 ms from the sample's initial state, then its snapshot.
inline Snapshot snapshot_after(const Mechanism& mech, int steps) {
  Simulation sim(mech);
  for (int k = 0; k < steps; ++k) sim.step(1e-3, Integrator::RK4);
  sim.evaluate();
  Data data(mech.model());
  Snapshot snap;
  take_snapshot(sim, data, snap);
  return snap;
}

}  // namespace articula::test
