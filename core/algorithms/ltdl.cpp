#include "core/algorithms/ltdl.hpp"

namespace articula {

bool ltdl_factor(MatX& H, const std::vector<int>& lambda) {  // RBDA Table 6.3, LTDL
  // Works on the upper triangle U = H^T (column-major: a row of H's lower triangle is a column
  // of U, contiguous), where runs of consecutive ancestors (unbranched chains) are updated as
  // vector segments; the factor is mirrored into the lower triangle at the end.
  const int n = static_cast<int>(H.rows());
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r) H(c, r) = H(r, c);
  for (int k = n - 1; k >= 0; --k) {
    if (!(H(k, k) > 0.0)) return false;
    for (int i = lambda[k]; i >= 0; i = lambda[i]) {
      const double a = H(i, k) / H(k, k);
      for (int j = i; j >= 0;) {  // ancestors j of i (i included), run by run
        int j0 = j;
        while (j0 > 0 && lambda[j0] == j0 - 1) --j0;
        H.col(i).segment(j0, j - j0 + 1) -= a * H.col(k).segment(j0, j - j0 + 1);
        j = lambda[j0];
      }
      H(i, k) = a;
    }
  }
  for (int c = 0; c < n; ++c)
    for (int r = c + 1; r < n; ++r) H(r, c) = H(c, r);
  return true;
}

void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, VecX& x) { ltdl_solve(LD, lambda, x.data()); }

void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, double* x) {  // Table 6.5
  // Raw pointers: writes through x could alias LD's storage as far as the compiler knows, which
  // would reload every coefficient (this runs per constraint column at every integrator stage).
  const int n = static_cast<int>(LD.rows());
  const double* L = LD.data();
  const long ld = LD.outerStride();
  const int* lam = lambda.data();
  for (int i = n - 1; i >= 0; --i) {  // x := L^-T x
    const double xi = x[i];
    for (int j = lam[i]; j >= 0; j = lam[j]) x[j] -= L[i + j * ld] * xi;
  }
  for (int i = 0; i < n; ++i) {  // x := D^-1 x, then L^-1 x (row i needs rows above it only)
    double xi = x[i] / L[i + i * ld];
    for (int j = lam[i]; j >= 0; j = lam[j]) xi -= L[i + j * ld] * x[j];
    x[i] = xi;
  }
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
  data.LD = data.H;
  return ltdl_factor(data.LD, model.lambda_v);
}

void ltdl_solve(const Model& model, const Data& data, VecX& x) {
  ltdl_solve(data.LD, model.lambda_v, x);
}

}  // namespace articula
