#include "core/algorithms/constrained_dynamics.hpp"

#include <algorithm>
#include <cmath>

#include "core/algorithms/ltdl.hpp"

namespace articula {

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
    double largest = 0.0;
    for (int r = 0; r < m; ++r) largest = std::max(largest, G.row(r).squaredNorm());
    w.rows.clear();  // capacity kept: no allocation once sized
    for (int r = 0; r < m; ++r)
      if (G.row(r).squaredNorm() > 1e-24 * largest) w.rows.push_back(r);
    const int mc = static_cast<int>(w.rows.size());
    w.Gc.resize(mc, G.cols());
    w.gc.resize(mc);
    for (int k = 0; k < mc; ++k) {
      w.Gc.row(k) = G.row(w.rows[k]);
      w.gc[k] = g[w.rows[k]];
    }
    w.Y = w.Gc.transpose();
    for (int c = 0; c < mc; ++c) ltdl_solve(data.LD, model.lambda_v, w.Y.col(c).data());
    w.A.noalias() = w.Gc * w.Y;
    w.rhs = w.gc;
    w.rhs.noalias() -= w.Gc * w.qdd0;
    w.ldlt.factor(w.A, rank_tolerance);
    w.rank = w.ldlt.rank();
    w.muc = w.rhs;
    w.ldlt.solve(w.muc);
    data.qdd.noalias() += w.Y * w.muc;
    w.mu.setZero(m);
    for (int k = 0; k < mc; ++k) w.mu[w.rows[k]] = w.muc[k];
  }
  w.residual = 0.0;
  for (int r = 0; r < m; ++r) w.residual = std::max(w.residual, std::abs(G.row(r).dot(data.qdd) - g[r]));
}

}  // namespace articula
