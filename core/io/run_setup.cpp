#include "core/io/run_setup.hpp"

#include <cmath>
#include <sstream>

#include "core/sim/diagnostics.hpp"

namespace articula {

Mechanism prepare_project(const MechanismSpec& spec) {
  try {
    return prepare(spec);
  } catch (const std::invalid_argument& e) {  // graph problems found while compiling
    throw ProjectError("/joints", e.what());
  }
}

RunOptions resolve_run_options(const Mechanism& mech, const RunOverrides& o) {
  RunOptions opt;
  try {
    opt = run_options_from(mech.spec);
  } catch (const std::invalid_argument& e) {  // a value the loader could not judge alone
    throw ProjectError("/simulation/solver", e.what());
  }
  if (o.duration && *o.duration >= 0) opt.duration = *o.duration;
  if (o.step && *o.step > 0) opt.step = *o.step;
  if (o.integrator && !o.integrator->empty()) {
    try {
      opt.integrator = integrator_from_name(*o.integrator);
    } catch (const std::invalid_argument& e) {
      throw ProjectError("/simulation/integrator", e.what());
    }
  }
  if (o.solver && !o.solver->empty()) {
    try {
      opt.solver = solver_from_name(*o.solver);
    } catch (const std::invalid_argument& e) {
      throw ProjectError("/simulation/solver", e.what());
    }
  }
  opt.sample = o.sample.value_or(0.0);
  opt.require_fully_driven = o.inverse;
  if (!(opt.step > 0) || !(opt.duration >= 0))
    throw ProjectError("/simulation", "step must be positive and duration non-negative");
  // A run nobody can wait for is refused with its size rather than started (issue 23).
  const double steps = std::ceil(opt.duration / opt.step);
  if (opt.step < 1e-9 || steps > 1e8) {
    std::ostringstream os;
    os << steps << " steps (duration " << opt.duration << " s, step " << opt.step
       << " s): a step below 1e-9 s or more than 1e8 steps is refused; choose a larger step";
    throw ProjectError("/simulation/step", os.str());
  }
  return opt;
}

std::vector<std::string> run_warnings(const Mechanism& mech, const RunOptions& opt) {
  Data data(mech.model());
  return stiffness_limits(mech, data, mech.q0, opt.step, opt.integrator);
}

}  // namespace articula
