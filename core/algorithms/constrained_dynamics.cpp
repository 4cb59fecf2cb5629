#include "core/algorithms/constrained_dynamics.hpp"

#include <algorithm>
#include <cmath>

#include "core/algorithms/ltdl.hpp"

namespace articula {

namespace {
double row_norm2(const MatX& G, int r) {  // |G_r|^2 without a strided Eigen reduction
  double x = 0.0;
  for (int j = 0; j < G.cols(); ++j) x += G(r, j) * G(r, j);
  return x;
}
}  // namespace

void constrained_forward_dynamics(const Model& model, Data& data, const MatX& G, const VecX& g,
                                  const VecX& tau, ConstrainedDynamicsWork& w,
                                  double rank_tolerance) {  // RBDA 8.5, Method 2
  const int m = static_cast<int>(G.rows());
  w.qdd0 = tau;
  w.qdd0 -= data.C;
  ltdl_solve(model, data, w.qdd0);
  data.qdd = w.qdd0;
  if (m == 0) {
    w.mu.resize(0);
    w.rank = 0;
    w.residual = 0.0;
    return;
  }
  if (w.minimum_norm) {
    w.Y = G.transpose();
    for (int c = 0; c < m; ++c) ltdl_solve(data.LD, model.lambda_v, w.Y.col(c).data());
    w.A.noalias() = G * w.Y;
    w.rhs = g;
    w.rhs.noalias() -= G * w.qdd0;
    w.cod.setThreshold(rank_tolerance);
    w.cod.compute(w.A);
    w.rank = static_cast<int>(w.cod.rank());
    w.mu = w.cod.solve(w.rhs);
    data.qdd.noalias() += w.Y * w.mu;
  } else {
    // Rows below 1e-12 of the largest contribute pivots below 1e-24 of A's largest, far under
    // rank_tolerance: the pivoted factor would drop them anyway, so they are left out up front
    // (their μ is zero). This shrinks a planar mechanism's m x m solve to its in-plane rows.
    // The products are plain loops: these matrices are a few rows by a few columns, where
    // Eigen's dynamic-size product kernels cost more in dispatch than in arithmetic.
    const int n = static_cast<int>(G.cols());
    w.mu.resize(m);  // scratch for the row norms until μ is written below
    double largest = 0.0;
    for (int r = 0; r < m; ++r) largest = std::max(largest, w.mu[r] = row_norm2(G, r));
    w.rows.clear();
    w.rows.reserve(m);  // allocates once: the capacity stays
    for (int r = 0; r < m; ++r)
      if (w.mu[r] > 1e-24 * largest) w.rows.push_back(r);
    const int mc = static_cast<int>(w.rows.size());
    w.Y.resize(n, mc);
    w.rhs.resize(mc);
    for (int c = 0; c < mc; ++c) {
      const int r = w.rows[c];
      double gq = 0.0;
      for (int j = 0; j < n; ++j) {
        w.Y(j, c) = G(r, j);
        gq += G(r, j) * w.qdd0[j];
      }
      w.rhs[c] = g[r] - gq;  // g - G q̈0
      ltdl_solve(data.LD, model.lambda_v, w.Y.col(c).data());  // Y = H^-1 G^T
    }
    w.A.resize(mc, mc);
    for (int c = 0; c < mc; ++c)  // A = G Y, lower triangle (all the factor reads)
      for (int r = c; r < mc; ++r) {
        double x = 0.0;
        for (int j = 0; j < n; ++j) x += G(w.rows[r], j) * w.Y(j, c);
        w.A(r, c) = x;
      }
    w.ldlt.factor(w.A, rank_tolerance);
    w.rank = w.ldlt.rank();
    w.ldlt.solve(w.rhs);
    w.mu.setZero(m);
    for (int c = 0; c < mc; ++c) {
      w.mu[w.rows[c]] = w.rhs[c];
      for (int j = 0; j < n; ++j) data.qdd[j] += w.Y(j, c) * w.rhs[c];  // q̈ = q̈0 + Y μ
    }
  }
  w.residual = 0.0;
  for (int r = 0; r < m; ++r) {
    double x = -g[r];
    for (int j = 0; j < G.cols(); ++j) x += G(r, j) * data.qdd[j];
    w.residual = std::max(w.residual, std::abs(x));
  }
}

}  // namespace articula
