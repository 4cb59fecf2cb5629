#include "core/algorithms/assembly.hpp"

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/model/configuration.hpp"

namespace articula {

namespace {
double loop_residual(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                     const VecX& q, VecX& delta) {
  forward_kinematics(model, data, q);
  loop_position_errors(model, data, loops, delta);
  return delta.size() ? delta.cwiseAbs().maxCoeff() : 0.0;
}

// K restricted to the free coordinates (locked columns zeroed, so steps leave them alone).
MatX free_columns(const MatX& K, const std::vector<bool>& locked_v) {
  MatX Kf = K;
  for (int c = 0; c < K.cols(); ++c)
    if (locked_v[c]) Kf.col(c).setZero();
  return Kf;
}
}  // namespace

AssemblyResult assemble(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                        VecX& q, const std::vector<bool>& locked_v, double tolerance,
                        int max_iterations) {
  AssemblyResult res;
  VecX delta, trial_delta;
  MatX K;
  double r = loop_residual(model, data, loops, q, delta);
  double mu = 1e-10;
  for (; res.iterations < max_iterations && r > 0.01 * tolerance; ++res.iterations) {
    loop_jacobian(model, data, loops, K);
    const MatX Kf = free_columns(K, locked_v);
    const MatX A = Kf * Kf.transpose();
    const double scale = std::max(1.0, A.diagonal().maxCoeff());
    bool improved = false;
    while (mu < 1e8 && !improved) {
      const MatX Am = A + (mu * scale) * MatX::Identity(A.rows(), A.cols());
      const VecX step = -Kf.transpose() * Am.ldlt().solve(delta);
      const VecX q_trial = integrate(model, q, step, 1.0);
      const double r_trial = loop_residual(model, data, loops, q_trial, trial_delta);
      if (r_trial < r) {
        q = q_trial;
        delta = trial_delta;
        r = r_trial;
        mu = std::max(mu * 0.1, 1e-14);
        improved = true;
      } else {
        mu *= 10.0;
      }
    }
    if (!improved) break;  // stagnation: no step reduces the error any more
    // data holds the kinematics at q: the accepted trial's residual evaluated them
  }
  res.residual = r;
  res.converged = r <= tolerance;
  if (delta.size()) delta.cwiseAbs().maxCoeff(&res.worst_row);
  return res;
}

void project_velocity(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                      const VecX& q, VecX& qd, const std::vector<bool>& locked_v) {
  if (loops.empty()) return;
  forward_kinematics(model, data, q);
  MatX K;
  loop_jacobian(model, data, loops, K);
  const MatX Kf = free_columns(K, locked_v);
  // Minimum-norm correction: Kf Δ = -K qd (rank-revealing, redundant rows allowed).
  const VecX rhs = -(K * qd);
  // At rest (or already consistent) there is nothing to correct: the decomposition of the whole
  // loop Jacobian would return zero (0.1 s at 1,000 bodies, where mechanisms are opened at rest).
  if (rhs.cwiseAbs().maxCoeff() == 0.0) return;
  const VecX d = Kf.completeOrthogonalDecomposition().solve(rhs);
  qd += d;
}

}  // namespace articula
