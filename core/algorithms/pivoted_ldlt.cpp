#include "core/algorithms/pivoted_ldlt.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "core/spatial/debug_assert.hpp"
#include "core/spatial/pair.hpp"

namespace articula {

namespace {
// Schur complement step k of an L D L^T in place (lower triangle, leading dimension ld, even):
// A_ij -= A_ik A_jk / d, then column k scaled by 1/d, which it returns. One division per pivot.
// Columns go in pairs, which share the loads of column k, and rows in pairs (pair.hpp): the update
// of column c starts at row (c - 1) & ~1 and runs into the zero padding row, so it may write the
// two entries above the diagonal, which copy_lower zeroes and nothing reads.
double eliminate(double* L, int ld, int n, int k) {
  const double dinv = 1.0 / L[k + k * ld];
  double* __restrict lk = L + k * ld;
  int j = k + 1;
  for (; j + 1 < n; j += 2) {
    const double a0 = lk[j] * dinv, a1 = lk[j + 1] * dinv;
    double* __restrict l0 = L + j * ld;
    double* __restrict l1 = L + (j + 1) * ld;
    for (int i = j & ~1; i < ld; i += 2) {
      const Pair x = load_pair(lk + i);
      store_pair(l0 + i, load_pair(l0 + i) - x * a0);
      store_pair(l1 + i, load_pair(l1 + i) - x * a1);
    }
  }
  if (j < n) {
    const double a0 = lk[j] * dinv;
    double* __restrict l0 = L + j * ld;
    for (int i = j & ~1; i < ld; i += 2)
      store_pair(l0 + i, load_pair(l0 + i) - load_pair(lk + i) * a0);
  }
  for (int i = k + 1; i < n; ++i) lk[i] *= dinv;
  return dinv;
}

// The lower triangle of A into L, with the two entries above each diagonal entry (which
// eliminate may write) and the padding row zero. When A has L's even leading dimension (the
// constraint solves' A does), whole pairs are copied: eliminate loads pairs, and a pair spanning
// two scalar stores would wait for them to reach the cache (types.hpp).
void copy_lower(const Eigen::Ref<const MatX>& A, double* L, int ld) {
  const int n = static_cast<int>(A.rows());
  const double* a = A.data();
  const long lda = A.outerStride();
  if (lda == ld) {
    for (int j = 0; j < n; ++j) {
      double* l = L + j * ld;
      const double* aj = a + j * lda;
      const int s = j & ~1;
      if (s >= 2) store_pair(l + s - 2, Pair{0.0, 0.0});
      Pair x = load_pair(aj + s);
      if (s < j) x[0] = 0.0;       // above the diagonal
      if (s + 1 >= n) x[1] = 0.0;  // the padding row
      store_pair(l + s, x);
      for (int i = s + 2; i < ld; i += 2) {
        Pair y = load_pair(aj + i);
        if (i + 1 >= n) y[1] = 0.0;
        store_pair(l + i, y);
      }
    }
    return;
  }
  for (int j = 0; j < n; ++j) {
    double* l = L + j * ld;
    for (int i = std::max(0, j - 2); i < j; ++i) l[i] = 0.0;
    for (int i = j; i < n; ++i) l[i] = a[i + j * lda];
    for (int i = n; i < ld; ++i) l[i] = 0.0;
  }
}
// Column j of the unpivoted factor, left-looking: A's column j (rows from j & ~1 to ld: the
// entry above the diagonal and the padding row zero), then the steps l < j in their order, each
// as eliminate (step l) applies it to this column: v_i -= u_il (u_jl / d_l) with u_l column l
// before its scaling. Two steps per pass over the column, each entry still updated in the order
// of l: bit for bit the right-looking factor's column. Returns the pivot (the diagonal entry).
double ldlt_left_column(const Eigen::Ref<const MatX>& A, double* L, int ld, const double* dinv,
                        int j) {
  const int n = static_cast<int>(A.rows()), s = j & ~1;
  const double* a = A.data() + static_cast<long>(j) * A.outerStride();
  double* __restrict lj = L + static_cast<long>(j) * ld;
  for (int i = s; i < ld; ++i) lj[i] = i >= j && i < n ? a[i] : 0.0;
  int l = 0;
  for (; l + 1 < j; l += 2) {
    const double* __restrict u0 = L + static_cast<long>(l) * ld;
    const double* __restrict u1 = u0 + ld;
    const double a0 = u0[j] * dinv[l], a1 = u1[j] * dinv[l + 1];
    for (int i = s; i < ld; i += 2)
      store_pair(lj + i, (load_pair(lj + i) - load_pair(u0 + i) * a0) - load_pair(u1 + i) * a1);
  }
  if (l < j) {
    const double* __restrict u0 = L + static_cast<long>(l) * ld;
    const double a0 = u0[j] * dinv[l];
    for (int i = s; i < ld; i += 2) store_pair(lj + i, load_pair(lj + i) - load_pair(u0 + i) * a0);
  }
  return lj[j];
}
}  // namespace

// The pivoted factorisation stops at the first step whose largest remaining diagonal entry is
// at most rel_tol * first (first = the largest diagonal entry of A). Pivots never exceed first,
// and a semidefinite remainder with diagonal entries at most rel_tol * first has a determinant at
// most (rel_tol * first)^(n-k) (Hadamard), so stopping implies det A <= rel_tol * first^n. The
// unpivoted factor gives det A as the product of its pivots: when that product, relative to
// first^n, clears rel_tol (with a margin of 1e3 for rounding), the pivoted factorisation would
// have found full rank, and the unpivoted factor (no search, no swaps) is kept. It is formed
// left-looking (a column at a time, from the columns before it), so that an attempt that fails
// at step k has cost O(k^2 n), not the O(k n^2) of the right-looking updates of the whole
// remainder: the walker's constraint matrices fail it within their first 6-11 of 72-75 steps.
bool PivotedLdlt::factor_unpivoted(const Eigen::Ref<const MatX>& A, double rel_tol) {
  const int n = static_cast<int>(A.rows()), ld = static_cast<int>(LD_.rows());
  double* L = LD_.data();
  double first = 0.0;
  for (int k = 0; k < n; ++k) first = std::max(first, A(k, k));
  if (!(first > 0.0)) return false;
  double det = 1.0;  // det A / first^n, never growing: each pivot is at most first
  for (int k = 0; k < n; ++k) {
    const double d = ldlt_left_column(A, L, ld, dinv_.data(), k);
    det *= d / first;
    if (!(det > 1e3 * rel_tol)) return false;
    dinv_[k] = 1.0 / d;
  }
  for (int k = 0; k < n; ++k)  // L = U D^-1, as eliminate scales each column
    for (int i = k + 1; i < n; ++i) L[i + k * ld] *= dinv_[k];
  for (int i = 0; i < n; ++i) perm_[i] = i;
  rank_ = n;
  return true;
}

namespace {
// Symmetric swap of rows/columns k and p > k of the lower triangle (and of perm).
void ldlt_swap(double* L, int ld, int n, int k, int p, int* perm) {
  auto at = [L, ld](int i, int j) -> double& { return L[i + j * ld]; };
  std::swap(perm[k], perm[p]);
  std::swap(at(k, k), at(p, p));
  for (int j = 0; j < k; ++j) std::swap(at(k, j), at(p, j));
  for (int i = k + 1; i < p; ++i) std::swap(at(i, k), at(p, i));
  for (int i = p + 1; i < n; ++i) std::swap(at(i, k), at(i, p));
}

// Columns j and j + 1 (or j alone) of the remainder through steps k and k + 1 at once: each
// entry v -= u_i (u_j / d_k), then v -= w_i (w_j / d_(k+1)), with u and w columns k and k + 1
// before their scaling: eliminate's two updates in their order, one pass over the columns instead
// of two. Row `skip` (if below the diagonal) had step k already: it gets step k + 1 only.
template <bool Two>
void ldlt_two_steps(double* L, int ld, int j, const double* u, double dk, const double* w,
                    double dk1, int skip) {
  double* __restrict l0 = L + static_cast<long>(j) * ld;
  double* __restrict l1 = l0 + ld;
  const double a0 = u[j] * dk, b0 = w[j] * dk1;
  const double a1 = Two ? u[j + 1] * dk : 0.0, b1 = Two ? w[j + 1] * dk1 : 0.0;
  const double s0 = skip > j ? l0[skip] : 0.0, s1 = Two && skip > j ? l1[skip] : 0.0;
  for (int i = j & ~1; i < ld; i += 2) {
    const Pair x = load_pair(u + i), y = load_pair(w + i);
    store_pair(l0 + i, (load_pair(l0 + i) - x * a0) - y * b0);
    if (Two) store_pair(l1 + i, (load_pair(l1 + i) - x * a1) - y * b1);
  }
  if (skip > j) l0[skip] = s0 - w[skip] * b0;
  if (Two && skip > j + 1) l1[skip] = s1 - w[skip] * b1;
}

// Steps k and k + 1 of the pivoted factor (k's pivot already in place), bit for bit eliminate(k),
// the pivot search and swap of step k + 1, then eliminate(k + 1): step k + 1's pivot comes from
// the diagonal as step k leaves it (the same operations), and the entries whose orientation
// the swap would reverse (those touching k + 1 or the pivot p) get step k before the swap, so
// the rest of the remainder takes both steps in one pass. Returns false when step k + 1 finds
// no pivot above `floor` (step k alone is then complete: the rank is k + 1).
bool ldlt_pivoted_pair(double* L, int ld, int n, int k, double floor, int* perm, double* dinv) {
  double* u = L + static_cast<long>(k) * ld;
  const double dk = 1.0 / u[k];
  auto after_k = [L, ld, u, dk](int r, int c) { return L[r + c * ld] - u[r] * (u[c] * dk); };
  int p = k + 1;
  double best = after_k(k + 1, k + 1);
  for (int i = k + 2; i < n; ++i) {
    const double d = after_k(i, i);
    if (d > best) best = d, p = i;
  }
  dinv[k] = dk;
  if (!(best > floor)) {
    for (int i = k + 1; i < n; ++i) u[i] *= dk;
    return false;
  }
  for (int i = k + 1; i < n; ++i) L[i + (k + 1) * ld] = after_k(i, k + 1);
  const int skip = p != k + 1 ? p : -1;
  if (skip >= 0) {
    for (int i = p; i < n; ++i) L[i + p * ld] = after_k(i, p);
    for (int c = k + 2; c < p; ++c) L[p + c * ld] = after_k(p, c);
    ldlt_swap(L, ld, n, k + 1, p, perm);
  }
  const double* w = L + static_cast<long>(k + 1) * ld;
  const double dk1 = 1.0 / w[k + 1];
  for (int j = k + 2; j < n;) {
    if (j == skip) {  // step k done: step k + 1 alone (eliminate's loop)
      double* __restrict l0 = L + static_cast<long>(j) * ld;
      const double b0 = w[j] * dk1;
      for (int i = j & ~1; i < ld; i += 2)
        store_pair(l0 + i, load_pair(l0 + i) - load_pair(w + i) * b0);
      ++j;
    } else if (j + 1 < n && j + 1 != skip) {
      ldlt_two_steps<true>(L, ld, j, u, dk, w, dk1, skip);
      j += 2;
    } else {
      ldlt_two_steps<false>(L, ld, j, u, dk, w, dk1, skip);
      ++j;
    }
  }
  for (int i = k + 1; i < n; ++i) u[i] *= dk;
  double* w1 = L + static_cast<long>(k + 1) * ld;
  for (int i = k + 2; i < n; ++i) w1[i] *= dk1;
  dinv[k + 1] = dk1;
  return true;
}
}  // namespace

void PivotedLdlt::factor(const Eigen::Ref<const MatX>& A, double rel_tol) {
  const int n = static_cast<int>(A.rows()), ld = paired(n);
  if (size() != n) {
    LD_.setZero(ld, n);
    perm_.resize(n);
    dinv_.resize(n);
    y_.resize(n);
  }
  if (factor_unpivoted(A, rel_tol)) return;
  // Column-major with leading dimension ld; raw pointers keep the tiny loops free of Eigen's
  // index arithmetic and of aliasing reloads (this runs at every integrator stage).
  double* L = LD_.data();
  copy_lower(A, L, ld);
  auto at = [L, ld](int i, int j) -> double& { return L[i + j * ld]; };
  for (int i = 0; i < n; ++i) perm_[i] = i;
  rank_ = n;
  double first = 0.0;
  for (int k = 0; k < n; k += 2) {
    int p = k;  // largest remaining diagonal entry
    for (int i = k + 1; i < n; ++i)
      if (at(i, i) > at(p, p)) p = i;
    if (k == 0) first = at(p, p);
    if (!(at(p, p) > rel_tol * first) || !(first > 0.0)) {
      rank_ = k;
      break;
    }
    if (p != k) ldlt_swap(L, ld, n, k, p, perm_.data());
    if (k + 1 == n) {
      dinv_[k] = eliminate(L, ld, n, k);
    } else if (!ldlt_pivoted_pair(L, ld, n, k, rel_tol * first, perm_.data(), dinv_.data())) {
      rank_ = k + 1;
      break;
    }
  }
}

void PivotedLdlt::solve(VecX& x) const {
  const int n = size(), r = rank_, ld = static_cast<int>(LD_.rows());
  const double* L = LD_.data();
  double* y = y_.data();
  double* xv = x.data();
  for (int k = 0; k < n; ++k) y[k] = xv[perm_[k]];
  int k = 0;
  for (; k + 1 < r; k += 2) {  // L11 y = b1, two columns per pass (half the short loops)
    const double* __restrict l0 = L + k * ld;
    const double* __restrict l1 = L + (k + 1) * ld;
    const double y0 = y[k], y1 = y[k + 1] - l0[k + 1] * y0;
    y[k + 1] = y1;
    for (int i = k + 2; i < r; ++i) y[i] -= l0[i] * y0 + l1[i] * y1;
  }
  for (; k < r; ++k)
    for (int i = k + 1; i < r; ++i) y[i] -= L[i + k * ld] * y[k];
  for (k = 0; k < r; ++k) y[k] *= dinv_[k];
  for (k = r - 1; k >= 1; k -= 2) {  // L11^T y = D^-1 y, two rows per pass
    const double* __restrict l0 = L + k * ld;
    const double* __restrict l1 = L + (k - 1) * ld;
    double s0 = 0.0, s1 = 0.0;
    for (int i = k + 1; i < r; ++i) s0 += l0[i] * y[i], s1 += l1[i] * y[i];
    y[k] -= s0;
    y[k - 1] -= s1 + l1[k] * y[k];
  }
  if (k == 0)
    for (int i = 1; i < r; ++i) y[0] -= L[i] * y[i];
  for (k = r; k < n; ++k) y[k] = 0.0;
  for (k = 0; k < n; ++k) xv[perm_[k]] = y[k];
}

namespace {
// Rows 0 .. 2P - 1 (and 2P when Odd) of out += Σ_j t_j with t_j = sign M(:, j) x[j], or the
// squares M(:, j)² when Square: every row's sum in a register (P pairs and a single), so the
// columns feed 2P + Odd independent chains of additions at once. Those chains' latency, not the
// count of additions, sets the time of these short sums.
template <int P, bool Odd, bool Square>
void column_sums(const double* M, long ld, int n, const double* x, double sign, double* out) {
  Pair acc[P > 0 ? P : 1];
  for (int p = 0; p < P; ++p) acc[p] = load_pair(out + 2 * p);
  double single = Odd ? out[2 * P] : 0.0;
  for (int j = 0; j < n; ++j) {
    const double* Mj = M + j * ld;
    const double xj = Square ? 0.0 : sign * x[j];  // exact: sign is ±1
    for (int p = 0; p < P; ++p) {
      const Pair c = load_pair(Mj + 2 * p);
      acc[p] += Square ? c * c : c * xj;
    }
    if (Odd) single += Square ? Mj[2 * P] * Mj[2 * P] : Mj[2 * P] * xj;
  }
  for (int p = 0; p < P; ++p) store_pair(out + 2 * p, acc[p]);
  if (Odd) out[2 * P] = single;
}

using ColumnSums = void (*)(const double*, long, int, const double*, double, double*);
template <bool Square, int... P>
constexpr std::array<ColumnSums, 2 * sizeof...(P)> column_sum_kernels(
    std::integer_sequence<int, P...>) {
  return {column_sums<P, false, Square>..., column_sums<P, true, Square>...};
}
constexpr auto kTimes =
    column_sum_kernels<false>(std::make_integer_sequence<int, 9>{});  // 0..8 pairs
constexpr auto kSquares = column_sum_kernels<true>(std::make_integer_sequence<int, 9>{});

// Rows 0 .. m - 1 in blocks of sixteen (eight pairs, as many sums as the registers hold).
void sum_columns(const std::array<ColumnSums, 18>& kernel, const MatX& M, int r0, int m,
                 const double* x, double sign, double* out) {
  const int n = static_cast<int>(M.cols());
  const long ld = M.outerStride();
  // The kernels read rows r0 .. r0 + m - 1 of every column (pairs never past row m - 1).
  ARTICULA_DEBUG_ASSERT(r0 >= 0 && m >= 0 && r0 + m <= M.rows());
  const double* M0 = M.data() + r0;
  int r = 0;
  for (; r + 16 < m; r += 16) kernel[8](M0 + r, ld, n, x, sign, out + r);
  const int rest = m - r;  // 1 .. 16 rows, or none when m is 0
  if (rest > 0) kernel[rest / 2 + (rest % 2) * 9](M0 + r, ld, n, x, sign, out + r);
}

// Squared norms of rows r0 .. r0 + nr - 1 of J, summed column by column: contiguous reads (a
// row-wise walk strides by the leading dimension), each row's terms in the same order.
void row_norms2(const MatX& J, int r0, int nr, double* out) {
  for (int r = 0; r < nr; ++r) out[r] = 0.0;
  sum_columns(kSquares, J, r0, nr, nullptr, 1.0, out);
}
constexpr int kRowChunk = 32;  // rows per stack buffer: a single chunk covers the usual sizes
}  // namespace

void significant_rows(const MatX& J, double rel, std::vector<int>& rows) {
  const int m = static_cast<int>(J.rows());
  double norms[kRowChunk];
  double largest = 0.0;
  for (int r0 = 0; r0 < m; r0 += kRowChunk) {
    const int nr = std::min(kRowChunk, m - r0);
    row_norms2(J, r0, nr, norms);
    for (int r = 0; r < nr; ++r) largest = std::max(largest, norms[r]);
  }
  rows.clear();
  rows.reserve(m);  // allocates once: the capacity stays
  for (int r0 = 0; r0 < m; r0 += kRowChunk) {
    const int nr = std::min(kRowChunk, m - r0);
    if (m > kRowChunk) row_norms2(J, r0, nr, norms);  // one chunk: still in the buffer
    for (int r = 0; r < nr; ++r)
      if (norms[r] > rel * largest) rows.push_back(r0 + r);
  }
}

// J is column-major, so its rows are strided (rows x 8 bytes apart): the rows R are copied
// once into contiguous columns. Each entry A(r, c) sums only over the nonzero entries of row c
// (a loop's row touches its leg's few coordinates, the crank and the frame, not all 76 of the
// walker's), four entries of a column of A at a time, each in the order of j: the terms left
// out are exact zeros, which leave a sum started at +0 unchanged, so the result is bit for bit
// the plain loop's. The copy and the index lists live in per-thread buffers that only grow.
void lower_gram(const MatX& J, const std::vector<int>& rows, MatX& A) {
  const int m = static_cast<int>(rows.size()), n = static_cast<int>(J.cols());
  thread_local std::vector<double> buffer;
  thread_local std::vector<int> nonzero;
  if (buffer.size() < static_cast<std::size_t>(m) * n) {
    buffer.resize(static_cast<std::size_t>(m) * n);
    nonzero.resize(static_cast<std::size_t>(m) * n);
  }
  Eigen::Map<MatX> Jt(buffer.data(), n, m);
  for (int c = 0; c < m; ++c) Jt.col(c) = J.row(rows[c]).transpose();
  A.resize(m, m);
  for (int c = 0; c < m; ++c) {
    const double* a = Jt.col(c).data();
    int* idx = nonzero.data() + static_cast<std::size_t>(c) * n;
    int nz = 0;
    for (int j = 0; j < n; ++j) {
      idx[nz] = j;
      nz += a[j] != 0.0;  // no branch: the zeros follow no pattern worth predicting
    }
    int r = c;
    for (; r + 4 <= m; r += 4) {
      const double *b0 = Jt.col(r).data(), *b1 = Jt.col(r + 1).data(), *b2 = Jt.col(r + 2).data(),
                   *b3 = Jt.col(r + 3).data();
      double x0 = 0.0, x1 = 0.0, x2 = 0.0, x3 = 0.0;
      for (int t = 0; t < nz; ++t) {
        const int j = idx[t];
        x0 += b0[j] * a[j];
        x1 += b1[j] * a[j];
        x2 += b2[j] * a[j];
        x3 += b3[j] * a[j];
      }
      A(r, c) = x0, A(r + 1, c) = x1, A(r + 2, c) = x2, A(r + 3, c) = x3;
    }
    for (; r < m; ++r) {
      const double* b = Jt.col(r).data();
      double x = 0.0;
      for (int t = 0; t < nz; ++t) x += b[idx[t]] * a[idx[t]];
      A(r, c) = x;
    }
  }
}

void transpose_times(const MatX& J, const VecX& y, VecX& out) {
  out.resize(J.cols());
  for (int j = 0; j < J.cols(); ++j) {
    double x = 0.0;
    for (int r = 0; r < J.rows(); ++r) x += J(r, j) * y[r];
    out[j] = x;
  }
}

void add_times(const MatX& M, int m, const double* x, double sign, double* out) {
  sum_columns(kTimes, M, 0, m, x, sign, out);
}

}  // namespace articula
