#include "core/algorithms/ltdl.hpp"

#include <vector>

namespace articula {

namespace {
// How an ancestor chain is walked: up(j, f) calls f(s, e) for ranges [s, e] that cover j and its
// ancestors, from j up. Entry by entry follows λ' one dependent load at a time (RBDA Tables 6.3
// and 6.5); by runs covers each stretch where λ'(m) = m − 1 (a chain, a multi-DoF joint) as one
// range, a loop over adjacent entries the compiler vectorises.
struct ByEntry {
  const int* lam;
  template <class F>
  void up(int j, F&& f) const {
    for (; j >= 0; j = lam[j]) f(j, j);
  }
};
struct ByRun {
  const int* lam;
  const int* run;  // run[j]: the smallest s with λ'(m) = m − 1 for every m in (s, j]
  template <class F>
  void up(int j, F&& f) const {
    for (; j >= 0; j = lam[run[j]]) f(run[j], j);
  }
};

// Runs for λ' when they pay (Pinocchio factorised a 100-link chain's H 4x faster than the walk
// by entries, issue 17 item 6), else null: on short chains and bushy trees (the benchmark's
// breadth-first tree31) the runs' loops cost more than they save (13-20 % slower measured).
// Either way the operations per entry and their order are the same: bit for bit the same result.
const int* ancestor_runs(const int* lam, int n) {
  constexpr int kRunsFrom = 16;  // coordinates
  if (n < kRunsFrom) return nullptr;
  int linked = 0;
  for (int j = 1; j < n; ++j) linked += lam[j] == j - 1;
  if (4 * linked < 3 * n) return nullptr;
  thread_local std::vector<int> run;  // grows to the largest n seen, then no allocation
  if (static_cast<int>(run.size()) < n) run.resize(n);
  for (int j = 0; j < n; ++j) run[j] = j > 0 && lam[j] == j - 1 ? run[j - 1] : j;
  return run.data();
}

// RBDA Table 6.3 on the upper triangle U = H^T (column-major: row k of H's lower triangle is
// column k of U, contiguous). Every inner loop walks an ancestor chain, so the work is that of
// the branch-induced sparsity pattern.
template <class Walk>
bool factor_upper(double* U, long ld, int n, const Walk& walk, double* dinv_out) {
  for (int k = n - 1; k >= 0; --k) {
    const double d = U[k + k * ld];
    if (!(d > 0.0)) return false;
    const double dinv = 1.0 / d;  // one division per row
    if (dinv_out) dinv_out[k] = dinv;
    double* Uk = U + k * ld;
    for (int i = walk.lam[k]; i >= 0; i = walk.lam[i]) {
      const double a = Uk[i] * dinv;
      double* Ui = U + i * ld;
      walk.up(i, [Ui, Uk, a](int s, int e) {  // by value: no aliasing doubt about a
        for (int m = s; m <= e; ++m) Ui[m] -= a * Uk[m];
      });
      Uk[i] = a;
    }
  }
  return true;
}

bool factor_upper(double* U, long ld, int n, const int* lam, double* dinv_out = nullptr) {
  if (const int* run = ancestor_runs(lam, n))
    return factor_upper(U, ld, n, ByRun{lam, run}, dinv_out);
  return factor_upper(U, ld, n, ByEntry{lam}, dinv_out);
}
}  // namespace

bool ltdl_factor(MatX& H, const std::vector<int>& lambda) {  // RBDA Table 6.3, LTDL
  const int n = static_cast<int>(H.rows());
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r) H(c, r) = H(r, c);
  if (!factor_upper(H.data(), H.outerStride(), n, lambda.data())) return false;
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r) H(r, c) = H(c, r);
  return true;
}

void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, VecX& x) {
  ltdl_solve(LD, lambda, x.data());
}

namespace {
// RBDA Table 6.5 on L^T in the upper triangle: row i of L is column i there, contiguous. Raw
// pointers: writes through x could alias LD's storage as far as the compiler knows, which would
// reload every coefficient (this runs per constraint column at every integrator stage). With
// the inverse pivots at hand (dinv), D^-1 costs multiplications, not divisions on the chain.
template <bool kInversePivots, class Walk>
void solve_upper(const MatX& LD, const Walk& walk, const double* dinv, double* x) {
  const int n = static_cast<int>(LD.rows());
  const double* U = LD.data();
  const long ld = LD.outerStride();
  for (int i = n - 1; i >= 0; --i) {  // x := L^-T x
    const double xi = x[i];
    const double* Ui = U + i * ld;
    walk.up(walk.lam[i], [x, Ui, xi](int s, int e) {
      for (int m = s; m <= e; ++m) x[m] -= Ui[m] * xi;
    });
  }
  for (int i = 0; i < n; ++i) {  // x := D^-1 x, then L^-1 x (row i needs rows above it only)
    const double* Ui = U + i * ld;
    double xi = kInversePivots ? x[i] * dinv[i] : x[i] / Ui[i];
    walk.up(walk.lam[i], [&](int s, int e) {  // down each range: the walk's order of the sum
      for (int m = e; m >= s; --m) xi -= Ui[m] * x[m];
    });
    x[i] = xi;
  }
}

template <bool kInversePivots>
void solve_upper(const MatX& LD, const int* lam, const double* dinv, double* x) {
  if (const int* run = ancestor_runs(lam, static_cast<int>(LD.rows())))
    return solve_upper<kInversePivots>(LD, ByRun{lam, run}, dinv, x);
  solve_upper<kInversePivots>(LD, ByEntry{lam}, dinv, x);
}
}  // namespace

void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, double* x) {
  solve_upper<false>(LD, lambda.data(), nullptr, x);
}

void sparse_multiply(const MatX& H, const std::vector<int>& lambda, const VecX& x, VecX& y) {
  const int n = static_cast<int>(H.rows());
  y.resize(n);
  for (int i = 0; i < n; ++i) y[i] = H(i, i) * x[i];
  for (int i = n - 1; i >= 0; --i)
    for (int j = lambda[i]; j >= 0; j = lambda[j]) {
      y[i] += H(i, j) * x[j];
      y[j] += H(i, j) * x[i];
    }
}

bool ltdl_factor(const Model& model, Data& data) {
  // Only H's branch pattern is copied (L has no fill outside it, RBDA 6.5); the rest of LD
  // stays zero from its first use.
  const int n = model.nv;
  reserve_mass_matrix(data.LD, n);
  const int* lam = model.lambda_v.data();
  for (int k = 0; k < n; ++k) {
    data.LD(k, k) = data.H(k, k);
    for (int j = lam[k]; j >= 0; j = lam[j]) data.LD(j, k) = data.H(k, j);
  }
  return factor_upper(data.LD.data(), data.LD.outerStride(), n, lam, data.LD_dinv.data());
}

void ltdl_solve(const Model& model, const Data& data, VecX& x) {
  ltdl_solve(model, data, x.data());
}

void ltdl_solve(const Model& model, const Data& data, double* x) {
  solve_upper<true>(data.LD, model.lambda_v.data(), data.LD_dinv.data(), x);
}

}  // namespace articula
