#include "core/algorithms/constrained_dynamics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/algorithms/ltdl.hpp"
#include "core/spatial/debug_assert.hpp"
#include "core/spatial/pair.hpp"

namespace articula {

namespace {
// Z^T = G_R L^-1 in place of G_R (RBDA Table 6.5's first loop, run on all rows at once): column
// j of Z^T is contiguous, so each step is a short vector update, and L's branch sparsity keeps
// the work to the ancestor chains. span[j] is the hull [lo, hi) of column j's nonzero rows,
// rounded out to pairs (Z^T has an even leading dimension and a zero padding row: pair.hpp); a
// column is final before its ancestors read it, and spreads its hull to them: a loop's rows
// stay within the branches that close it (a Stewart leg's three), so the updates stay short.
void back_substitute_rows(const MatX& LD, const std::vector<int>& lambda, MatX& Zt,
                          std::vector<RowSpan>& span) {
  const int ld = static_cast<int>(Zt.rows()), n = static_cast<int>(Zt.cols());
  const double* U = LD.data();  // L^T above the diagonal (ltdl_factor(Model, Data))
  const long ldu = LD.outerStride();
  double* Z = Zt.data();
  for (int i = n - 1; i >= 0; --i) {
    const double* __restrict zi = Z + static_cast<long>(i) * ld;
    const RowSpan si = span[i];
    if (si.lo >= si.hi) continue;
    // Pairs from lo to hi stay inside the even leading dimension (pair.hpp).
    ARTICULA_DEBUG_ASSERT(si.lo >= 0 && si.lo % 2 == 0 && si.hi <= ld);
    for (int j = lambda[i]; j >= 0; j = lambda[j]) {
      ARTICULA_DEBUG_ASSERT(j < i);  // the parent array runs toward the base
      double* __restrict zj = Z + static_cast<long>(j) * ld;
      const double l = U[j + i * ldu];
      for (int c = si.lo; c < si.hi; c += 2)
        store_pair(zj + c, load_pair(zj + c) - load_pair(zi + c) * l);
      span[j].lo = std::min(span[j].lo, si.lo);
      span[j].hi = std::max(span[j].hi, si.hi);
    }
  }
}

// Column j of Z^T := the rows R of column j of G (ld even, the padding row zero), returning the
// hull of its nonzero entries rounded out to pairs, from bit masks (64 rows each, up to 256 rows:
// the walker's 72 loop rows and its drive and contacts need two) built without branches (the
// zeros follow no pattern the branch predictor could learn). Pairs are formed in registers and
// stored whole: a pair loaded later from two separate scalar stores could not be forwarded from
// them (types.hpp), and the masks are taken from the registers, not reloaded.
constexpr int kSpanMaskWords = 4;
RowSpan copy_rows(const double* Gj, const std::vector<int>& rows, int m, int ld, double* zj) {
  const int mc = static_cast<int>(rows.size());
  std::uint64_t mask[kSpanMaskWords] = {};
  for (int c = 0; c < ld; c += 2) {
    Pair x;
    if (mc == m)
      x = c + 1 < m ? load_pair(Gj + c) : Pair{Gj[c], 0.0};
    else
      x = Pair{Gj[rows[c]], c + 1 < mc ? Gj[rows[c + 1]] : 0.0};
    store_pair(zj + c, x);
    if (c < 64 * kSpanMaskWords)
      mask[c >> 6] |= static_cast<std::uint64_t>(nonzero_bits(x)) << (c & 63);
  }
  if (ld > 64 * kSpanMaskWords) return {0, ld};
  int lo = -1, hi = 0;
  for (int w = 0; w < kSpanMaskWords; ++w) {
    if (mask[w] == 0) continue;
    if (lo < 0) lo = 64 * w + std::countr_zero(mask[w]);
    hi = 64 * w + 64 - std::countl_zero(mask[w]);
  }
  if (lo < 0) return {0, 0};
  return {lo & ~1, paired(hi)};
}

// Lower triangle of A = Z^T D^-1 Z as a sum of rank-one terms d_j^-1 z_j z_j^T over the rows z_j
// of Z (columns of Z^T): contiguous, and only over each column's span of nonzero rows (in pairs:
// a column's update may also write the entry above its diagonal, which nothing reads). Up to
// four consecutive columns with the same span (a joint's, or a chain's below the same loops) go
// through A together: one pass over A instead of one per column.
template <int G>  // columns in the group
void schur_group(const double* const* z, const double* dinv, int lo, int hi, int ld, double* a) {
  for (int c = lo; c < hi; ++c) {
    double v[G];
    for (int e = 0; e < G; ++e) v[e] = z[e][c] * dinv[e];
    double* __restrict ac = a + static_cast<long>(c) * ld;
    for (int r = c & ~1; r < hi; r += 2) {
      Pair x = load_pair(ac + r);
      for (int e = 0; e < G; ++e) x += load_pair(z[e] + r) * v[e];
      store_pair(ac + r, x);
    }
  }
}

void lower_schur(const MatX& Zt, const VecX& dinv, const std::vector<RowSpan>& span, MatX& A) {
  const int ld = static_cast<int>(Zt.rows()), n = static_cast<int>(Zt.cols());
  A.setZero(ld, ld);
  const double* z[4] = {};
  for (int j = 0; j < n;) {
    const int lo = span[j].lo, hi = span[j].hi;
    int g = 1;
    while (g < 4 && j + g < n && span[j + g].lo == lo && span[j + g].hi == hi) ++g;
    for (int e = 0; e < g; ++e) z[e] = Zt.data() + static_cast<long>(j + e) * ld;
    const double* d = dinv.data() + j;
    switch (g) {
      case 1:
        schur_group<1>(z, d, lo, hi, ld, A.data());
        break;
      case 2:
        schur_group<2>(z, d, lo, hi, ld, A.data());
        break;
      case 3:
        schur_group<3>(z, d, lo, hi, ld, A.data());
        break;
      default:
        schur_group<4>(z, d, lo, hi, ld, A.data());
        break;
    }
    j += g;
  }
}

// rhs = g_R - G_R q̈0 on the few-row path, term by term as its first solve formed it.
void few_rhs(const MatX& G, const VecX& g, ConstrainedDynamicsWork& w) {
  const int n = static_cast<int>(G.cols()), mc = static_cast<int>(w.rows.size());
  w.rhs.resize(mc);
  for (int c = 0; c < mc; ++c) {
    const int r = w.rows[c];
    double gq = 0.0;
    for (int j = 0; j < n; ++j) gq += G(r, j) * w.qdd0[j];
    w.rhs[c] = g[r] - gq;  // g - G q̈0
  }
}

// μ from the factored A and rhs, then q̈ = q̈0 + Y μ (the few-row path).
void few_finish(Data& data, int m, ConstrainedDynamicsWork& w) {
  const int n = static_cast<int>(w.Y.rows()), mc = static_cast<int>(w.rows.size());
  w.ldlt.solve(w.rhs);
  w.mu.setZero(m);
  for (int c = 0; c < mc; ++c) {
    w.mu[w.rows[c]] = w.rhs[c];
    for (int j = 0; j < n; ++j) data.qdd[j] += w.Y(j, c) * w.rhs[c];  // q̈ = q̈0 + Y μ
  }
}

// Few rows (a planar loop has two or three in the plane): Y = H^-1 G_R^T by one full solve per
// row and A = G_R Y. Here that costs less than the sweeps below, whose set-up dominates.
void few_multipliers(const Model& model, Data& data, const MatX& G, const VecX& g,
                     ConstrainedDynamicsWork& w, double rank_tolerance) {
  const int n = static_cast<int>(G.cols()), mc = static_cast<int>(w.rows.size());
  w.Y.resize(n, mc);
  for (int c = 0; c < mc; ++c) {
    for (int j = 0; j < n; ++j) w.Y(j, c) = G(w.rows[c], j);
    ltdl_solve(model, data, w.Y.col(c).data());
  }
  few_rhs(G, g, w);
  w.A.resize(mc, mc);
  for (int c = 0; c < mc; ++c)  // A = G Y, lower triangle (all the factor reads)
    for (int r = c; r < mc; ++r) {
      double x = 0.0;
      for (int j = 0; j < n; ++j) x += G(w.rows[r], j) * w.Y(j, c);
      w.A(r, c) = x;
    }
  w.ldlt.factor(w.A, rank_tolerance);
  w.rank = w.ldlt.rank();
  few_finish(data, static_cast<int>(G.rows()), w);
  w.path = ConstrainedDynamicsWork::Path::Few;
}

// rhs = g_R - G_R q̈0 in pairs (the padding row stays zero through the solve), from Z^T as G_R
// before its back-substitution (the first solve) or the copy kept of it (later ones).
void sparse_rhs(const MatX& Gr, const VecX& g, ConstrainedDynamicsWork& w) {
  const int mc = static_cast<int>(w.rows.size()), ld = paired(mc);
  w.rhs.resize(ld);
  for (int c = 0; c < ld; c += 2)
    store_pair(w.rhs.data() + c, Pair{g[w.rows[c]], c + 1 < mc ? g[w.rows[c + 1]] : 0.0});
  add_times(Gr, mc, w.qdd0.data(), -1.0, w.rhs.data());
}

// μ from the factored A and rhs; then y = D^-1 Z μ and q̈ += L^-1 y (Table 6.5, last loop).
void sparse_finish(const Model& model, Data& data, int m, ConstrainedDynamicsWork& w) {
  const MatX& Zt = w.Zt;
  const int n = static_cast<int>(Zt.cols()), ld = static_cast<int>(Zt.rows());
  const int mc = static_cast<int>(w.rows.size());
  w.dinv = data.LD_dinv;  // a copy: the loop below overwrites it
  w.ldlt.solve(w.rhs);
  w.mu.setZero(m);
  for (int c = 0; c < mc; ++c) w.mu[w.rows[c]] = w.rhs[c];
  const double* U = data.LD.data();
  const long ldu = data.LD.outerStride();
  for (int i = 0; i < n; ++i) {
    const double* zi = Zt.data() + static_cast<long>(i) * ld;
    Pair yp = {0.0, 0.0};
    for (int c = w.span[i].lo; c < w.span[i].hi; c += 2)
      yp += load_pair(zi + c) * load_pair(w.rhs.data() + c);
    double yi = (yp[0] + yp[1]) * w.dinv[i];
    for (int j = model.lambda_v[i]; j >= 0; j = model.lambda_v[j]) yi -= U[j + i * ldu] * w.dinv[j];
    w.dinv[i] = yi;  // the inverse pivot is no longer needed: dinv becomes L^-1 y
    data.qdd[i] += yi;
  }
}

// RBDA 8.5 Method 2 with the factor split as H^-1 = L^-1 D^-1 L^-T: A = G H^-1 G^T = Z^T D^-1 Z
// with Z = L^-T G^T (one back-substitution pass instead of a full solve per row), and
// q̈ = q̈0 + L^-1 D^-1 (Z μ).
void sparse_multipliers(const Model& model, Data& data, const MatX& G, const VecX& g,
                        ConstrainedDynamicsWork& w, double rank_tolerance) {
  const int n = static_cast<int>(G.cols());
  // Rows under 1e-24 of the largest squared norm give pivots far under rank_tolerance: the
  // factor would drop them anyway (μ = 0), so a planar loop solves its in-plane rows only.
  significant_rows(G, 1e-24, w.rows);
  const int mc = static_cast<int>(w.rows.size());
  if (mc <= 3) return few_multipliers(model, data, G, g, w, rank_tolerance);
  MatX& Zt = w.Zt;
  const int ld = paired(mc), m = static_cast<int>(G.rows());
  Zt.resize(ld, n);
  w.span.resize(n);            // allocates once: the capacity stays
  for (int j = 0; j < n; ++j)  // Z^T := G_R, and each column's hull
    w.span[j] = copy_rows(G.data() + static_cast<long>(j) * G.outerStride(), w.rows, m, ld,
                          Zt.data() + static_cast<long>(j) * ld);
  if (w.keep_rows) w.Gr = Zt;
  sparse_rhs(Zt, g, w);
  back_substitute_rows(data.LD, model.lambda_v, Zt, w.span);
  lower_schur(Zt, data.LD_dinv, w.span, w.A);
  w.ldlt.factor(w.A.topLeftCorner(mc, mc), rank_tolerance);
  w.rank = w.ldlt.rank();
  sparse_finish(model, data, m, w);
  w.path =
      w.keep_rows ? ConstrainedDynamicsWork::Path::Sparse : ConstrainedDynamicsWork::Path::None;
}

// |G q̈ - g|_inf after a solve.
void residual(const MatX& G, const VecX& g, const Data& data, ConstrainedDynamicsWork& w) {
  const int m = static_cast<int>(G.rows());
  w.Gq = -g;
  add_times(G, m, data.qdd.data(), 1.0, w.Gq.data());  // G q̈ - g
  w.residual = 0.0;
  for (int r = 0; r < m; ++r) w.residual = std::max(w.residual, std::abs(w.Gq[r]));
}
}  // namespace

void constrained_forward_dynamics(const Model& model, Data& data, const MatX& G, const VecX& g,
                                  const VecX& tau, ConstrainedDynamicsWork& w,
                                  double rank_tolerance) {  // RBDA 8.5, Method 2
  const int m = static_cast<int>(G.rows());
  w.path = ConstrainedDynamicsWork::Path::None;
  w.qdd0 = tau;
  w.qdd0 -= data.C;
  ltdl_solve(model, data, w.qdd0);
  data.qdd = w.qdd0;
  if (m == 0) {
    w.mu.resize(0);
    w.rank = 0;
    w.residual = 0.0;
    w.path = ConstrainedDynamicsWork::Path::Empty;
    return;
  }
  if (w.minimum_norm) {
    w.Y = G.transpose();
    for (int c = 0; c < m; ++c) ltdl_solve(model, data, w.Y.col(c).data());
    w.A.noalias() = G * w.Y;
    w.rhs = g;
    w.rhs.noalias() -= G * w.qdd0;
    w.cod.setThreshold(rank_tolerance);
    w.cod.compute(w.A);
    w.rank = static_cast<int>(w.cod.rank());
    w.mu = w.cod.solve(w.rhs);
    data.qdd.noalias() += w.Y * w.mu;
  } else {
    sparse_multipliers(model, data, G, g, w, rank_tolerance);
  }
  residual(G, g, data, w);
}

bool constrained_resolve(const Model& model, Data& data, const MatX& G, const VecX& g,
                         const VecX& tau, ConstrainedDynamicsWork& w) {
  using Path = ConstrainedDynamicsWork::Path;
  if (w.path == Path::None) return false;
  w.qdd0 = tau;  // the steps of constrained_forward_dynamics that depend on τ, in its order
  w.qdd0 -= data.C;
  ltdl_solve(model, data, w.qdd0);
  data.qdd = w.qdd0;
  if (w.path == Path::Empty) return true;
  if (w.path == Path::Few) {
    few_rhs(G, g, w);
    few_finish(data, static_cast<int>(G.rows()), w);
  } else {
    sparse_rhs(w.Gr, g, w);
    sparse_finish(model, data, static_cast<int>(G.rows()), w);
  }
  residual(G, g, data, w);
  return true;
}

bool constrained_resolve_multipliers(const Model& model, Data& data, const MatX& G, const VecX& g,
                                     const VecX& tau, ConstrainedDynamicsWork& w) {
  using Path = ConstrainedDynamicsWork::Path;
  if (w.path == Path::None) return false;
  w.qdd0 = tau;  // as constrained_resolve, up to μ (few_finish, sparse_finish: their first steps)
  w.qdd0 -= data.C;
  ltdl_solve(model, data, w.qdd0);
  const int m = static_cast<int>(G.rows()), mc = static_cast<int>(w.rows.size());
  if (w.path == Path::Empty) return true;
  if (w.path == Path::Few)
    few_rhs(G, g, w);
  else
    sparse_rhs(w.Gr, g, w);
  w.ldlt.solve(w.rhs);
  w.mu.setZero(m);
  for (int c = 0; c < mc; ++c) w.mu[w.rows[c]] = w.rhs[c];
  return true;
}

}  // namespace articula
