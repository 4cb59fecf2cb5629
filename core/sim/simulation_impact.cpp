// Impacts in the simulation (RBDA 11.7): Newton's law by impulses on the loop-constrained system
// for every touching unilateral at once, with Coulomb friction on the tangent rows of planar
// contacts (contact/impact), and the end of a Zeno series (a contact brought to rest).
#include <Eigen/LU>
#include <algorithm>
#include <string>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/sim/contact/closed_rates.hpp"
#include "core/sim/contact/impact.hpp"
#include "core/sim/event_location.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

using event_location::kRest;
using event_location::kTouch;

// The end of a Zeno series: a contact bouncing off with a rate too small to lift it out of the
// touch band before the approach brings it back (a flight of under 1e-9 m, the next impact due at
// once with no impulse to give). It is held from here like one that bounced off under kRest,
// with the residual rate projected away (the kinetic energy that takes is an impact loss), and
// lifts off when its force would pull.
void Simulation::come_to_rest(int item) {
  unilaterals_.set_closed(item, true);
  constraints_.restack();
  ConstraintContext c{mech_, drives_, data_};
  c.t = t_, c.q = &q_, c.qd = &qd_;
  absorb_closed_rates(model_, data_, constraints_, c, unilaterals_.rows.size(), qd_, account_);
  settle_active_set();
}

namespace {
// The unilaterals an impulse or a contact force can act on: closed, or touching.
std::vector<int> touching(const Mechanism& mech, const Data& data, const UnilateralState& s,
                          const VecX& q) {
  std::vector<int> out;
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k)
    if (s.items[k].complementary() &&  // friction is finite, a slot two-sided: no impulse
        (s.closed[k] || unilateral_phi(mech, data, s.items[k], q) <= kTouch))
      out.push_back(k);
  return out;
}
// The tangent rows of the frictional candidates: a contact's slides follow it (bind_unilaterals'
// order), one in a plane, a pair of orthogonal tangents in space; with their slip rates and μ.
void impact_friction_rows(const Mechanism& mech, const Data& data, const UnilateralState& s,
                          const std::vector<int>& cand, const VecX& q, const VecX& qd,
                          ImpactProblem& P) {
  std::vector<int> slides;
  P.row_of.clear();
  for (std::size_t i = 0; i < cand.size(); ++i) {
    const int k = cand[i] + 1;
    if (k >= static_cast<int>(s.items.size()) || !s.items[k].slide() ||
        s.items[k].normal_item != cand[i] || !(s.items[k].bound > 0))
      continue;
    slides.push_back(k), P.row_of.push_back(static_cast<int>(i));
    if (s.items[k].partner >= 0)
      slides.push_back(s.items[k].partner), P.row_of.push_back(static_cast<int>(i));
  }
  const int f = static_cast<int>(slides.size());
  P.T.setZero(f, P.J.cols());
  P.slip.resize(f), P.mu.resize(f);
  GapState g;
  for (int j = 0; j < f; ++j) {
    unilateral_gap(mech, data, s.items[slides[j]], q, &qd, g, P.T.row(j));
    P.slip[j] = g.rate;
    P.mu[j] = s.items[slides[j]].bound;
  }
}
}  // namespace

// Whether a friction joint's stuck row would add to the rank of the rows now held: if not, the
// loops and drives fix its rate (a four-bar's joint turning back while the linkage moves on), so
// sticking would need an impulse; Coulomb's law then just reverses the friction.
bool Simulation::row_adds_rank(int item) {
  forward_kinematics_bias(model_, data_, q_, qd_);
  ConstraintContext c{mech_, drives_, data_};
  c.t = t_, c.q = &q_, c.qd = &qd_;
  constraints_.acceleration(c);
  const MatX& G = constraints_.G();
  MatX A(G.rows() + 1, model_.nv);
  A.topRows(G.rows()) = G;
  GapState g;
  unilateral_gap(mech_, data_, unilaterals_.items[item], q_, &qd_, g, A.row(G.rows()));
  const double tol = 1e-9 * std::max(1.0, A.cwiseAbs().maxCoeff());
  Eigen::FullPivLU<MatX> with(A), without(G);
  with.setThreshold(tol / std::max(1.0, A.cwiseAbs().maxCoeff()));
  without.setThreshold(tol / std::max(1.0, A.cwiseAbs().maxCoeff()));
  return G.rows() == 0 ? A.row(0).norm() > tol : with.rank() > without.rank();
}

// Newton's impact law on every touching unilateral at once (RBDA 11.7), loops, drives and
// couplings held: G Δq̇ = 0.
void Simulation::impact(int item) {
  UnilateralState& s = unilaterals_;
  forward_kinematics_bias(model_, data_, q_, qd_);
  std::vector<int> cand = touching(mech_, data_, s, q_);
  if (std::find(cand.begin(), cand.end(), item) == cand.end()) cand.push_back(item);
  const std::vector<char> was_closed = s.closed;
  for (std::size_t k = 0; k < s.closed.size(); ++k)  // engaged slots stay: two-sided rows
    if (!s.items[k].slot()) s.closed[k] = 0;
  s.update_rows();  // G holds the equality rows only
  constraints_.restack();
  ConstraintContext c{mech_, drives_, data_};
  c.t = t_, c.q = &q_, c.qd = &qd_;
  constraints_.acceleration(c);
  ImpactProblem P{constraints_.G(), MatX(cand.size(), model_.nv), VecX(cand.size()),
                  VecX(cand.size())};
  GapState g;
  for (std::size_t i = 0; i < cand.size(); ++i) {
    unilateral_gap(mech_, data_, s.items[cand[i]], q_, &qd_, g, P.J.row(i));
    P.rate[i] = g.rate;
    P.e[i] = s.items[cand[i]].restitution;
  }
  impact_friction_rows(mech_, data_, s, cand, q_, qd_, P);
  crba(model_, data_, q_);
  if (!ltdl_factor(model_, data_))
    throw SetupError("at t = " + std::to_string(t_) + " the impact at '" + s.items[item].name +
                     "' involves bodies without mass: impulses are undefined");
  const double T0 = kinetic_energy_lower(data_.H, qd_);
  ConstrainedDynamicsWork work;
  const ImpactSolution sol = solve_impact(model_, data_, P, work);
  if (!sol.solved)
    throw SetupError("at t = " + std::to_string(t_) + " the impact at '" + s.items[item].name +
                     "' has no consistent impulses (degenerate contact configuration)");
  qd_ += sol.dv;
  const double T1 = kinetic_energy_lower(data_.H, qd_);
  account_.add_impact(-sol.contact_work, T1 - T0 - sol.contact_work);
  for (std::size_t i = 0; i < cand.size(); ++i) {
    const int k = cand[i];
    if (sol.p[i] > 0) events_.push_back({t_, s.items[k].name, "impact", sol.p[i]});
    s.closed[k] = sol.rate[i] <= kRest;  // at rest on it: held until its force would pull
  }
  for (std::size_t k = 0; k < s.closed.size(); ++k)
    if (std::find(cand.begin(), cand.end(), static_cast<int>(k)) == cand.end())
      s.closed[k] = was_closed[k];
  s.update_rows();
  constraints_.restack();
  settle_active_set();
}

}  // namespace articula
