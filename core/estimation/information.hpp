#pragma once
// The smoothers' information matrix H (block-tridiagonal over the knots, nb variables each,
// parameters after them: an arrow) and its LDLᵀ factorisation, for Gauss-Newton's steps and the
// knots' posterior covariances (blocks of H⁻¹). The knots are factorised in reverse order
// (parameters still last): the band has no fill either way, and the first knot of the range,
// the one a fixed-lag window marginalises next, comes last, where its block of H⁻¹ is
// (L_TT⁻¹)ᵀ D_T⁻¹ L_TT⁻¹ from the factor's trailing nb x nb block alone (L lower unit
// triangular), instead of nb solves through the whole window (11 % of the Stewart platform's
// fixed-lag run).
#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "core/spatial/types.hpp"

namespace articula {

// H of knots alone (no parameters) by its dense nb x nb blocks: per knot its diagonal block
// (lower triangle read) and the block below it (knot k + 1's rows, knot k's columns).
struct KnotBlocks {
  std::vector<MatX> diag, below;
};

class Information {
 public:
  using Sparse = Eigen::SparseMatrix<double>;
  // H's lower triangle (n x n, n0 = knots x nb knot variables first). False when H is not
  // positive definite enough to factorise.
  bool compute(const Sparse& H_lower, int nb, int n0);
  // The same for H without parameters, by blocks: a dense block-tridiagonal Cholesky
  // factorisation eliminating the knots from the last to the first (the Schur complements
  // S_k = H_kk - H_k,k+1 S_k+1⁻¹ H_k+1,k), so S_0⁻¹ is the first knot's covariance. On the
  // Stewart platform's 18 x 18 blocks it replaces the sparse LDLᵀ and its symbolic work.
  bool compute(const KnotBlocks& H);
  VecX solve(const VecX& b) const;  // H⁻¹ b
  // The nb x nb block of H⁻¹ for knot k (0: the range's first).
  MatX knot_covariance(int k) const;
  // The last np x np block of H⁻¹ (the parameters'), np = n - n0.
  MatX parameter_covariance() const;
  int size() const { return n_; }

 private:
  using Ldlt = Eigen::SimplicialLDLT<Sparse, Eigen::Lower, Eigen::NaturalOrdering<int>>;
  using Permutation = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;
  MatX block_covariance(int k) const;  // the blocks' path
  bool blocks_ = false;                // compute(KnotBlocks): S_ and G_ below, not ldlt_
  std::vector<Eigen::LLT<MatX>> S_;    // per knot: the Schur complement S_k, factorised
  std::vector<MatX> G_;                // per knot but the last: S_k+1⁻¹ H_k+1,k
  mutable std::vector<MatX> cov_;      // the knots' covariances, once asked beyond the first
  Ldlt ldlt_;
  Permutation reverse_;  // knot j's variable c <-> knot (K-1-j)'s c: its own inverse
  Sparse permuted_;      // P H Pᵀ, lower triangle
  int n_ = 0, nb_ = 0, n0_ = 0;
};

}  // namespace articula
