#include "core/sim/contact/impact.hpp"

#include <algorithm>
#include <cmath>

#include "core/sim/contact/lemke.hpp"

namespace articula {

namespace {
// The response to a unit impulse on each row of R, the equality rows held: D = H^-1 (R^T + G^T π)
// with G D = 0, one Method 2 solve per row: the first factors, the others reuse the factors.
MatX impulse_responses(const Model& model, Data& data, const MatX& G, const MatX& R,
                       ConstrainedDynamicsWork& work) {
  MatX D(model.nv, R.rows());
  data.C.setZero(model.nv);
  const VecX zero = VecX::Zero(G.rows());
  work.keep_rows = true;
  for (int i = 0; i < R.rows(); ++i) {
    const VecX tau = R.row(i).transpose();
    if (i == 0 || !constrained_resolve(model, data, G, zero, tau, work))
      constrained_forward_dynamics(model, data, G, zero, tau, work);
    D.col(i) = data.qdd;
  }
  return D;
}

// Stewart and Trinkle's LCP (impact.hpp) from the contact-space matrix A of the rows [J; T]
// (k + f): unknowns z = [p (k), a⁺ (f), a⁻ (f), β (f)], w = M z + q.
void friction_lcp(const ImpactProblem& P, const MatX& A, const VecX& b, MatX& M, VecX& q) {
  const int k = static_cast<int>(P.J.rows()), f = static_cast<int>(P.T.rows());
  M.setZero(k + 3 * f, k + 3 * f);
  const int ap = k, am = k + f, be = k + 2 * f;
  const MatX Ant = A.topRightCorner(k, f), Atn = A.bottomLeftCorner(f, k),
             Att = A.bottomRightCorner(f, f);
  M.topLeftCorner(k, k) = A.topLeftCorner(k, k);
  M.block(0, ap, k, f) = Ant;
  M.block(0, am, k, f) = -Ant;
  M.block(ap, 0, f, k) = Atn;
  M.block(ap, ap, f, f) = Att;
  M.block(ap, am, f, f) = -Att;
  M.block(am, 0, f, k) = -Atn;
  M.block(am, ap, f, f) = -Att;
  M.block(am, am, f, f) = Att;
  for (int j = 0; j < f; ++j) {
    M(ap + j, be + j) = M(am + j, be + j) = 1.0;
    M(be + j, P.row_of[j]) = P.mu[j];
    M(be + j, ap + j) = M(be + j, am + j) = -1.0;
  }
  q.setZero(k + 3 * f);
  q.head(k) = b;
  q.segment(ap, f) = P.slip;
  q.segment(am, f) = -P.slip;
}

// Whether Lemke's z (complementary by construction) leaves w = M z + q >= 0 to round-off of the
// rates' scale.
bool lcp_feasible(const MatX& M, const VecX& q, const VecX& z, double v_scale) {
  return z.size() == 0 || (M * z + q).minCoeff() >= -1e-10 * v_scale;
}
}  // namespace

ImpactSolution solve_impact(const Model& model, Data& data, const ImpactProblem& P,
                            ConstrainedDynamicsWork& work) {
  const int k = static_cast<int>(P.J.rows()), f = static_cast<int>(P.T.rows());
  MatX R(k + f, model.nv);
  R.topRows(k) = P.J;
  if (f) R.bottomRows(f) = P.T;
  const MatX D = impulse_responses(model, data, P.G, R, work);
  // Newton's law as w = A p + b >= 0 ⊥ p >= 0, with A = R D symmetric positive semidefinite
  // (singular when the rows are dependent under the loops and drives) and b the target rates.
  MatX A = R * D;
  A = (0.5 * (A + A.transpose())).eval();
  VecX b(k);
  for (int i = 0; i < k; ++i) b[i] = P.rate[i] + P.e[i] * std::min(P.rate[i], 0.0);
  MatX M;
  VecX q;
  if (f)
    friction_lcp(P, A, b, M, q);
  else
    M = A, q = b;
  const LcpSolution lcp = solve_lcp_lemke(M, q);
  ImpactSolution s;
  s.p = lcp.z.head(k);
  s.pt = f ? VecX(lcp.z.segment(k, f) - lcp.z.segment(k + f, f)) : VecX(0);
  s.dv = D.leftCols(k) * s.p;
  if (f) s.dv += D.rightCols(f) * s.pt;
  s.rate = P.rate + P.J * s.dv;
  s.slip = f ? VecX(P.slip + P.T * s.dv) : VecX(0);
  s.pivots = lcp.pivots;
  const double v_scale =
      1.0 + std::max(P.rate.cwiseAbs().maxCoeff(), f ? P.slip.cwiseAbs().maxCoeff() : 0.0);
  s.solved = lcp.solved && lcp_feasible(M, q, lcp.z, v_scale);
  s.contact_work = 0.0;
  for (int i = 0; i < k; ++i) s.contact_work += s.p[i] * (s.rate[i] + P.rate[i]) / 2;
  for (int j = 0; j < f; ++j) s.contact_work += s.pt[j] * (s.slip[j] + P.slip[j]) / 2;
  return s;
}

}  // namespace articula
