// Joint limits and contacts in the simulation (RBDA 11, contract-additions-2 §2): an event-driven
// step. Between events the closed unilaterals are equality rows (constraints/unilateral_rows);
// an open one crossing φ = 0 is an impact, a closed one whose force λ would turn negative a
// lift-off. Both are located by root finding on the step size (event_location.hpp); an
// impact applies Newton's law by impulses on the loop-constrained system (contact/impact), and
// after every event the contact complementarity problem at the acceleration level decides which
// unilaterals stay closed (Murty's pivoting, one Method 2 solve per pivot).
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/energy.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/sim/constraints/unilateral_rows.hpp"
#include "core/sim/contact/closed_rates.hpp"
#include "core/sim/event_location.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

namespace {
using event_location::kRest;
using event_location::kTouch;
constexpr int kMaxEvents = 10000;  // per step: more is a Zeno cascade the model cannot resolve

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

// The --events names of Simulation::EventKind, in its order.
constexpr const char* kKindNames[] = {"impact", "lift_off", "stick", "slip", "engage", "release"};
constexpr int kKinds = std::size(kKindNames);
template <class Kind>
const char* kind_name(Kind k) {
  return kKindNames[static_cast<int>(k)];
}

// A runaway cascade: per unilateral, how many events of each kind were handled in the step, with
// its restitution, and how many of them changed the motion (recorded: a nonzero impulse, a
// lift-off...), so that the diagnosis says what happened instead of guessing why.
std::string cascade(const std::vector<int>& handled, std::size_t recorded,
                    const UnilateralState& s) {
  std::ostringstream os;
  for (std::size_t k = 0; k < s.items.size(); ++k) {
    bool named = false;
    for (int kind = 0; kind < kKinds; ++kind) {
      if (handled[kKinds * k + kind] == 0) continue;
      if (!named) os << (os.tellp() > 0 ? "; '" : "'") << s.items[k].name << "'";
      named = true;
      os << ' ' << kKindNames[kind] << " x" << handled[kKinds * k + kind];
    }
    if (named && !s.items[k].friction() && !s.items[k].slide())
      os << " (restitution " << s.items[k].restitution << ")";
  }
  os << "; " << recorded << " of them changed the motion (a nonzero impulse, a lift-off, ...)";
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
  loop_row_.setZero(model_.nv);
  for (int k = 0; k < n; ++k) {
    friction_ = friction_ || s.items[k].friction();
    loop_friction_ = loop_friction_ || (s.items[k].friction() && s.items[k].loop >= 0);
    sliding_ = sliding_ || s.items[k].slide();
  }
  constraints_.add(make_unilateral_rows(mech_, s));
  forward_kinematics(model_, data_, mech_.q0);
  for (int k = 0; k < n; ++k) {
    if (!s.items[k].has_gap()) continue;
    if (s.items[k].cam) check_cam(s.items[k]);
    if (s.items[k].slot()) {
      s.closed[k] = start_in_slot(s.items[k]);
      continue;
    }
    const double phi = unilateral_phi(mech_, data_, s.items[k], mech_.q0);
    if (phi < -kTouch) throw SetupError(describe_violation(mech_, s.items[k], phi));
  }
}

// What a cam contact cannot model: friction off the cam's plane (its one slide row is along the
// profile: a mechanism moving only in that plane, or there would be a second, axial tangent), and
// a roller that fits the profile's hollows in two places at once.
void Simulation::check_cam(const Unilateral& u) const {
  const Vec3 axis = u.surface == 0 ? u.normal : Vec3(data_.X0[u.surface].E.transpose() * u.normal);
  if (mech_.spec.contacts[u.contact].friction > 0 &&
      !(mech_.planar && std::abs(std::abs(axis.z()) - 1.0) < 1e-12))
    throw SetupError("contact '" + u.name +
                     "': friction against a cam is simulated in planar mechanisms whose cam turns "
                     "about the plane's normal; this one is not planar in the cam's plane (set its "
                     "friction to 0)");
  if (u.radius >= u.cam->min_concave_radius())
    throw SetupError("contact '" + u.name + "': the roller's radius " + std::to_string(u.radius) +
                     " m is not below the cam's smallest concave radius of curvature " +
                     std::to_string(u.cam->min_concave_radius()) +
                     " m, so it would touch the profile in two places; use a smaller roller");
}

// Whether a slot's pin starts engaged (in past the mouth, on the centre line).
// A slot with friction has one slide, along the slot: the pin must move in the slot's plane.
bool Simulation::start_in_slot(const Unilateral& u) const {
  const Vec3 axis = u.surface == 0 ? Vec3::UnitZ() : Vec3(data_.X0[u.surface].E.row(2));
  if (mech_.spec.contacts[u.contact].friction > 0 &&
      !(mech_.planar && std::abs(std::abs(axis.z()) - 1.0) < 1e-12))
    throw SetupError("contact '" + u.name +
                     "': friction in a slot is simulated in planar mechanisms whose slot lies in "
                     "the plane; this one is not planar in the slot's plane (set its friction to "
                     "0)");
  const SlotPosition p = slot_position(data_, u);
  if (p.depth <= 0.0 || p.depth > u.bound) return false;
  if (std::abs(p.offset) > u.radius + kTouch) return false;  // beside the slot, not in it
  if (std::abs(p.offset) > kTouch)
    throw SetupError("contact '" + u.name + "': the pin starts in its slot " +
                     std::to_string(p.offset) +
                     " m off the centre line (the slot is as wide as the pin): move it onto the "
                     "line or out of the slot");
  check_slot_depth(u, p.depth);
  return true;
}

void Simulation::check_slot_depth(const Unilateral& u, double depth) const {
  if (depth > u.bound - u.radius + kTouch)
    throw SetupError("at t = " + std::to_string(t_) + " the pin of '" + u.name +
                     "' reaches the bottom of its slot (" + std::to_string(u.bound) +
                     " m long), which is not simulated: make the slot longer");
}

std::vector<Simulation::ContactEvent> Simulation::take_events() {
  std::vector<ContactEvent> out;
  out.swap(events_);
  return out;
}

void Simulation::record_gaps() {
  if (unilaterals_.empty()) return;
  forward_kinematics(model_, data_, q_);
  for (std::size_t k = 0; k < gaps_.size(); ++k) {
    const Unilateral& u = unilaterals_.items[k];
    if (u.slot())  // engaged: 0; else how far the pin is from the mouth
      gaps_[k] = unilaterals_.closed[k] ? 0.0 : slot_position(data_, u).mouth_distance;
    else
      gaps_[k] = unilateral_phi(mech_, data_, u, q_);
  }
}

// The values the events are watched on, positive between events: φ of the open unilaterals, λ
// of the closed ones; for joint friction slip·q̇ while slipping, F - |λ| while stuck; for a
// contact's slides (on the first of a pair) ŝ·w while slipping, μ λ_n - |λ_t| while stuck.
void Simulation::event_values(std::vector<double>& out) {
  const UnilateralState& s = unilaterals_;
  out.assign(s.items.size(), 1.0);
  forward_kinematics(model_, data_, q_);
  if (loop_friction_) forward_kinematics_bias(model_, data_, q_, qd_);  // loop joints' rates
  for (std::size_t k = 0; k < s.items.size(); ++k) {
    const Unilateral& u = s.items[k];
    if (u.slot()) {
      out[k] = slot_event_value(k);
      continue;
    }
    if (s.closed[k] || u.slide()) continue;
    if (!u.friction())
      out[k] = unilateral_phi(mech_, data_, u, q_);
    else if (u.bound > 0)
      out[k] = s.slip[k] * joint_rate(u, q_, qd_);
  }
  if (s.rows.empty()) return;
  accelerations(t_, q_, qd_, qdd_);
  const VecX& mu = active_->multipliers();
  const int row0 = constraints_.last_row0();
  for (std::size_t r = 0; r < s.rows.size(); ++r) {
    const Unilateral& u = s.items[s.rows[r]];
    if (!u.slide() && !u.slot())
      out[s.rows[r]] = u.friction() ? u.bound - std::abs(mu[row0 + r]) : mu[row0 + r];
  }
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k)
    if (s.items[k].primary() && s.holds(s.items[k].normal_item)) out[k] = slide_event_value(k);
}

