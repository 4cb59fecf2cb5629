#pragma once
// Locating an event inside a step (RBDA 11.7, issue 16): the step is retaken from its start with
// sizes s, and the event's watched value f(s) (a gap, a force, a sliding rate) is bracketed to
// kEventTime. The first trial is placed where the step's dense output (the cubic Hermite
// interpolant of its end states, Hairer-Nørsett-Wanner II.6) crosses the value, the next ones
// by Newton/secant steps on the trial values that end half a tolerance past the root so the
// bracket closes; Illinois and bisection remain the safeguard.
#include <functional>
#include <utility>

#include "core/spatial/types.hpp"

namespace articula::event_location {

constexpr double kTouch = 1e-9;       // gap (m or rad) under which a unilateral touches
constexpr double kRest = 1e-6;        // approach speed (m/s, rad/s) under which it comes to rest
constexpr double kEventTime = 1e-12;  // s: how closely events are located

// The state at the start of a step with events and the energy account there.
struct StepStart {
  double t, work, dissipated, impact_loss;
  VecX q, qd;
};

// A step of size h from (q0, q̇0) to (q1, q̇1), with the accelerations at its ends (null where
// they were not evaluated: the velocity is then the derivative of the position's interpolant).
struct StepPath {
  double h = 0.0;
  double lo = 0.0;  // the crossing is sought in [lo, h]
  const VecX *q0 = nullptr, *qd0 = nullptr, *q1 = nullptr, *qd1 = nullptr;
  const VecX *qdd0 = nullptr, *qdd1 = nullptr;
};
// The cubic Hermite interpolant of the step at s in [0, h]: q and q̇ (sized like q0).
void interpolate(const StepPath& p, double s, VecX& q, VecX& qd);

// An estimate of the root of g on [lo, hi] from g(lo) > 0 >= g(hi) (Illinois on g, to a
// thousandth of kEventTime); NaN when g does not change sign so.
double interpolant_root(const std::function<double(double)>& g, double lo, double hi);
// Where g is largest of h k/32, k = 1..31, if positive there (a gap that rises before it
// returns); NaN otherwise.
double interpolant_peak(const std::function<double(double)>& g, double h);

// [lo, hi] with f(lo) > 0 >= f(hi), hi - lo <= kEventTime, and the point evaluated last (where f
// left the state; NaN for none).
struct Bracket {
  double lo, hi, last;
};
// The Illinois bracketing of a root of f on [s0, h] with f(s0) = f0 > 0 >= f(h) = fh.
Bracket bracket_root(const std::function<double(double)>& f, double s0, double f0, double h,
                     double fh);
// The same from a first estimate `guess` of the root and f's slope there (< 0): Newton/secant
// steps, each placed 0.4 kEventTime past the estimated root, bisection where an estimate leaves
// the bracket, and bracket_root on what is left after 6 trials.
Bracket bracket_root_from(const std::function<double(double)>& f, double s0, double f0, double h,
                          double fh, double guess, double slope);
// The latest of h/2, h/4, ... where f > 0, as (s, f(s)); (0, f0) when there is none.
std::pair<double, double> rise_before_return(const std::function<double(double)>& f, double f0,
                                             double h);

}  // namespace articula::event_location
