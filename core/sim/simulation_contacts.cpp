// Joint limits and contacts in the simulation (RBDA 11, contract-additions-2 §2): an event-driven
// step. Between events the closed unilaterals are equality rows (constraints/unilateral_rows);
// an open one crossing φ = 0 is an impact, a closed one whose force λ would turn negative a
// lift-off. Both are located by root finding on the step size (Illinois), to kEventTime; an
// impact applies Newton's law by impulses on the loop-constrained system (contact/impact), and
// after every event the contact complementarity problem at the acceleration level decides which
// unilaterals stay closed (Murty's pivoting, one Method 2 solve per pivot).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/sim/constraints/unilateral_rows.hpp"
#include "core/sim/contact/impact.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

namespace {
constexpr double kTouch = 1e-9;       // gap (m or rad) under which a unilateral touches
constexpr double kRest = 1e-6;        // approach speed (m/s, rad/s) under which it comes to rest
constexpr double kEventTime = 1e-12;  // s: how closely events are located
constexpr int kMaxEvents = 10000;     // per step: more is a Zeno cascade the model cannot resolve

std::string describe_violation(const Mechanism& mech, const Unilateral& u, double phi) {
  std::ostringstream os;
  if (u.kind == Unilateral::Kind::Contact) {
    os << "contact '" << u.name << "' starts with its sphere " << -phi
       << " m inside the plane: move the body or the plane, or assemble it touching";
  } else {
    const LimitSpec& l = *mech.spec.joints[u.user_joint].limits;
    os << "joint '" << u.name << "' starts outside its limits ["
       << (l.lower ? std::to_string(*l.lower) : "-inf") << ", "
       << (l.upper ? std::to_string(*l.upper) : "inf") << "] (by " << -phi
       << "): change q0 or the limits";
  }
  return os.str();
}
}  // namespace

void Simulation::init_unilaterals() {
  UnilateralState& s = unilaterals_;
  s.items = bind_unilaterals(mech_);
  if (s.empty()) return;
  const int n = static_cast<int>(s.items.size());
  s.closed.assign(n, 0);
  s.force.assign(n, 0.0);
  s.slip.assign(n, 0.0);
  gaps_.assign(n, 0.0);
  for (int k = 0; k < n; ++k) friction_ = friction_ || s.items[k].friction();
  constraints_.add(make_unilateral_rows(mech_, s));
  forward_kinematics(model_, data_, mech_.q0);
  for (int k = 0; k < n; ++k) {
    if (s.items[k].friction() && s.items[k].loop >= 0)
      throw SetupError("friction on joint '" + s.items[k].name +
                       "' is not simulated yet: it is a loop joint; make it a tree joint (cut the "
                       "loop at another joint) or remove the friction");
    if (s.items[k].friction()) continue;
    const double phi = unilateral_phi(mech_, data_, s.items[k], mech_.q0);
    if (phi < -kTouch) throw SetupError(describe_violation(mech_, s.items[k], phi));
  }
}

std::vector<Simulation::ContactEvent> Simulation::take_events() {
  std::vector<ContactEvent> out;
  out.swap(events_);
  return out;
}

void Simulation::record_gaps() {
  if (unilaterals_.empty()) return;
  forward_kinematics(model_, data_, q_);
  for (std::size_t k = 0; k < gaps_.size(); ++k)
    gaps_[k] = unilateral_phi(mech_, data_, unilaterals_.items[k], q_);
}

namespace {
struct StepStart {
  double t, work, dissipated, impact_loss;
  VecX q, qd;
};

// A root of f on [0, h] with f(0) = f0 > 0 >= f(h) = fh, bracketed to kEventTime by the Illinois
// method (regula falsi that halves the stale end's value): superlinear, and never leaves the
// bracket. Returns the bracket [lo, hi] with f(lo) > 0 >= f(hi).
std::pair<double, double> bracket_root(const std::function<double(double)>& f, double f0, double h,
                                       double fh) {
  double lo = 0.0, hi = h, flo = f0, fhi = fh;
  int side = 0;
  for (int it = 0; it < 200 && hi - lo > kEventTime; ++it) {
    double s = (lo * fhi - hi * flo) / (fhi - flo);
    const double margin = 0.25 * kEventTime;
    if (!(s > lo + margin && s < hi - margin)) s = 0.5 * (lo + hi);
    const double fs = f(s);
    if (fs > 0) {
      lo = s, flo = fs;
      if (side == 1) fhi *= 0.5;
      side = 1;
    } else {
      hi = s, fhi = fs;
      if (side == -1) flo *= 0.5;
      side = -1;
    }
  }
  return {lo, hi};
}
}  // namespace

