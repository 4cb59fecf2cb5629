#pragma once
// What `articula-cli fg-simulate` and the Python articula.fixed_lag_forward share around
// fg::fixed_lag_forward (issue 19): its options from the file's `simulation` block (step,
// duration) with the caller's overrides, the names of its coordinates, and its CSV. The solver
// itself is core/factor_graph/fixed_lag_forward.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/factor_graph/fixed_lag_forward.hpp"

namespace articula::fg {

// Unset step and duration come from the file's simulation block (defaults 1 ms, 5 s); sigma is
// the one σ of all four factor kinds (the paper's Table 2 uses 1e-3 for each).
struct FixedLagOverrides {
  std::optional<double> step, duration;  // s
  int window = 2;
  double sigma = 1e-3;
};

// The solver's options. Throws std::invalid_argument naming the option for a step or sigma that
// is not > 0, a negative duration or a window < 1 (the CLI's exit status 2, Python's ValueError).
FixedLagOptions fixed_lag_options(const Mechanism& m, const FixedLagOverrides& overrides);

// Per model coordinate (the columns of FixedLagResult::q and qd): its user joint's column name
// as `simulate` writes it (J.q, or J.q[k] for multi-coordinate joints).
std::vector<std::string> fixed_lag_coordinate_names(const Mechanism& m);

// CSV columns: t; J.q of every tree joint in file order (names as `simulate`'s CSV); J.qd of
// the same; loop_error (max |δ| over the loop constraints at that row's q, m or rad; 0 for
// trees). Loop joints have no columns: their coordinates are not unknowns of the solver.
std::vector<std::string> fixed_lag_csv_header(const Mechanism& m);
// Header, then one row per instant of r, numbers as format_number writes them.
void write_fixed_lag_csv(const Mechanism& m, const FixedLagResult& r, std::ostream& out);

}  // namespace articula::fg
