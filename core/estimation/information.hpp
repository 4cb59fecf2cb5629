#pragma once
// The smoothers' information matrix H (block-tridiagonal over the knots, nb variables each,
// parameters after them: an arrow) and its LDLᵀ factorisation, for Gauss-Newton's steps and the
// knots' posterior covariances (blocks of H⁻¹). The knots are factorised in reverse order
// (parameters still last): the band has no fill either way, and the first knot of the range,
// the one a fixed-lag window marginalises next, comes last, where its block of H⁻¹ is
// (L_TT⁻¹)ᵀ D_T⁻¹ L_TT⁻¹ from the factor's trailing nb x nb block alone (L lower unit
// triangular), instead of nb solves through the whole window (11 % of the Stewart platform's
// fixed-lag run).
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "core/spatial/types.hpp"

namespace articula {

class Information {
 public:
  using Sparse = Eigen::SparseMatrix<double>;
  // H's lower triangle (n x n, n0 = knots x nb knot variables first). False when H is not
  // positive definite enough to factorise.
  bool compute(const Sparse& H_lower, int nb, int n0);
  VecX solve(const VecX& b) const;  // H⁻¹ b
  // The nb x nb block of H⁻¹ for knot k (0: the range's first).
  MatX knot_covariance(int k) const;
  // The last np x np block of H⁻¹ (the parameters'), np = n - n0.
  MatX parameter_covariance() const;
  int size() const { return n_; }

 private:
  using Ldlt = Eigen::SimplicialLDLT<Sparse, Eigen::Lower, Eigen::NaturalOrdering<int>>;
  using Permutation = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;
  Ldlt ldlt_;
  Permutation reverse_;  // knot j's variable c <-> knot (K-1-j)'s c: its own inverse
  Sparse permuted_;      // P H Pᵀ, lower triangle
  int n_ = 0, nb_ = 0, n0_ = 0;
};

}  // namespace articula
