#pragma once
// Forward dynamics of a tree under equality constraints G q̈ = g (loop closures, RBDA 8.3, and
// motion drives as rheonomic constraints), by RBDA 8.5 Method 2: the sparse L^T D L factor of H
// gives q̈0 = H^-1 (τ - C) and Y = H^-1 G^T; the multipliers solve (G Y) μ = g - G q̈0 and
// q̈ = q̈0 + Y μ. Dependent (redundant) rows are allowed: G Y is factored with a rank-revealing
// pivoted L D L^T, so q̈ and G^T μ are unique; μ itself is the minimum-norm solution when asked.
#include <Eigen/QR>
#include <vector>

#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/model/data.hpp"

namespace articula {

// Rows lo .. hi - 1 of a column: the hull of its nonzero entries (empty when lo >= hi).
struct RowSpan {
  int lo = 0, hi = 0;
};

struct ConstrainedDynamicsWork {
  // Producers: constrained_forward_dynamics (general and few-row paths write Y; the fast path
  // writes Zt), augmented_forward_dynamics (Y).
  MatX Y;            // H^-1 G^T (nv x m, columns = the significant rows of G)
  MatX Zt;           // Z^T = G_R L^-1 (ld x nv, row-major pairs): the fast path's half-solve
  MatX A;            // G H^-1 G^T (m x m; ld x ld in the fast path, ld = m rounded up to even)
  VecX qdd0;         // unconstrained accelerations       (nv)
  VecX mu;           // multipliers: G^T μ is the constraint generalized force (m)
  VecX rhs;          // g - G q̈0                          (m, or ld)
  PivotedLdlt ldlt;  // per-step solve: no allocation once sized
  // Rows of G that are not structurally zero (a planar loop's out-of-plane rows are): the
  // per-step solve works on these only (Y, A and rhs are then compacted to them).
  std::vector<int> rows;
  VecX dinv;                  // inverse pivots of H's factor
  VecX Gq;                    // G q̈ - g (m), for the residual
  std::vector<RowSpan> span;  // nonzero rows of each column of Z^T (nv)
  // With redundant rows μ is not unique; minimum_norm picks the minimum-norm μ (complete
  // orthogonal decomposition, which allocates), e.g. for reporting joint forces.
  bool minimum_norm = false;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod;
  // With keep_rows the general path keeps G_R (Z^T before its back-substitution, ld x nv) in
  // Gr, so that constrained_resolve forms g - G q̈0 for another τ exactly as a full solve would.
  bool keep_rows = false;
  MatX Gr;
  // Which path the last solve took, if constrained_resolve can repeat it with the factors kept
  // (None: minimum-norm, the general path without keep_rows, or another producer since).
  enum class Path { None, Empty, Few, Sparse };
  Path path = Path::None;
  int rank = 0;           // numerical rank of A
  double residual = 0.0;  // |G q̈ - g|_inf after the solve (nonzero when rows are inconsistent)
};

// Needs data.H factored in data.LD (crba, ltdl_factor) and data.C (nonlinear_effects).
// Writes data.qdd. rank_tolerance is relative to the largest pivot of A.
void constrained_forward_dynamics(const Model& model, Data& data, const MatX& G, const VecX& g,
                                  const VecX& tau, ConstrainedDynamicsWork& work,
                                  double rank_tolerance = 1e-10);

// q̈ and μ for another τ at the state of the last constrained_forward_dynamics call with w (G, g,
// data.H's factor and data.C unchanged since): the factors of H and of G H^-1 G^T are reused,
// and the result is bit for bit that of a full call (the same arithmetic on the same numbers).
// Returns false, doing nothing, when the last call's path cannot be repeated (w.path None).
bool constrained_resolve(const Model& model, Data& data, const MatX& G, const VecX& g,
                         const VecX& tau, ConstrainedDynamicsWork& w);

// Only the multipliers w.mu of constrained_resolve (bit for bit its μ: the same steps up to μ),
// without q̈ (data.qdd and w.residual are left stale): where only the constraint forces for
// another τ are wanted (a slipping contact's normal force). Returns false when w.path is None.
bool constrained_resolve_multipliers(const Model& model, Data& data, const MatX& G, const VecX& g,
                                     const VecX& tau, ConstrainedDynamicsWork& w);

}  // namespace articula
