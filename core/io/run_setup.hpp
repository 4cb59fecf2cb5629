#pragma once
// What articula-cli and the Python module share between reading a file and simulating it: the
// spec compiled and assembled with graph problems reported as input errors, and the run options
// of the file's `simulation` block with the caller's overrides, checked field by field (JSON
// pointers, as the CLI reports them with exit status 2).
#include <optional>
#include <string>
#include <vector>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"

namespace articula {

// prepare(spec), with graph problems found while compiling as ProjectError("/joints", ...).
// SetupError (cannot assemble or simulate) passes through.
Mechanism prepare_project(const MechanismSpec& spec);

// What a caller may override (the CLI's simulate options); unset fields keep the file's values.
struct RunOverrides {
  std::optional<double> duration, step, sample;
  std::optional<std::string> integrator, solver;
  bool inverse = false;
};

// The file's settings with the overrides applied. Throws ProjectError naming the field
// (/simulation/integrator, /simulation/solver, /simulation) for a bad name or value.
RunOptions resolve_run_options(const Mechanism& mech, const RunOverrides& overrides);

// Springs too stiff for the chosen fixed step (the run would diverge): one warning each.
std::vector<std::string> run_warnings(const Mechanism& mech, const RunOptions& opt);

}  // namespace articula