// A slot's: how deep the pin is while engaged (leaving at 0), minus that while it is outside in
// front of the mouth (engaging at 0); elsewhere nothing to watch.
double Simulation::slot_event_value(int k) {
  const Unilateral& u = unilaterals_.items[k];
  const SlotPosition p = slot_position(data_, u);
  if (unilaterals_.closed[k]) {
    check_slot_depth(u, p.depth);
    return p.depth;
  }
  const bool at_mouth = std::abs(p.offset) <= u.radius + kTouch && p.depth < 0.5 * u.bound;
  return at_mouth ? -p.depth : 1.0;
}

// A slide pair's event value (see event_values); needs the solve at the current state done.
double Simulation::slide_event_value(int primary) {
  const UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[primary];
  if (s.holds(primary)) return u.bound * normal_force(primary) - stuck_force(primary).norm();
  if (!slipping(primary)) return 1.0;
  const double side = u.side != 0 ? normal_force(primary) + side_tolerance() : 1.0;
  forward_kinematics_bias(model_, data_, q_, qd_);
  const SlideMotion m = slide_motion(primary, q_, qd_);
  const Eigen::Vector2d ref(s.slip[primary], u.partner < 0 ? 0.0 : s.slip[u.partner]);
  return std::min(ref.dot(m.w), side);  // a slot's: also its wall changing (see slot_side_event)
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
    if (u.slide()) tol = closed ? 1e-9 * (1.0 + lmax) : 1e-12;
    if (u.slot()) tol = 1e-12;
    if (!(end[k] < -tol)) continue;
    const double frac = start[k] > 0 ? start[k] / (start[k] - end[k]) : 0.0;
    if (frac >= first) continue;
    first = frac, e.item = static_cast<int>(k);
    e.kind = u.friction() || u.slide() ? (closed ? EventKind::Slip : EventKind::Stick)
                                       : (closed ? EventKind::LiftOff : EventKind::Impact);
    if (u.slot()) e.kind = closed ? EventKind::Release : EventKind::Engage;
  }
  e.end_value = e.item >= 0 ? end[e.item] : 0.0;
  return e.item >= 0;
}

