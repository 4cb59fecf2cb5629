#include "core/algorithms/ltdl.hpp"

namespace articula {

bool ltdl_factor(MatX& H, const std::vector<int>& lambda) {  // RBDA Table 6.3, LTDL
  const int n = static_cast<int>(H.rows());
  for (int k = n - 1; k >= 0; --k) {
    if (!(H(k, k) > 0.0)) return false;
    for (int i = lambda[k]; i >= 0; i = lambda[i]) {
      const double a = H(k, i) / H(k, k);
      for (int j = i; j >= 0; j = lambda[j]) H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
  return true;
}

void ltdl_solve(const MatX& LD, const std::vector<int>& lambda, VecX& x) {  // Table 6.5
  const int n = static_cast<int>(LD.rows());
  for (int i = n - 1; i >= 0; --i)  // x := L^-T x
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] -= LD(i, j) * x[i];
  for (int i = 0; i < n; ++i) x[i] /= LD(i, i);  // x := D^-1 x
  for (int i = 0; i < n; ++i)  // x := L^-1 x
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] -= LD(i, j) * x[j];
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
  data.LD.triangularView<Eigen::Lower>() = data.H;
  return ltdl_factor(data.LD, model.lambda_v);
}

void ltdl_solve(const Model& model, const Data& data, VecX& x) {
  ltdl_solve(data.LD, model.lambda_v, x);
}

}  // namespace articula