// The values the events are watched on, positive between events: φ of the open unilaterals, λ
// of the closed ones; for joint friction slip·q̇ while slipping, F - |λ| while stuck.
void Simulation::event_values(std::vector<double>& out) {
  const UnilateralState& s = unilaterals_;
  out.assign(s.items.size(), 1.0);
  forward_kinematics(model_, data_, q_);
  for (std::size_t k = 0; k < s.items.size(); ++k) {
    const Unilateral& u = s.items[k];
    if (s.closed[k]) continue;
    if (!u.friction())
      out[k] = unilateral_phi(mech_, data_, u, q_);
    else if (u.bound > 0)
      out[k] = s.slip[k] * qd_[u.v];
  }
  if (s.rows.empty()) return;
  accelerations(t_, q_, qd_, qdd_);
  const VecX& mu = active_->multipliers();
  const int row0 = constraints_.last_row0();
  for (std::size_t r = 0; r < s.rows.size(); ++r) {
    const Unilateral& u = s.items[s.rows[r]];
    out[s.rows[r]] = u.friction() ? u.bound - std::abs(mu[row0 + r]) : mu[row0 + r];
  }
}

// The first event in the step, by linear interpolation of the watched values: an open
// unilateral that went below -kTouch, or a closed one whose force went below a negligible
// fraction of the largest.
bool Simulation::next_event(const std::vector<double>& start, PendingEvent& e) {
  std::vector<double> end;
  event_values(end);
  double lmax = 0.0;
  for (int k : unilaterals_.rows) lmax = std::max(lmax, std::abs(start[k]));
  double first = 2.0;
  for (std::size_t k = 0; k < end.size(); ++k) {
    const Unilateral& u = unilaterals_.items[k];
    const bool closed = unilaterals_.closed[k];
    double tol = closed ? 1e-9 * (1.0 + lmax) : kTouch;
    if (u.friction()) tol = closed ? 1e-9 * (1.0 + u.bound) : 1e-12;
    if (!(end[k] < -tol)) continue;
    const double frac = start[k] > 0 ? start[k] / (start[k] - end[k]) : 0.0;
    if (frac >= first) continue;
    first = frac, e.item = static_cast<int>(k);
    e.kind = u.friction() ? (closed ? EventKind::Slip : EventKind::Stick)
                          : (closed ? EventKind::LiftOff : EventKind::Impact);
  }
  e.end_value = e.item >= 0 ? end[e.item] : 0.0;
  return e.item >= 0;
}

double Simulation::event_value(const PendingEvent& e) {
  std::vector<double> v;
  event_values(v);
  return v[e.item];
}

void Simulation::step_with_events(double h, Integrator integrator) {
  const double t_end = t_ + h;
  std::vector<double> start;
  for (int events = 0; t_end - t_ > 1e-13 * std::max(1.0, std::abs(t_end)); ++events) {
    if (events > kMaxEvents)
      throw SetupError("at t = " + std::to_string(t_) + " more than " + std::to_string(kMaxEvents) +
                       " impacts and lift-offs in one step: a Zeno cascade (restitution near 1 "
                       "with a resting contact?)");
    const StepStart s0{t_, account_.work(), account_.dissipated(), account_.impact_loss(), q_, qd_};
    event_values(start);
    const double left = t_end - t_;
    plain_step(left, integrator);
    PendingEvent e;
    if (!next_event(start, e)) return;
    auto trial = [&](double s) {  // the state s after the step's start
      t_ = s0.t, q_ = s0.q, qd_ = s0.qd;
      account_.reset(s0.work, s0.dissipated, s0.impact_loss);
      if (s > 0) plain_step(s, integrator);
      return event_value(e);
    };
    const double f0 = trial(0.0);
    if (f0 > 0) {  // else the event is due now
      const auto [lo, hi] = bracket_root(trial, f0, left, e.end_value);
      trial(e.kind == EventKind::Impact ? lo : hi);  // impacts before the crossing, the rest after
    }
    handle_event(e);
  }
}

