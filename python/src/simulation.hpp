#pragma once
// articula.Simulation: a core Simulation that keeps its prepared Mechanism alive, with the
// file's run settings as defaults for step() and run_to().
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "core/io/run_setup.hpp"
#include "project.hpp"

namespace articula::py {

class PySimulation {
 public:
  PySimulation(std::shared_ptr<const Mechanism> mech, const SimulationOptions& options);

  Simulation& sim() { return *sim_; }
  const Mechanism& mechanism() const { return *mech_; }
  const RunOptions& defaults() const { return defaults_; }
  // evaluate() unless the outputs are those of the current state already.
  void ensure_evaluated();
  void stepped() { evaluated_ = false; }

 private:
  std::shared_ptr<const Mechanism> mech_;
  std::unique_ptr<Simulation> sim_;  // refers to *mech_
  RunOptions defaults_;
  bool evaluated_ = false;
};

PySimulation make_simulation(const Project& p, std::optional<std::string> solver, bool inverse,
                             double stabilization_time);

}  // namespace articula::py
