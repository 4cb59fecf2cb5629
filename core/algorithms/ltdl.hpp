#pragma once
// Sparse L^T D L factorisation of matrices with branch-induced sparsity, and the matching
// multiplication and back-substitution (RBDA Tables 6.3-6.5). lambda is the (expanded) parent
// array with 0-based indices and -1 for a root: on row k, the nonzeros left of the diagonal are
// in columns lambda(k), lambda(lambda(k)), ...
#include <vector>

#include "core/model/data.hpp"

namespace articula {

// In situ: on return D is on the diagonal and L (unit lower triangular) below it, mirrored above
// it (the upper triangle is the factor's working copy, and what ltdl_solve reads). Only the
// lower triangle is read. Returns false if a pivot is not positive (H not positive definite).
bool ltdl_factor(MatX& H, const std::vector<int>& lambda);
// x := H^-1 x from the factor (L^-T, D^-1, L^-1 in turn).
void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, VecX& x);
// The same on n = LD.rows() values at x (e.g. a column of a matrix).
void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, double* x);
// y = H x using only the lower triangle's sparsity pattern.
void sparse_multiply(const MatX& H, const std::vector<int>& lambda, const VecX& x, VecX& y);

// Model-level wrappers: factor data.H into data.LD using the expanded parent array. data.LD
// holds D on its diagonal and L^T above it (L(i, j) = LD(j, i)); its lower triangle is unused.
// data.LD_dinv holds 1/D, which the solves multiply by.
bool ltdl_factor(const Model& model, Data& data);
void ltdl_solve(const Model& model, const Data& data, VecX& x);
void ltdl_solve(const Model& model, const Data& data, double* x);  // nv values at x

}  // namespace articula
