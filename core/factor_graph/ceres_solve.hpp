#pragma once
// The same factor graph solved by Ceres Solver 2.1 (Debian libceres-dev, with SuiteSparse):
// every factor a cost function with its analytic Jacobians, known variables constant blocks,
// Levenberg-Marquardt with sparse normal Cholesky (SuiteSparse's AMD fill-reducing order).
// Ceres has no equality constraints: hard factors are weighted by hard_weight, so hard and soft
// factors together are solved only approximately (1/hard_weight²); square problems (inverse,
// forward, hybrid dynamics) exactly. Built only when Ceres is found (have_ceres()).
#include "core/factor_graph/factor_graph.hpp"

namespace articula::fg {

bool have_ceres();

struct CeresReport {
  int iterations = 0;
  double initial_cost = 0.0, final_cost = 0.0;
  bool converged = false;
  std::string message;
};

// Solves for the graph's unknowns from their current values and writes them back.
// Throws std::runtime_error when Ceres is not built in.
CeresReport solve_with_ceres(FactorGraph& graph, double hard_weight = 1.0, int max_iterations = 50);

}  // namespace articula::fg
