#pragma once
// What makes a coupling valid (contract-additions-2 §1), in one place for the file loader (which
// turns a problem into a JSON-pointer error) and the editor (which shows it in Properties).
#include <optional>
#include <string>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

// A problem with one field of a coupling: `field` is the path below the coupling ("name",
// "joints/0", "ratio", "radii/1"), `message` says what is wrong and what is expected.
struct CouplingProblem {
  std::string field;
  std::string message;
};

// Checks `c` against the joints of `spec` (and the names of its other couplings; `index` is the
// coupling's own position, -1 when it is new). Nothing when valid.
std::optional<CouplingProblem> coupling_problem(const MechanismSpec& spec, int index,
                                                const CouplingSpec& c);

// A coupling ratio from pitch radii: -rA/rB for an external gear pair, rA/rB for a belt, rA (m/rad)
// for a rack and pinion; nothing for a linear coupling (its ratio is free).
std::optional<double> ratio_from_radii(CouplingSpec::Type type, double rA, double rB);

// Pitch radii for a new ratio: a gear pair keeps its centre distance rA + rB, a belt its
// pulley B; other types keep `radii`.
std::array<double, 2> radii_for_ratio(CouplingSpec::Type type, double ratio,
                                      const std::array<double, 2>& radii);

// The couplings that name joint `name` (positions in spec.couplings, ascending).
std::vector<int> couplings_on_joint(const MechanismSpec& spec, const std::string& name);

}  // namespace articula
