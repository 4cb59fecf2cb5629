#include "core/algorithms/constrained_dynamics.hpp"

#include "core/algorithms/ltdl.hpp"

namespace articula {

void constrained_forward_dynamics(const Model& model, Data& data, const MatX& G, const VecX& g,
                                  const VecX& tau, ConstrainedDynamicsWork& w,
                                  double rank_tolerance) {  // RBDA 8.5, Method 2
  const int m = static_cast<int>(G.rows());
  w.qdd0 = tau - data.C;
  ltdl_solve(model, data, w.qdd0);
  if (m == 0) {
    data.qdd = w.qdd0;
    w.mu.resize(0);
    w.rank = 0;
    w.residual = 0.0;
    return;
  }
  w.Y = G.transpose();
  for (int c = 0; c < m; ++c) {
    VecX col = w.Y.col(c);
    ltdl_solve(model, data, col);
    w.Y.col(c) = col;
  }
  w.A.noalias() = G * w.Y;
  w.rhs = g - G * w.qdd0;
  w.cod.setThreshold(rank_tolerance);
  w.cod.compute(w.A);
  w.rank = static_cast<int>(w.cod.rank());
  w.mu = w.cod.solve(w.rhs);  // minimum-norm when A is singular
  data.qdd = w.qdd0 + w.Y * w.mu;
  w.residual = (G * data.qdd - g).cwiseAbs().maxCoeff();
}

}  // namespace articula
