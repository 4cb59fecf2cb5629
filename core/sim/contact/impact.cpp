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

// The contacts' groups of tangent rows: consecutive rows of one contact (one in a plane, two in
// space), as group[j] per row; returns the number of groups.
int tangent_groups(const ImpactProblem& P, std::vector<int>& group) {
  const int f = static_cast<int>(P.T.rows());
  group.assign(f, 0);
  int g = -1;
  for (int j = 0; j < f; ++j) group[j] = (j > 0 && P.row_of[j] == P.row_of[j - 1]) ? g : ++g;
  return g + 1;
}

// Stewart and Trinkle's LCP (impact.hpp) from the contact-space matrix A of the rows [J; T]
// (k + f) and the slip rates s: unknowns z = [p (k), a⁺ (f), a⁻ (f), β (one per contact)],
// w = M z + q. A contact's rows share its β: Σ (a⁺ + a⁻) <= μ p over them.
void friction_lcp(const ImpactProblem& P, const MatX& A, const VecX& b, const VecX& s, MatX& M,
                  VecX& q) {
  const int k = static_cast<int>(P.J.rows()), f = static_cast<int>(P.T.rows());
  std::vector<int> group;
  const int c = tangent_groups(P, group);
  M.setZero(k + 2 * f + c, k + 2 * f + c);
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
    const int g = be + group[j];
    M(ap + j, g) = M(am + j, g) = 1.0;
    M(g, P.row_of[j]) = P.mu[j];
    M(g, ap + j) = M(g, am + j) = -1.0;
  }
  q.setZero(k + 2 * f + c);
  q.head(k) = b;
  q.segment(ap, f) = s;
  q.segment(am, f) = -s;
}

// Whether Lemke's z (complementary by construction) leaves w = M z + q >= 0 to round-off of the
// rates' scale.
bool lcp_feasible(const MatX& M, const VecX& q, const VecX& z, double v_scale) {
  return z.size() == 0 || (M * z + q).minCoeff() >= -1e-10 * v_scale;
}
}  // namespace

namespace {
// The tangent rows of a spatial contact turned to the axis u (unit, in its two tangents): rows
// u·T and u⊥·T, so that the LCP's friction square has a corner along u.
void set_axis(MatX& Q, int j, const Eigen::Vector2d& u) {
  Q.block<2, 2>(j, j) << u[0], u[1], -u[1], u[0];
}

// The friction LCP solved (impact.hpp), p and p_t out. Its set of impulses for a spatial contact
// is a square |a| + |b| <= μ p over the pair turned to an axis u, with corners along ±u. Coulomb's
// disc is met exactly by turning the pair until u lies along the slip left, where the impulse is
// that corner, -μ p ŝ (a corner alone does not make it oppose the slip: its normal cone is a
// quarter turn wide), or, with the slip stopped, along the impulse, which is then inside the
// square iff inside the disc (the square touches the disc there). The axis starts along the slip
// before the impact; a few turns settle it. Unsettled after 200 (seen with two strongly coupled
// contacts at μ = 2 on random matrices, never on the samples), the last square's impulse is kept:
// Newton's law holds, |p_t| <= μ p, energy is lost, but it may not oppose the slip exactly.
LcpSolution friction_impulses(const ImpactProblem& P, const MatX& A, const MatX& D, const VecX& b,
                              double v_scale, MatX& M, VecX& q, VecX& p, VecX& pt, bool& settled) {
  const int k = static_cast<int>(P.J.rows()), f = static_cast<int>(P.T.rows());
  std::vector<int> group;
  tangent_groups(P, group);
  MatX Q = MatX::Identity(f, f);
  std::vector<Eigen::Vector2d> axis(f, Eigen::Vector2d(1, 0));
  for (int j = 0; j + 1 < f; ++j)
    if (group[j] == group[j + 1] && P.slip.segment<2>(j).norm() > 0)
      axis[j] = P.slip.segment<2>(j).normalized(), set_axis(Q, j, axis[j]);
  LcpSolution lcp;
  MatX Qf = MatX::Identity(k + f, k + f);
  for (int it = 0; it < 200; ++it) {
    Qf.bottomRightCorner(f, f) = Q;
    friction_lcp(P, Qf * A * Qf.transpose(), b, Q * P.slip, M, q);
    lcp = solve_lcp_lemke(M, q);
    p = lcp.z.head(k);
    pt = Q.transpose() * (lcp.z.segment(k, f) - lcp.z.segment(k + f, f));
    const VecX slip = P.slip + P.T * (D.leftCols(k) * p + D.rightCols(f) * pt);
    bool turned = false;
    for (int j = 0; j + 1 < f; ++j) {
      if (group[j] != group[j + 1]) continue;
      const Eigen::Vector2d w = slip.segment<2>(j), i = -pt.segment<2>(j);
      // At the disc's rim (a corner) and sliding: follow the slip; inside it (on an edge of the
      // square, or stopped): follow the impulse, so that the square can grow along it.
      const double rim = P.mu[j] * p[P.row_of[j]];
      const bool slides = w.norm() > 1e-12 * v_scale && i.norm() >= rim * (1 - 1e-9);
      if (!slides && !(i.norm() > 1e-14 * (1 + p.norm()))) continue;
      Eigen::Vector2d u = slides ? w.normalized() : i.normalized();
      // Half turns once the first ones have not settled: the normal impulse moves with the
      // axis too, and full turns can cycle (period 3 seen on random contact matrices).
      if (it >= 8 && (u + axis[j]).norm() > 1e-3) u = (u + axis[j]).normalized();
      if ((u - axis[j]).norm() > 1e-13) turned = true, axis[j] = u, set_axis(Q, j, u);
    }
    settled = !turned;
    if (!turned || !lcp.solved) break;
  }
  return lcp;
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
  MatX M = A;
  VecX q = b;
  ImpactSolution s;
  const double v_scale =
      1.0 + std::max(P.rate.cwiseAbs().maxCoeff(), f ? P.slip.cwiseAbs().maxCoeff() : 0.0);
  const LcpSolution lcp =
      f ? friction_impulses(P, A, D, b, v_scale, M, q, s.p, s.pt, s.coulomb_exact)
        : solve_lcp_lemke(M, q);
  if (!f) s.p = lcp.z, s.pt.resize(0);
  s.dv = D.leftCols(k) * s.p;
  if (f) s.dv += D.rightCols(f) * s.pt;
  s.rate = P.rate + P.J * s.dv;
  s.slip = f ? VecX(P.slip + P.T * s.dv) : VecX(0);
  s.pivots = lcp.pivots;
  s.solved = lcp.solved && lcp_feasible(M, q, lcp.z, v_scale);
  s.contact_work = 0.0;
  for (int i = 0; i < k; ++i) s.contact_work += s.p[i] * (s.rate[i] + P.rate[i]) / 2;
  for (int j = 0; j < f; ++j) s.contact_work += s.pt[j] * (s.slip[j] + P.slip[j]) / 2;
  return s;
}

}  // namespace articula
