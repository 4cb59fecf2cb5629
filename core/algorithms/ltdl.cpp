#include "core/algorithms/ltdl.hpp"

namespace articula {

namespace {
// RBDA Table 6.3 on the upper triangle U = H^T (column-major: row k of H's lower triangle is
// column k of U, contiguous). Every inner loop walks an ancestor chain, so the work is that of
// the branch-induced sparsity pattern.
bool factor_upper(double* U, long ld, int n, const int* lam, double* dinv_out = nullptr) {
  for (int k = n - 1; k >= 0; --k) {
    const double d = U[k + k * ld];
    if (!(d > 0.0)) return false;
    const double dinv = 1.0 / d;  // one division per row
    if (dinv_out) dinv_out[k] = dinv;
    double* Uk = U + k * ld;
    for (int i = lam[k]; i >= 0; i = lam[i]) {
      const double a = Uk[i] * dinv;
      double* Ui = U + i * ld;
      for (int j = i; j >= 0; j = lam[j]) Ui[j] -= a * Uk[j];
      Uk[i] = a;
    }
  }
  return true;
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
template <bool kInversePivots>
void solve_upper(const MatX& LD, const int* lam, const double* dinv, double* x) {
  const int n = static_cast<int>(LD.rows());
  const double* U = LD.data();
  const long ld = LD.outerStride();
  for (int i = n - 1; i >= 0; --i) {  // x := L^-T x
    const double xi = x[i];
    const double* Ui = U + i * ld;
    for (int j = lam[i]; j >= 0; j = lam[j]) x[j] -= Ui[j] * xi;
  }
  for (int i = 0; i < n; ++i) {  // x := D^-1 x, then L^-1 x (row i needs rows above it only)
    const double* Ui = U + i * ld;
    double xi = kInversePivots ? x[i] * dinv[i] : x[i] / Ui[i];
    for (int j = lam[i]; j >= 0; j = lam[j]) xi -= Ui[j] * x[j];
    x[i] = xi;
  }
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
  // stays zero from Data's construction.
  const int n = model.nv;
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
