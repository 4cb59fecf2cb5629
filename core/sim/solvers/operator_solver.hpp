#pragma once
// The spatial operator algebra's closed-loop forward dynamics (Rodriguez, Jain, Kreutz-Delgado,
// steps A-F of SOA Eqs. 0.31-0.37), contract-additions-2 §3 `--solver operator`:
//   A  free accelerations q̈_f by ABA, which leaves the innovations factorisation of M in data;
//   C  Λ^-1 = G M^-1 G^T of the constraint rows in body-level form (innovations.hpp), O(N m),
//      without forming or factoring M;
//   D  the multipliers from Λ^-1 μ = g - G q̈_f with the rank-revealing pivoted L D L^T that
//      Method 2 uses (redundant rows get μ = 0, q̈ and G^T μ stay unique);
//   E-F the correction M^-1 G^T μ by one more pair of passes, q̈ = q̈_f + M^-1 G^T μ.
// Memory O(N + m^2) in the algebra (the constraint set still forms its dense G for g and the
// residual rows). A singular factorisation (massless bodies) falls back to Method 2.
#include "core/algorithms/innovations.hpp"
#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/sim/solvers/method2_solver.hpp"

namespace articula {

class OperatorSolver final : public DynamicsSolver {
 public:
  explicit OperatorSolver(const SolverEnv& env);
  const char* name() const override { return "operator"; }
  // Its projection is the least kinetic-energy one, from the same operators (O(N m + m^3)).
  bool mass_weighted_projection() const override { return true; }
  const VecX& accelerations(const SolverInput& in) override;
  const VecX& multipliers() const override { return fell_back_ ? fallback_.multipliers() : mu_; }
  int rank() const override { return fell_back_ ? fallback_.rank() : rank_; }
  bool tells_unique_multipliers() const override { return true; }
  bool multipliers_unique() const override {
    return !fell_back_ && rank_ == static_cast<int>(selected_.size());
  }
  // Bodies visited by the innovations passes since construction (the operation count).
  long body_steps() const { return work_.body_steps; }

 private:
  void multipliers_and_correction();
  InnovationsWork work_;
  std::vector<OperatorRow> rows_;  // the constraint set's rows in body-level form
  std::vector<int> selected_;      // rows of G that are not structurally zero
  MatX A_;                         // Λ^-1 of the selected rows
  VecX rhs_, mu_;
  PivotedLdlt ldlt_;
  int rank_ = 0;
  Method2Solver fallback_;
  bool fell_back_ = false;
};

}  // namespace articula
