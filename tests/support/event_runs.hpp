#pragma once
// Stepping a simulation with fixed RK4 steps and keeping every located event on the way (the
// contact, limit and friction tests read impact, lift-off, stick and slip instants from them).
#include <cmath>
#include <vector>

#include "core/sim/simulation.hpp"

namespace articula::test {

// round(duration / h) RK4 steps of h (s); the events in the order the simulation located them.
inline std::vector<Simulation::ContactEvent> run_collecting_events(Simulation& sim, double duration,
                                                                   double h) {
  std::vector<Simulation::ContactEvent> all;
  for (long i = 0, n = std::lround(duration / h); i < n; ++i) {
    sim.step(h, Integrator::RK4);
    for (auto& e : sim.take_events()) all.push_back(e);
  }
  return all;
}

}  // namespace articula::test
