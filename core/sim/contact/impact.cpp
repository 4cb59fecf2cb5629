#include "core/sim/contact/impact.hpp"

#include <algorithm>
#include <cmath>

namespace articula {

namespace {
// One principal subproblem: the rows in `active` held at their targets.
void solve_subproblem(const Model& model, Data& data, const ImpactProblem& P,
                      const std::vector<char>& active, ConstrainedDynamicsWork& work,
                      ImpactSolution& out) {
  const int m = static_cast<int>(P.G.rows()), k = static_cast<int>(P.J.rows());
  const int na = static_cast<int>(std::count(active.begin(), active.end(), 1));
  MatX G(m + na, model.nv);
  VecX g = VecX::Zero(m + na);
  G.topRows(m) = P.G;
  for (int i = 0, r = m; i < k; ++i) {
    if (!active[i]) continue;
    G.row(r) = P.J.row(i);  // J Δq̇ = -q̇⁻ - e min(q̇⁻, 0): the target rate after the impact
    g[r++] = -P.rate[i] - P.e[i] * std::min(P.rate[i], 0.0);
  }
  data.C.setZero(model.nv);
  constrained_forward_dynamics(model, data, G, g, VecX::Zero(model.nv), work);
  out.dv = data.qdd;
  out.p = VecX::Zero(k);
  for (int i = 0, r = m; i < k; ++i)
    if (active[i]) out.p[i] = work.mu[r++];
  out.rate = P.rate + P.J * out.dv;
}
}  // namespace

ImpactSolution solve_impact(const Model& model, Data& data, const ImpactProblem& P,
                            ConstrainedDynamicsWork& work) {
  const int k = static_cast<int>(P.J.rows());
  std::vector<char> active(k);
  for (int i = 0; i < k; ++i) active[i] = P.rate[i] < 0;  // the approaching rows, to start
  ImpactSolution s;
  const double v_scale = 1.0 + P.rate.cwiseAbs().maxCoeff();
  for (int it = 0; it < 4 * k + 16; ++it) {
    solve_subproblem(model, data, P, active, work, s);
    s.pivots = it;
    const double p_scale = 1.0 + s.p.cwiseAbs().maxCoeff();
    int pivot = -1;
    for (int i = 0; i < k && pivot < 0; ++i) {
      const double w = s.rate[i] + P.e[i] * std::min(P.rate[i], 0.0);
      if (active[i] ? s.p[i] < -1e-12 * p_scale : w < -1e-12 * v_scale) pivot = i;
    }
    if (pivot < 0) {
      s.solved = true;
      break;
    }
    active[pivot] = !active[pivot];
  }
  s.contact_work = 0.0;
  for (int i = 0; i < k; ++i) s.contact_work += s.p[i] * (s.rate[i] + P.rate[i]) / 2;
  return s;
}

}  // namespace articula
