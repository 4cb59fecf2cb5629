// Locating events inside a step (core/sim/event_location, issue 16): the first trial at the root
// of the step's dense output, then Newton/secant trials that close the 1e-12 s bracket, against
// closed forms (a ball in free fall meets the ground at sqrt(2h/g)) and against the Illinois
// bracketing it replaced (the same bracket width, fewer trials).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/sim/event_location.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {
constexpr double kLocateG = 9.81;

// A ball of radius r on a vertical slider (q = height of its centre) over the ground plane y = 0.
MechanismSpec event_location_ball(double r, double q0) {
  MechanismSpec s = test::one_body_on("ball", test::isotropic_body("ball", 0.1, 1e-4),
                                      test::vertical_slider("lift", "ball", q0), kLocateG);
  ContactSpec c;
  c.name = "floor";
  c.body = "ball";
  c.radius = r;
  c.restitution = 0.5;
  s.contacts.push_back(c);
  return s;
}
}  // namespace

TEST_CASE("event location: the dense output's root, then a bracket closed in fewer trials",
          "[sim][contacts]") {
  // A fall of 0.3 m from rest at t = 0, in the step [t0, t0 + 1 ms] that contains the
  // touch-down: gap(s) = 0.3 - g (t0 + s)² / 2, root at sqrt(0.6 / g) - t0 = 0.37 ms.
  const double h = 1e-3, t0 = std::sqrt(0.6 / kLocateG) - 3.7e-4;
  const double root = std::sqrt(0.6 / kLocateG) - t0;
  REQUIRE(root > 0);
  REQUIRE(root < h);
  int calls = 0;
  auto gap = [&](double s) {
    ++calls;
    return 0.3 - 0.5 * kLocateG * (t0 + s) * (t0 + s);
  };
  const double f0 = gap(0.0), fh = gap(h);
  calls = 0;
  const event_location::Bracket old = event_location::bracket_root(gap, 0.0, f0, h, fh);
  const int old_calls = calls;
  // A dense-output estimate off by 2e-10 s (a coarse interpolant; RK4's is closer) and the slope
  // there: the bracket still closes to 1e-12 s around the closed-form root.
  const double slope = -kLocateG * (t0 + root);
  for (double off : {2e-10, -2e-10, 0.0}) {
    INFO("guess off by " << off);
    calls = 0;
    const auto b = event_location::bracket_root_from(gap, 0.0, f0, h, fh, root + off, slope);
    CHECK(b.hi - b.lo <= event_location::kEventTime);
    CHECK(b.lo <= root + 1e-15);  // round-off of the closed form (s ~ 1e-3: ulp 2e-19)
    CHECK(b.hi >= root - 1e-15);
    CHECK(calls <= 3);
    INFO("Illinois took " << old_calls << " evaluations");
    CHECK(calls < old_calls);
  }
  CHECK(old.hi - old.lo <= event_location::kEventTime);
  CHECK(old.lo <= root + 1e-15);
  CHECK(old.hi >= root - 1e-15);
  // Safeguards: a guess outside the bracket and a slope of the wrong sign fall back on bisection
  // and Illinois, and still bracket the root to 1e-12 s.
  const auto far = event_location::bracket_root_from(gap, 0.0, f0, h, fh, 2 * h, 1.0);
  CHECK(far.hi - far.lo <= event_location::kEventTime);
  CHECK(far.lo <= root + 1e-15);
  CHECK(far.hi >= root - 1e-15);
}

TEST_CASE("event location: the cubic Hermite interpolant of a step and its root", "[sim]") {
  // Free fall is a cubic (a quadratic) in time: the interpolant of its ends is exact, and its root
  // is the closed form's to round-off (1e-15 s on a 1e-3 s step).
  const double h = 1e-3, t0 = std::sqrt(0.6 / kLocateG) - 3.7e-4;
  auto y = [](double t) { return 0.3 - 0.5 * kLocateG * t * t; };
  VecX q0(1), qd0(1), q1(1), qd1(1), a(1), q(1), qd(1);
  q0 << y(t0), qd0 << -kLocateG * t0, q1 << y(t0 + h), qd1 << -kLocateG * (t0 + h), a << -kLocateG;
  for (bool with_acceleration : {true, false}) {
    event_location::StepPath p;
    p.h = h, p.q0 = &q0, p.qd0 = &qd0, p.q1 = &q1, p.qd1 = &qd1;
    if (with_acceleration) p.qdd0 = p.qdd1 = &a;
    event_location::interpolate(p, 0.37 * h, q, qd);
    CHECK(std::abs(q[0] - y(t0 + 0.37 * h)) < 1e-15);
    CHECK(std::abs(qd[0] + kLocateG * (t0 + 0.37 * h)) < 1e-12);
    auto g = [&](double s) {
      event_location::interpolate(p, s, q, qd);
      return q[0];
    };
    CHECK(std::abs(event_location::interpolant_root(g, 0.0, h) - (std::sqrt(0.6 / kLocateG) - t0)) <
          1e-15);
  }
}

TEST_CASE("a dropped ball meets the ground at sqrt(2h/g), located in at most 3 trial steps",
          "[sim][contacts]") {
  const double r = 0.05, drop = 0.95;
  const Mechanism mech = prepare(event_location_ball(r, drop + r));
  Simulation sim(mech);
  std::vector<Simulation::ContactEvent> events;
  while (events.empty() && sim.time() < 1.0) {
    sim.step(1e-3, Integrator::RK4);
    events = sim.take_events();
  }
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == "impact");
  // RK4 integrates the fall exactly (a quadratic): the time is the closed form's to the
  // bracket's 1e-12 s plus the round-off of t (1e-16 s): 2e-12 s.
  CHECK(std::abs(events[0].t - std::sqrt(2 * drop / kLocateG)) < 2e-12);
  CHECK(sim.located_events() == 1);
  // Illinois from the step's ends took 5 trial steps for this impact (the previous binary on
  // samples/bouncing_ball.json, the same drop, plain_step counted by a uprobe); the dense
  // output's root and one closing step take 2 (3 allowed).
  CHECK(sim.event_trials() <= 3);
}
