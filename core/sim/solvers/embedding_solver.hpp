#pragma once
// Constraint embedding (Jain, Part II): the loops, drives and couplings inside each aggregated
// node are eliminated by the node's X_S (embedding/partition.hpp), and the dynamics are solved in
// the independent coordinates θ_R: (Xᵀ H X) θ̈_R = Xᵀ (τ - C - H Ẋθ̇_R), q̈ = X θ̈_R + Ẋθ̇_R
// (Eq. 46's mass matrix X_Sᵀ M_S X_S with the tree's H from CRBA). Exact by construction: no
// multipliers are solved for and no Baumgarte terms enter (α = 0); the multipliers are
// recovered from the dependent coordinates' equations (Y₁ᵀ μ = (H q̈ + C - τ)_dep). Runs with
// the simulation stepping the independent coordinates only (minimal_coordinates).
#include <Eigen/Cholesky>
#include <memory>

#include "core/sim/embedding/partition.hpp"
#include "core/sim/solvers/dynamics_solver.hpp"

namespace articula {

class EmbeddingSolver final : public DynamicsSolver {
 public:
  // Throws SetupError when the embedding does not apply (see make_embedding_solver).
  explicit EmbeddingSolver(const SolverEnv& env);
  const char* name() const override { return "embedding"; }
  const VecX& accelerations(const SolverInput& in) override;
  const VecX& multipliers() const override { return mu_; }
  int rank() const override { return rank_; }
  ConstraintEmbedding* embedding() override { return embedding_.get(); }

 private:
  std::unique_ptr<ConstraintEmbedding> embedding_;
  MatX HX_, M_;
  Eigen::LDLT<MatX> ldlt_;
  VecX y_, f_, u_, r_, mu_;
  int rank_ = 0;
};

}  // namespace articula
