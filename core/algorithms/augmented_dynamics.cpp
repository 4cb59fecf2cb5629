#include "core/algorithms/augmented_dynamics.hpp"

#include <Eigen/Cholesky>

namespace articula {

bool augmented_forward_dynamics(const Model&, Data& data, const MatX& G, const VecX& g,
                                const VecX& tau, ConstrainedDynamicsWork& w,
                                double rank_tolerance) {
  const int m = static_cast<int>(G.rows());
  w.path = ConstrainedDynamicsWork::Path::None;  // its factors are not kept for a resolve
  // W = w I with w the size of H's diagonal, so both terms weigh alike.
  const double scale = data.H.diagonal().cwiseAbs().maxCoeff();
  const double weight = scale > 0 ? scale : 1.0;
  MatX Ha = data.H;
  Ha.noalias() += weight * G.transpose() * G;
  const Eigen::LDLT<MatX> ldlt(Ha);
  const VecX d = ldlt.vectorD();
  const double dmax = Ha.diagonal().cwiseAbs().maxCoeff();
  if (ldlt.info() != Eigen::Success || !(d.minCoeff() > 1e-12 * dmax)) return false;
  w.qdd0 = ldlt.solve(VecX(tau - data.C + weight * G.transpose() * g));
  if (m == 0) {
    data.qdd = w.qdd0;
    w.mu.resize(0);
    w.rank = 0;
    w.residual = 0.0;
    return true;
  }
  w.Y = ldlt.solve(MatX(G.transpose()));
  w.A.noalias() = G * w.Y;
  w.rhs = g - G * w.qdd0;
  w.cod.setThreshold(rank_tolerance);
  w.cod.compute(w.A);
  w.rank = static_cast<int>(w.cod.rank());
  w.mu = w.cod.solve(w.rhs);
  data.qdd = w.qdd0 + w.Y * w.mu;
  w.residual = (G * data.qdd - g).cwiseAbs().maxCoeff();
  return true;
}

}  // namespace articula