// The watched value of e's unilateral at the current state. An impact's is an open limit's or
// contact's gap, which needs no solve (the one event_values makes is for the closed ones).
double Simulation::event_value(const PendingEvent& e) {
  const Unilateral& u = unilaterals_.items[e.item];
  if (e.kind == EventKind::Impact && !unilaterals_.closed[e.item] && !u.slide() && !u.slot() &&
      !u.friction()) {
    forward_kinematics(model_, data_, q_);
    return unilateral_phi(mech_, data_, u, q_);
  }
  std::vector<double> v;
  event_values(v);
  return v[e.item];
}

void Simulation::step_with_events(double h, Integrator integrator) {
  const double t_end = t_ + h;
  std::vector<double> start;
  const std::size_t recorded = events_.size();
  std::vector<int> handled(kKinds * unilaterals_.items.size(), 0);  // per unilateral and EventKind
  VecX qdd_start, qdd_end;  // the accelerations at the ends of a step, for its dense output
  for (int events = 0; t_end - t_ > 1e-13 * std::max(1.0, std::abs(t_end)); ++events) {
    if (events > kMaxEvents)
      throw SetupError("at t = " + std::to_string(t_) + " more than " + std::to_string(kMaxEvents) +
                       " events in one step, which cannot reach its end: " +
                       cascade(handled, events_.size() - recorded, unilaterals_));
    refresh_slip_directions();
    const event_location::StepStart s0{
        t_, account_.work(), account_.dissipated(), account_.impact_loss(), q_, qd_};
    const bool solved = !unilaterals_.rows.empty();  // event_values() evaluates q̈ at both ends
    event_values(start);
    if (solved) qdd_start = qdd_;
    step_start_ = last_solve_;  // the trial steps' first stage (when it is this state's)
    step_start_.valid = memo_matches(last_solve_, t_, q_, qd_);
    const double left = t_end - t_;
    plain_step(left, integrator);
    PendingEvent e;
    if (!next_event(start, e)) return;
    if (solved) qdd_end = qdd_;
    event_location::StepPath path;
    path.h = left, path.q0 = &s0.q, path.qd0 = &s0.qd;
    if (solved) path.qdd0 = &qdd_start, path.qdd1 = &qdd_end;
    const bool rests = locate_event(e, s0, left, path, integrator);
    ++handled[kKinds * e.item + static_cast<int>(e.kind)];
    rests ? come_to_rest(e.item) : handle_event(e);
  }
}

