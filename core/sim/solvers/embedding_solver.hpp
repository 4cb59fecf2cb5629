#pragma once
// Constraint embedding (Jain, Part II): the loops, drives and couplings inside each aggregated
// node are eliminated by the node's X_S (embedding/partition.hpp), and the dynamics are solved in
// the independent coordinates θ_R by the embedded articulated-body algorithm (§6-7,
// embedding/embedded_aba.hpp: O(N) in the nodes, no n x n matrix). The dense form
// (Xᵀ H X) θ̈_R = Xᵀ (τ - C - H Ẋθ̇_R), q̈ = X θ̈_R + Ẋθ̇_R with the tree's H from CRBA (O(n³))
// is kept as the tests' cross-check and for nodes that are no tree. Exact by construction: no
// multipliers are solved for and no Baumgarte terms enter (α = 0); the multipliers are
// recovered from the dependent coordinates' equations (Y₁ᵀ μ = (H q̈ + C - τ)_dep). Runs with
// the simulation stepping the independent coordinates only (minimal_coordinates).
#include <Eigen/Cholesky>
#include <memory>

#include "core/sim/embedding/embedded_aba.hpp"
#include "core/sim/embedding/partition.hpp"
#include "core/sim/solvers/dynamics_solver.hpp"

namespace articula {

enum class EmbeddingForm { Articulated, Dense };

class EmbeddingSolver final : public DynamicsSolver {
 public:
  // Throws SetupError when the embedding does not apply (see make_embedding_solver). Articulated
  // falls back to Dense when a node is not a sub-tree hanging from one body.
  explicit EmbeddingSolver(const SolverEnv& env, EmbeddingForm form = EmbeddingForm::Articulated);
  const char* name() const override { return "embedding"; }
  const VecX& accelerations(const SolverInput& in) override;
  // Solved on request (Y₁ᵀ μ = r_dep with the last call's factors): a stage needs only the power.
  const VecX& multipliers() const override;
  // r · q̇ with r = H q̈ + C - τ = Gᵀ μ: Σ μ_r (G_r q̇), the rows' power with no μ solved.
  double constraint_power(const SolverInput& in) const override;
  int rank() const override { return rank_; }
  ConstraintEmbedding* embedding() override { return embedding_.get(); }
  bool articulated() const { return aba_ != nullptr; }  // the embedded ABA, not the dense form

 private:
  void dense(const SolverInput& in);
  void articulated(const SolverInput& in);

  std::unique_ptr<ConstraintEmbedding> embedding_;
  std::unique_ptr<EmbeddedAba> aba_;  // null: the dense form
  MatX HX_, M_;
  Eigen::LDLT<MatX> ldlt_;
  VecX y_, f_, u_, r_;
  mutable VecX mu_;               // multipliers(), solved when first asked after a call
  mutable long mu_factors_ = -1;  // the embedding's factor count they were solved at
  int rank_ = 0;
};

}  // namespace articula
