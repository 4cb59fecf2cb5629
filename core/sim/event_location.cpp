// Locating events inside a step (event_location.hpp) and Simulation::locate_event, which retakes
// the step with the sizes the root finding asks for.
#include "core/sim/event_location.hpp"

#include <cmath>
#include <limits>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/simulation.hpp"

namespace articula {
namespace event_location {

void interpolate(const StepPath& p, double s, VecX& q, VecX& qd) {
  const double h = p.h, u = s / h, u2 = u * u, u3 = u2 * u;
  const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = 3 * u2 - 2 * u3,
               h11 = u3 - u2;
  q = h00 * *p.q0 + (h10 * h) * *p.qd0 + h01 * *p.q1 + (h11 * h) * *p.qd1;
  if (p.qdd0 && p.qdd1)
    qd = h00 * *p.qd0 + (h10 * h) * *p.qdd0 + h01 * *p.qd1 + (h11 * h) * *p.qdd1;
  else  // the derivative of q's interpolant
    qd = ((6 * u2 - 6 * u) / h) * (*p.q0 - *p.q1) + (3 * u2 - 4 * u + 1) * *p.qd0 +
         (3 * u2 - 2 * u) * *p.qd1;
}

// One Illinois update of the bracket [lo, hi] (f > 0 at lo, f <= 0 at hi) by the trial (s, fs):
// the end it replaces moves; when the same end moved last time too, the stale end's value is
// halved, which keeps regula falsi superlinear. side: the end moved last (1 lo, -1 hi, 0 none).
namespace {
void illinois_update(double s, double fs, double& lo, double& flo, double& hi, double& fhi,
                     int& side) {
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
}  // namespace

double interpolant_root(const std::function<double(double)>& g, double lo, double hi) {
  double glo = g(lo), ghi = g(hi);
  if (!(glo > 0 && ghi <= 0)) return std::numeric_limits<double>::quiet_NaN();
  int side = 0;
  for (int it = 0; it < 100 && hi - lo > 1e-3 * kEventTime; ++it) {
    double s = (lo * ghi - hi * glo) / (ghi - glo);
    if (!(s > lo && s < hi)) s = 0.5 * (lo + hi);
    const double gs = g(s);
    if (!std::isfinite(gs)) return std::numeric_limits<double>::quiet_NaN();
    illinois_update(s, gs, lo, glo, hi, ghi, side);
  }
  return 0.5 * (lo + hi);
}

double interpolant_peak(const std::function<double(double)>& g, double h) {
  double best = std::nan(""), gbest = 0.0;
  for (int k = 1; k < 32; ++k) {
    const double s = h * k / 32, gs = g(s);
    if (gs > gbest) best = s, gbest = gs;
  }
  return best;
}

// Regula falsi that halves the stale end's value (Illinois): superlinear, and never leaves the
// bracket. Once two successive estimates agree to kEventTime the root is known that well, but
// regula falsi would still creep up on it from one side: the evaluation is then placed half a
// kEventTime past the estimate, toward the end not moved last, which closes the bracket.
Bracket bracket_root(const std::function<double(double)>& f, double s0, double f0, double h,
                     double fh) {
  Bracket b{s0, h, std::nan("")};
  double flo = f0, fhi = fh, previous = std::nan("");
  int side = 0;
  for (int it = 0; it < 200 && b.hi - b.lo > kEventTime; ++it) {
    double s = (b.lo * fhi - b.hi * flo) / (fhi - flo);
    const double estimate = s;
    if (std::abs(s - previous) <= kEventTime) s += side == 1 ? 0.5 * kEventTime : -0.5 * kEventTime;
    previous = estimate;
    const double margin = 0.25 * kEventTime;
    if (!(s > b.lo + margin && s < b.hi - margin)) s = 0.5 * (b.lo + b.hi);
    const double fs = f(s);
    b.last = s;
    illinois_update(s, fs, b.lo, flo, b.hi, fhi, side);
  }
  return b;
}

// Each trial estimates the root by a Newton step from itself (the interpolant's slope for the
// first, then the secant of the last two trials where they are more than 1e-9 s apart) and the
// next is placed 0.4 kEventTime past that estimate, on the far side from the trial: when the
// estimate is good to 0.1 kEventTime the next trial lands across the root, within kEventTime
// of the previous one, and the bracket is closed.
Bracket bracket_root_from(const std::function<double(double)>& f, double s0, double f0, double h,
                          double fh, double guess, double slope) {
  Bracket b{s0, h, std::nan("")};
  double flo = f0, fhi = fh, sp = std::nan(""), fp = 0.0, s = guess;
  for (int it = 0; it < 6 && b.hi - b.lo > kEventTime; ++it) {
    const double margin = 0.25 * kEventTime;
    if (!(s > b.lo + margin && s < b.hi - margin)) s = 0.5 * (b.lo + b.hi);  // bisection
    const double fs = f(s);
    b.last = s;
    (fs > 0 ? b.lo : b.hi) = s;
    (fs > 0 ? flo : fhi) = fs;
    if (std::abs(s - sp) > 1e-9 && fs != fp) slope = (fs - fp) / (s - sp);
    sp = s, fp = fs;
    const double root = s - fs / slope;
    s = std::isfinite(root) && slope < 0 ? root + (fs > 0 ? 0.4 : -0.4) * kEventTime : std::nan("");
  }
  if (b.hi - b.lo <= kEventTime) return b;
  const Bracket rest = bracket_root(f, b.lo, flo, b.hi, fhi);
  return {rest.lo, rest.hi, std::isnan(rest.last) ? b.last : rest.last};
}

// A contact leaving from gap 0 (an impact just gave it a separating rate) that comes back within
// the step: the crossing to locate is its return, after the gap rose. Its gap starts within
// round-off of 0 (1e-16 m), so a secant from the step's start lands in that noise: the bracket
// starts from the latest of h/2, h/4, ... where f > 0 instead.
std::pair<double, double> rise_before_return(const std::function<double(double)>& f, double f0,
                                             double h) {
  for (int k = 1; k <= 40; ++k) {
    const double s = std::ldexp(h, -k), fs = f(s);
    if (fs > 0) return {s, fs};
  }
  return {0.0, f0};
}

}  // namespace event_location

namespace {
// The states the trial steps of one event's location reached (after their projection), by step
// size from the step's start: the event is placed at an end of its bracket, stepped to already,
// and its state is taken from here rather than stepped to again (bit for bit the same).
struct EventLocationReached {
  std::vector<std::pair<double, event_location::StepStart>> states;
  void keep(double s, double t, const EnergyAccount& a, const VecX& q, const VecX& qd) {
    states.push_back({s, {t, a.work(), a.dissipated(), a.impact_loss(), q, qd}});
  }
  const event_location::StepStart* find(double s) const {
    for (const auto& [size, state] : states)
      if (size == s) return &state;
    return nullptr;
  }
};

// Whether u separates at (q, q̇) faster than kRest.
bool event_location_leaving(const Mechanism& mech, Data& data, const Unilateral& u, const VecX& q,
                            const VecX& qd) {
  forward_kinematics_bias(mech.model(), data, q, qd);
  GapState g;
  Eigen::RowVectorXd none;  // no row wanted
  unilateral_gap(mech, data, u, q, &qd, g, none);
  return g.rate > event_location::kRest;
}
}  // namespace

// e's watched value at (q_, q̇_) where it needs no solve: an open limit's or contact's gap, a
// slipping joint's or contact's sliding rate (stick); NaN for the others (forces).
double Simulation::solve_free_event_value(const PendingEvent& e) {
  const UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[e.item];
  const bool open = !s.closed[e.item];
  if (u.slot() || !open) return std::nan("");
  if (e.kind == EventKind::Impact && !u.slide() && !u.friction()) {
    forward_kinematics(model_, data_, q_);
    return unilateral_phi(mech_, data_, u, q_);
  }
  if (e.kind != EventKind::Stick) return std::nan("");
  forward_kinematics(model_, data_, q_);
  if (u.friction() && !u.slide() && u.bound > 0) {
    if (loop_friction_) forward_kinematics_bias(model_, data_, q_, qd_);
    return s.slip[e.item] * joint_rate(u, q_, qd_);
  }
  if (u.slide() && u.primary() && u.side == 0 && !s.holds(e.item) && s.holds(u.normal_item) &&
      slipping(e.item))  // a slot's also watches its force, which needs the solve
    return slide_event_value(e.item);
  return std::nan("");
}

// The first trial of e's location: where the step's dense output crosses e's value after p.lo, and
// the value's slope there (central difference on the interpolant, 1e-6 of the step apart). False
// where the value needs a solve, the coordinates are not the velocities' integrals (quaternions)
// or the interpolant does not cross. Leaves (q_, q̇_) at the step's start.
bool Simulation::event_guess(const PendingEvent& e, const event_location::StepPath& p,
                             double& guess, double& slope) {
  if (model_.nq != model_.nv) return false;
  auto g = [&](double s) {
    event_location::interpolate(p, s, q_, qd_);
    return solve_free_event_value(e);
  };
  guess = event_location::interpolant_root(g, p.lo, p.h);
  if (!std::isnan(guess)) {
    const double a = std::max(0.0, guess - 1e-6 * p.h), b = std::min(p.h, guess + 1e-6 * p.h);
    slope = (g(b) - g(a)) / (b - a);
  }
  q_ = *p.q0, qd_ = *p.qd0;
  return !std::isnan(guess) && slope < 0;
}

// Places the state at e, the first event of the step of size `left` just taken from s0 (its end
// in q_, q̇_; its ends' accelerations in `path` where evaluated): at the end of e's bracket
// before the crossing for an impact, after it for the others. Returns whether the event is a
// bounce landing again before its gap rose past round-off (the contact then comes to rest).
bool Simulation::locate_event(const PendingEvent& e, const event_location::StepStart& s0,
                              double left, event_location::StepPath path, Integrator integrator) {
  EventLocationReached reached;
  reached.keep(left, t_, account_, q_, qd_);
  const VecX q1 = q_, qd1 = qd_;  // the step's end (reached's entries move as it grows)
  path.q1 = &q1, path.qd1 = &qd1;
  auto trial = [&](double s) {  // the state s after the step's start
    const event_location::StepStart* r = s > 0 ? reached.find(s) : nullptr;
    const event_location::StepStart& from = r ? *r : s0;
    t_ = from.t, q_ = from.q, qd_ = from.qd;
    account_.reset(from.work, from.dissipated, from.impact_loss);
    if (s > 0 && !r) plain_step(s, integrator), reached.keep(s, t_, account_, q_, qd_);
    if (s > 0 && !r) ++event_trials_;
    return event_value(e);
  };
  auto [s_lo, f_lo] = std::pair<double, double>{0.0, trial(0.0)};
  ++located_events_;
  if (e.kind == EventKind::Impact &&
      event_location_leaving(mech_, data_, unilaterals_.items[e.item], q_, qd_)) {
    // A return: the bracket starts where the dense output's gap is largest, where the step's
    // gap is positive beyond round-off (else at the latest of h/2, h/4, ... where it is).
    const double peak = model_.nq == model_.nv
                            ? event_location::interpolant_peak(
                                  [&](double s) {
                                    event_location::interpolate(path, s, q_, qd_);
                                    return solve_free_event_value(e);
                                  },
                                  left)
                            : std::nan("");
    const double f_peak = std::isnan(peak) ? 0.0 : trial(peak);
    if (f_peak > 0)
      s_lo = peak, f_lo = f_peak;
    else
      std::tie(s_lo, f_lo) = event_location::rise_before_return(trial, f_lo, left);
    if (!(f_lo > 0)) return trial(0.0), true;
  }
  if (!(f_lo > 0)) return false;  // the event is due now
  double guess = 0.0, slope = 0.0;
  path.lo = s_lo;
  const event_location::Bracket b =
      event_guess(e, path, guess, slope)
          ? event_location::bracket_root_from(trial, s_lo, f_lo, left, e.end_value, guess, slope)
          : event_location::bracket_root(trial, s_lo, f_lo, left, e.end_value);
  const double at = e.kind == EventKind::Impact ? b.lo : b.hi;  // impacts before the crossing
  if (at != b.last) trial(at);                                  // the rest after it
  return false;
}

}  // namespace articula
