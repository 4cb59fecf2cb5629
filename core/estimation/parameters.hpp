#pragma once
// Parameters of the project file identified together with the motion (issue 20, `identify`):
// any number of the file named by JSON pointer (a mass, a centre of mass coordinate, an inertia,
// a spring rate, a damping). The mechanism is rebuilt from the file with the values set, so
// whatever the number feeds (compiled inertias, spring bindings) follows.
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/estimation/state_space.hpp"

namespace articula {

class ParameterModel {
 public:
  // Throws ProjectError naming the pointer when it does not lead to a number of the file.
  ParameterModel(const MechanismSpec& spec, std::vector<std::string> pointers);

  int size() const { return static_cast<int>(pointers_.size()); }
  const std::vector<std::string>& pointers() const { return pointers_; }
  const VecX& initial() const { return initial_; }  // the file's values
  // The state space of the mechanism with these values (the last few are kept). Throws
  // SetupError when the mechanism cannot be prepared with them (a negative mass).
  StateSpace& at(const VecX& values);

 private:
  struct Built {
    VecX values;
    std::unique_ptr<Mechanism> mech;
    std::unique_ptr<StateSpace> space;
  };
  nlohmann::json doc_;
  std::vector<std::string> pointers_;
  VecX initial_;
  std::deque<Built> built_;
};

// `identify` output: { "<pointer>": { "value": v, "sigma": s }, ... }.
nlohmann::json parameters_json(const ParameterModel& model, const VecX& values, const MatX& cov);

}  // namespace articula