void Simulation::handle_event(const PendingEvent& e) {
  UnilateralState& s = unilaterals_;
  const std::string& name = s.items[e.item].name;
  switch (e.kind) {
    case EventKind::Impact:
      return impact(e.item);
    case EventKind::LiftOff:
      s.set_closed(e.item, false);
      events_.push_back({t_, name, "lift_off", 0.0});
      break;
    case EventKind::Stick:
      s.slip[e.item] = 0.0;
      s.set_closed(e.item, true);
      events_.push_back({t_, name, "stick", 0.0});
      break;
    case EventKind::Slip: {
      const auto it = std::find(s.rows.begin(), s.rows.end(), e.item);
      const double lambda =
          active_->multipliers()[constraints_.last_row0() + (it - s.rows.begin())];
      s.slip[e.item] = lambda > 0 ? -1.0 : 1.0;  // against the force the stick could not give
      s.set_closed(e.item, false);
      events_.push_back({t_, name, "slip", 0.0});
      break;
    }
  }
  constraints_.restack();
  settle_active_set();
}

namespace {
// The unilaterals an impulse or a contact force can act on: closed, or touching.
std::vector<int> touching(const Mechanism& mech, const Data& data, const UnilateralState& s,
                          const VecX& q) {
  std::vector<int> out;
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k)
    if (!s.items[k].friction() &&  // joint friction is finite: no impulse
        (s.closed[k] || unilateral_phi(mech, data, s.items[k], q) <= kTouch))
      out.push_back(k);
  return out;
}
}  // namespace

// Newton's impact law on every touching unilateral at once (RBDA 11.7), loops, drives and
// couplings held: G Δq̇ = 0.
void Simulation::impact(int item) {
  UnilateralState& s = unilaterals_;
  forward_kinematics_bias(model_, data_, q_, qd_);
  std::vector<int> cand = touching(mech_, data_, s, q_);
  if (std::find(cand.begin(), cand.end(), item) == cand.end()) cand.push_back(item);
  const std::vector<char> was_closed = s.closed;
  std::fill(s.closed.begin(), s.closed.end(), 0);
  s.update_rows();  // none: G holds the equality rows only
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
  crba(model_, data_, q_);
  if (!ltdl_factor(model_, data_))
    throw SetupError("at t = " + std::to_string(t_) + " the impact at '" + s.items[item].name +
                     "' involves bodies without mass: impulses are undefined");
  const double T0 = 0.5 * qd_.dot(data_.H.selfadjointView<Eigen::Lower>() * qd_);
  ConstrainedDynamicsWork work;
  const ImpactSolution sol = solve_impact(model_, data_, P, work);
  if (!sol.solved)
    throw SetupError("at t = " + std::to_string(t_) + " the impact at '" + s.items[item].name +
                     "' has no consistent impulses (degenerate contact configuration)");
  qd_ += sol.dv;
  const double T1 = 0.5 * qd_.dot(data_.H.selfadjointView<Eigen::Lower>() * qd_);
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

// Joint friction: the Coulomb force -F·slip on the slipping joints and the viscous -c q̇ on all
// (tree joints), added to the applied generalized forces; the power they take is dissipated.
const VecX& Simulation::add_friction(const VecX& v) {
  UnilateralState& s = unilaterals_;
  tau_friction_ = applied_.tree_tau();
  friction_dissipation_ = 0.0;
  for (std::size_t k = 0; k < s.items.size(); ++k) {
    const Unilateral& u = s.items[k];
    if (!u.friction()) continue;
    double f = -u.viscous * v[u.v];
    if (!s.closed[k]) f -= u.bound * s.slip[k], s.force[k] = f;
    tau_friction_[u.v] += f;
    friction_dissipation_ -= f * v[u.v];
  }
  return tau_friction_;
}

namespace {
// Which way a pivot goes for candidate k (settle_active_set): true to toggle it.
struct PivotTest {
  const Unilateral& u;
  bool closed;
  double lambda, accel, slip;  // multiplier (closed), φ̈ or q̈ (open), slip direction
  double ltol, atol;
  bool violated() const {
    if (u.friction())
      return closed ? std::abs(lambda) > u.bound + ltol : slip * accel < -atol || slip == 0.0;
    return closed ? lambda < -ltol : accel < -atol;
  }
};
}  // namespace

// The candidates of the complementarity problem: touching and at rest (limits, contacts), or at
// rest (friction). The others are opened; a moving friction joint slips the way it moves.
std::vector<int> Simulation::rest_candidates() {
  UnilateralState& s = unilaterals_;
  forward_kinematics_bias(model_, data_, q_, qd_);
  std::vector<int> cand;
  GapState g;
  Eigen::RowVectorXd J(model_.nv);
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k) {
    const Unilateral& u = s.items[k];
    unilateral_gap(mech_, data_, u, q_, &qd_, g, J);
    const bool at_rest =
        (u.friction() ? u.bound > 0 : g.phi <= kTouch) && std::abs(g.rate) <= kRest;
    if (at_rest) {
      cand.push_back(k);
      if (u.friction() && !s.closed[k] && s.slip[k] == 0.0) s.closed[k] = 1;  // start stuck
    } else {
      s.closed[k] = 0;
      if (u.friction()) s.slip[k] = g.rate > 0 ? 1.0 : g.rate < 0 ? -1.0 : 0.0;
    }
  }
  return cand;
}

