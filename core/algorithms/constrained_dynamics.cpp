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
  w.Y = G.transpose();
  for (int c = 0; c < m; ++c) ltdl_solve(data.LD, model.lambda_v, w.Y.col(c).data());
  w.A.noalias() = G * w.Y;
  w.rhs = g;
  w.rhs.noalias() -= G * w.qdd0;
  if (w.minimum_norm) {
    w.cod.setThreshold(rank_tolerance);
    w.cod.compute(w.A);
    w.rank = static_cast<int>(w.cod.rank());
    w.mu = w.cod.solve(w.rhs);
  } else {
    w.ldlt.factor(w.A, rank_tolerance);
    w.rank = w.ldlt.rank();
    w.mu = w.rhs;
    w.ldlt.solve(w.mu);
  }
  data.qdd.noalias() += w.Y * w.mu;
  w.residual = 0.0;
  for (int r = 0; r < m; ++r) w.residual = std::max(w.residual, std::abs(G.row(r).dot(data.qdd) - g[r]));
}

}  // namespace articula
