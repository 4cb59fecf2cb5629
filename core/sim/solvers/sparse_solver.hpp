#pragma once
// RBDA 8.13's sparse-matrix method (sparse_dynamics.hpp): the bodies' own equations with a
// block-sparse L S L^T, O(n) where every spanning tree couples the loops densely (the ladder of
// RBDA Fig. 8.4). The constraints enter in their body-level form. When a pivot fails (a singular
// configuration) the step falls back to Method 2, which reveals rank.
#include <memory>

#include "core/algorithms/sparse_dynamics.hpp"
#include "core/sim/solvers/method2_solver.hpp"

namespace articula {

class SparseSolver final : public DynamicsSolver {
 public:
  SparseSolver(const SolverEnv& env, std::shared_ptr<const SparseDynamicsModel> model);
  const char* name() const override { return "sparse"; }
  const VecX& accelerations(const SolverInput& in) override;
  const VecX& multipliers() const override {
    return fell_back_ ? fallback_.multipliers() : work_.mu;
  }
  int rank() const override { return fell_back_ ? fallback_.rank() : env_.constraints.rows(); }
  bool mass_weighted_projection() const override { return true; }

 private:
  std::shared_ptr<const SparseDynamicsModel> model_;
  SparseDynamicsWork work_;
  BodyLevelRows rows_;
  Method2Solver fallback_;
  bool fell_back_ = false;
};

}  // namespace articula