// Which candidates carry force now (RBDA 11.3, Eqs. 11.37-11.43): λ >= 0 on the closed
// limits and contacts, φ̈ >= 0 on the open ones, λ φ̈ = 0; |λ| <= F on stuck friction joints
// and slip·q̈ >= 0 on slipping ones at rest. Murty's least-index pivoting over the constrained
// dynamics; then the state is projected onto the closed ones.
void Simulation::settle_active_set() {
  UnilateralState& s = unilaterals_;
  const std::vector<int> cand = rest_candidates();
  GapState g;
  Eigen::RowVectorXd J(model_.nv);
  for (int it = 0; it < 4 * static_cast<int>(cand.size()) + 16; ++it) {
    s.update_rows();
    constraints_.restack();
    accelerations(t_, q_, qd_, qdd_);
    const VecX& mu = active_->multipliers();
    const int row0 = constraints_.last_row0();
    const double scale =
        1.0 + (s.rows.empty() ? 0.0 : mu.tail(s.rows.size()).cwiseAbs().maxCoeff());
    int pivot = -1;
    double lambda = 0.0;
    for (std::size_t i = 0; i < cand.size() && pivot < 0; ++i) {
      const int k = cand[i];
      double accel = 0.0;
      if (s.closed[k]) {
        const auto r = std::find(s.rows.begin(), s.rows.end(), k) - s.rows.begin();
        lambda = mu[row0 + r];
      } else {
        unilateral_gap(mech_, data_, s.items[k], q_, &qd_, g, J);
        accel = J.dot(qdd_) + g.bias;
      }
      const PivotTest test{s.items[k],
                           s.closed[k] != 0,
                           lambda,
                           accel,
                           s.slip[k],
                           1e-9 * scale,
                           1e-9 * (1.0 + qdd_.cwiseAbs().maxCoeff())};
      if (test.violated()) pivot = k;
    }
    if (pivot < 0) break;
    if (s.items[pivot].friction())
      s.slip[pivot] = s.closed[pivot] ? (lambda > 0 ? -1.0 : 1.0) : 0.0;
    s.closed[pivot] = !s.closed[pivot];
  }
  s.update_rows();
  constraints_.restack();
  if (!s.rows.empty())
    projection_->project(drives_, data_, t_, mech_.closure_tolerance(opt_.projection_tolerance), q_,
                         qd_);
}

}  // namespace articula