void Simulation::handle_event(const PendingEvent& e) {
  UnilateralState& s = unilaterals_;
  const std::string& name = s.items[e.item].name;
  if (s.items[e.item].slide()) {
    if (slot_side_event(e.item)) return;
    toggle_slide(e.item);
    if (s.items[e.item].side != 0 && e.kind == EventKind::Slip && normal_force(e.item) <= 0.0)
      flip_slot_side(e.item);  // stuck until the slot's force passed 0: it slips on the other wall
    events_.push_back({t_, name, kind_name(e.kind), 0.0});
    s.update_rows();
    constraints_.restack();
    settle_active_set();
    if (e.kind == EventKind::Stick && !s.holds(e.item) && s.holds(s.items[e.item].normal_item))
      events_.push_back({t_, name, "slip", 0.0});  // stopped, then slid back: μ could not hold
    return;
  }
  switch (e.kind) {
    case EventKind::Impact:
      return impact(e.item);
    case EventKind::Engage:
    case EventKind::Release:
      s.set_closed(e.item, e.kind == EventKind::Engage);
      events_.push_back({t_, name, kind_name(e.kind), 0.0});
      break;
    case EventKind::LiftOff:
      s.set_closed(e.item, false);
      events_.push_back({t_, name, kind_name(e.kind), 0.0});
      break;
    case EventKind::Stick:
      if (!row_adds_rank(e.item)) {  // the loops move the joint through q̇ = 0: it cannot hold
        s.slip[e.item] = -s.slip[e.item];
        return;
      }
      s.slip[e.item] = 0.0;
      s.set_closed(e.item, true);
      events_.push_back({t_, name, kind_name(e.kind), 0.0});
      break;
    case EventKind::Slip: {
      const auto it = std::find(s.rows.begin(), s.rows.end(), e.item);
      const double lambda =
          active_->multipliers()[constraints_.last_row0() + (it - s.rows.begin())];
      s.slip[e.item] = lambda > 0 ? -1.0 : 1.0;  // against the force the stick could not give
      s.set_closed(e.item, false);
      events_.push_back({t_, name, kind_name(e.kind), 0.0});
      break;
    }
  }
  constraints_.restack();
  settle_active_set();
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
    if (u.slide()) {
      if (u.primary()) rest_slide(k, cand);
      continue;
    }
    if (u.slot()) continue;  // engaged or not by the events at its mouth
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

// Whether candidate k breaks its complementarity condition at the last solve (lambda: its
// multiplier when closed, for the pivot's direction).
bool Simulation::candidate_violated(int k, double ltol, double& lambda) {
  const UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[k];
  const double atol = 1e-9 * (1.0 + qdd_.cwiseAbs().maxCoeff());
  if (u.slide()) return s.holds(u.normal_item) && slide_violated(k, ltol, atol);
  double accel = 0.0;
  if (s.closed[k]) {
    lambda = row_multiplier(k);
  } else {
    GapState g;
    Eigen::RowVectorXd J(model_.nv);
    forward_kinematics_bias(model_, data_, q_, qd_);
    unilateral_gap(mech_, data_, u, q_, &qd_, g, J);
    accel = J.dot(qdd_) + g.bias;
  }
  return PivotTest{u, s.closed[k] != 0, lambda, accel, s.slip[k], ltol, atol}.violated();
}

// A slide pair at rest on a closed contact: stuck, it breaks when |λ_t| > μ λ_n; slipping from
// rest along ŝ, it sticks when ŝ·ẅ < 0 (it would start to move the other way).
bool Simulation::slide_violated(int primary, double ltol, double atol) {
  const UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[primary];
  if (s.holds(primary)) return stuck_force(primary).norm() > u.bound * normal_force(primary) + ltol;
  forward_kinematics_bias(model_, data_, q_, qd_);
  const SlideMotion m = slide_motion(primary, q_, qd_);
  const int n = static_cast<int>(m.J.rows());
  const Eigen::Vector2d ref(s.slip[primary], n > 1 ? s.slip[u.partner] : 0.0);
  Eigen::Vector2d a = m.bias;  // ẅ = J_t q̈ + κ_t
  for (int r = 0; r < n; ++r) a[r] += m.J.row(r).dot(qdd_);
  return ref.isZero() || ref.dot(a) < -atol;
}

// A slide pair in rest_candidates: inert (open, no slip) off a resting contact; slipping the way
// it slides when it moves; else a candidate, starting stuck unless it slips from rest.
void Simulation::rest_slide(int primary, std::vector<int>& cand) {
  UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[primary];
  auto set = [&](bool closed, const Eigen::Vector2d& slip) {
    s.closed[primary] = closed, s.slip[primary] = slip[0];
    if (u.partner >= 0) s.closed[u.partner] = closed, s.slip[u.partner] = slip[1];
  };
  const bool pressed = u.side != 0
                           ? s.closed[u.normal_item] != 0  // an engaged slot
                           : std::find(cand.begin(), cand.end(), u.normal_item) != cand.end();
  if (!pressed) return set(false, Eigen::Vector2d::Zero());
  const SlideMotion m = slide_motion(primary, q_, qd_);
  if (m.w.norm() > kRest) return set(false, m.w.normalized());
  cand.push_back(primary);
  const bool slips = s.slip[primary] != 0.0 || (u.partner >= 0 && s.slip[u.partner] != 0.0);
  if (!s.closed[primary] && !slips) set(true, Eigen::Vector2d::Zero());
}

// Which candidates carry force now (RBDA 11.3, Eqs. 11.37-11.43): λ >= 0 on the closed
// limits and contacts, φ̈ >= 0 on the open ones, λ φ̈ = 0; |λ| <= F on stuck friction joints
// and slip·q̈ >= 0 on slipping ones at rest. Murty's least-index pivoting over the constrained
// dynamics; then the state is projected onto the closed ones.
void Simulation::settle_active_set() {
  UnilateralState& s = unilaterals_;
  std::vector<int> cand = rest_candidates();
  for (int it = 0; it < 4 * static_cast<int>(cand.size()) + 16; ++it) {
    s.update_rows();
    constraints_.restack();
    accelerations(t_, q_, qd_, qdd_);
    const VecX& mu = active_->multipliers();
    const double scale =
        1.0 + (s.rows.empty() ? 0.0 : mu.tail(s.rows.size()).cwiseAbs().maxCoeff());
    int pivot = -1;
    double lambda = 0.0;
    for (std::size_t i = 0; i < cand.size() && pivot < 0; ++i)
      if (candidate_violated(cand[i], 1e-9 * scale, lambda)) pivot = cand[i];
    if (pivot < 0 && !slot_sides_agree(1e-9 * scale, cand)) continue;
    if (pivot < 0) break;
    if (s.items[pivot].slide()) {
      toggle_slide(pivot);
      continue;
    }
    if (s.items[pivot].friction())
      s.slip[pivot] = s.closed[pivot] ? (lambda > 0 ? -1.0 : 1.0) : 0.0;
    s.closed[pivot] = !s.closed[pivot];
  }
  s.update_rows();
  constraints_.restack();
  ConstraintContext c{mech_, drives_, data_};
  c.t = t_, c.q = &q_, c.qd = &qd_;
  absorb_closed_rates(model_, data_, constraints_, c, s.rows.size(), qd_, account_);
  if (s.rows.empty()) return;
  // A unilateral closed inside the touch band (a foot at rest after a bounce, gap up to kTouch)
  // is brought onto its surface by the projection: the walker sinks by up to 1e-9 m, releasing
  // M g φ (3.7e-7 J for its 37.6 kg), as the bounces that would bring it there dissipate it.
  // That change of T + V is booked as impact loss.
  const bool snaps = closed_gap() != 0.0;
  const double E0 = snaps ? mechanical_energy() : 0.0;
  projection_->project(drives_, data_, t_, mech_.closure_tolerance(opt_.projection_tolerance), q_,
                       qd_);
  if (snaps) account_.add_impact(E0 - mechanical_energy(), 0.0);
}

// The largest |φ| of the closed limits and contacts (m or rad).
double Simulation::closed_gap() {
  forward_kinematics(model_, data_, q_);
  double gap = 0.0;
  for (int k : unilaterals_.rows)
    if (unilaterals_.items[k].complementary())
      gap = std::max(gap, std::abs(unilateral_phi(mech_, data_, unilaterals_.items[k], q_)));
  return gap;
}

// T + V at the current state (as compute_energy has them).
double Simulation::mechanical_energy() {
  applied_.evaluate(drives_, t_, q_, qd_, data_);
  forward_kinematics(model_, data_, q_, qd_);
  return kinetic_energy(model_, data_) + potential_energy(model_, data_) + applied_.potential(q_);
}

}  // namespace articula
