#include "core/sim/contact/impact.hpp"

#include <algorithm>
#include <cmath>

#include "core/sim/contact/lemke.hpp"

namespace articula {

ImpactSolution solve_impact(const Model& model, Data& data, const ImpactProblem& P,
                            ConstrainedDynamicsWork& work) {
  const int m = static_cast<int>(P.G.rows()), k = static_cast<int>(P.J.rows());
  // The response to a unit impulse on each row, the equality rows held: D = H^-1 (J^T + G^T π)
  // with G D = 0, one Method 2 solve per row: the first factors, the others reuse the factors.
  MatX D(model.nv, k);
  data.C.setZero(model.nv);
  const VecX zero = VecX::Zero(m);
  work.keep_rows = true;
  for (int i = 0; i < k; ++i) {
    const VecX tau = P.J.row(i).transpose();
    if (i == 0 || !constrained_resolve(model, data, P.G, zero, tau, work))
      constrained_forward_dynamics(model, data, P.G, zero, tau, work);
    D.col(i) = data.qdd;
  }
  // Newton's law as w = A p + b >= 0 ⊥ p >= 0, with A = J D symmetric positive semidefinite
  // (singular when the rows are dependent under the loops and drives) and b the target rates.
  MatX A = P.J * D;
  A = (0.5 * (A + A.transpose())).eval();
  VecX b(k);
  for (int i = 0; i < k; ++i) b[i] = P.rate[i] + P.e[i] * std::min(P.rate[i], 0.0);
  const LcpSolution lcp = solve_lcp_lemke(A, b);
  ImpactSolution s;
  s.p = lcp.z;
  s.dv = D * s.p;
  s.rate = P.rate + P.J * s.dv;
  s.pivots = lcp.pivots;
  const double v_scale = 1.0 + P.rate.cwiseAbs().maxCoeff();
  const VecX w = A * s.p + b;
  s.solved = lcp.solved && (k == 0 || w.minCoeff() >= -1e-10 * v_scale);
  s.contact_work = 0.0;
  for (int i = 0; i < k; ++i) s.contact_work += s.p[i] * (s.rate[i] + P.rate[i]) / 2;
  return s;
}

}  // namespace articula
