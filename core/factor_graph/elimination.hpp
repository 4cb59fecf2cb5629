#pragma once
// Variable elimination of a factor graph linearised at its current values (Xie-Dellaert §IV-A):
// each unknown, in the given order, is expressed in terms of the variables eliminated after it
// (a conditional), and the factors it touched are replaced by one new factor on those variables
// (fill-in). The conditionals form the Bayes net (a DAG), solved by back-substitution.
//
// Hard factors are kept exact: eliminating x, the hard rows fix as many components of x as
// their rank allows (column-pivoted QR), the soft rows choose the rest in the least-squares
// sense, and the hard rows left over become a hard factor on the remaining variables. This is
// variable elimination of the equality-constrained least-squares problem, so a minimum-torque
// prior gives the exact minimum-norm split of redundant actuators while every dynamics
// equation holds to round-off. Linear problems (dynamics at a known q, q̇) are solved in one
// pass; nonlinear ones by Gauss-Newton steps (solve_gauss_newton).
#include <stdexcept>
#include <string>
#include <vector>

#include "core/factor_graph/factor_graph.hpp"

namespace articula::fg {

// The problem cannot be solved in the order given: an unknown no factor determines
// (under-determined: `variables` names it), or hard factors that contradict each other
// (`factors` names the equations whose combination is violated, with the residual).
struct EliminationError : std::runtime_error {
  EliminationError(const std::string& what, std::vector<std::string> variables,
                   std::vector<std::string> factors, double residual = 0.0)
      : std::runtime_error(what),
        variables(std::move(variables)),
        factors(std::move(factors)),
        residual(residual) {}
  std::vector<std::string> variables, factors;
  double residual = 0.0;
};

// x = g - Σ_j G_j x_{parents[j]}: a node of the Bayes net.
struct Conditional {
  int var = 0;
  std::vector<int> parents;  // variable ids, eliminated later
  std::vector<MatX> G;       // dim(var) x dim(parent)
  VecX g;
  int hard_rows = 0, soft_rows = 0;  // rows of the factors gathered when it was eliminated
};

struct BayesNet {
  std::vector<Conditional> conditionals;  // in elimination order
  // Back-substitution in reverse elimination order: the increments (Gauss-Newton) or values
  // (linear problems) of every eliminated variable, indexed by variable id (others untouched).
  void solve(std::vector<VecX>& x) const;
  // Total entries of the G blocks: the fill-in measure of an ordering.
  long long nonzeros() const;
};

// Eliminates every unknown of `graph` in `order` (each exactly once) after linearising each
// factor at the graph's values: Σ J_k δ_k = -r. Throws EliminationError.
BayesNet eliminate(const FactorGraph& graph, const std::vector<int>& order);

// Linearise, eliminate, back-substitute, update, until the largest increment is below tol
// (relative to the values) or max_iterations; returns the iterations used. Linear problems
// converge in one (a second confirms). The graph's unknowns take the solution.
int solve_gauss_newton(FactorGraph& graph, const std::vector<int>& order, int max_iterations = 10,
                       double tol = 1e-12, BayesNet* net = nullptr);

}  // namespace articula::fg
