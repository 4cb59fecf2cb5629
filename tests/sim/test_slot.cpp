// A pin in a slot (contract-additions-2 §2, surface type "slot") on the Geneva drive: the wheel
// turns as tan β = -a sin α / (C - a cos α) while the pin is in a slot, the pin engages and leaves
// at α = ∓(π/2 - π/n) (located to 1e-9 s), the wheel dwells between, and the drive's work
// balances the wheel's kinetic energy; the file form and refusals.
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {

struct Geneva {
  int n = 4;
  double C = 0.1, r = 0.005, L = 0.06,
         w = 2 * kPi;  // centres, pin radius, slot length, crank rad/s
  double a() const { return C * std::sin(kPi / n); }   // crank (pin) radius
  double b() const { return C * std::cos(kPi / n); }   // wheel radius: the slots' mouths
  double alpha0() const { return kPi / 2 - kPi / n; }  // engagement half-angle
  // The wheel angle while the pin is in slot 0 (β = 0 at α = 0): slot 0's centre line passes
  // through the pin and the wheel's centre.
  double beta(double alpha) const {
    return -std::atan2(a() * std::sin(alpha), C - a() * std::cos(alpha));
  }
};

// The crank starts `lead` rad before the pin reaches slot 0's mouth, the wheel at rest.
MechanismSpec geneva(const Geneva& g, double lead) {
  MechanismSpec s;
  s.name = "geneva";
  s.gravity = Vec3::Zero();
  for (const char* name : {"crank", "wheel"}) {
    BodySpec b;
    b.name = name;
    b.mass = 0.5;
    b.inertia = {1e-3, 1e-3, 2e-3, 0, 0, 0};
    s.bodies.push_back(b);
  }
  const double a0 = -g.alpha0() - lead;
  JointSpec crank;
  crank.name = "crank";
  crank.joint = Joint::revolute();
  crank.parent = "ground";
  crank.child = "crank";
  crank.q0 = std::vector<double>{a0};
  std::ostringstream law;  // all digits: the drive must start exactly at q0
  law.precision(17);
  law << a0 << " + " << g.w << "*t";
  crank.drive = DriveSpec{DriveSpec::Kind::Motion, law.str()};
  s.joints.push_back(crank);
  JointSpec wheel = crank;
  wheel.name = "wheel";
  wheel.child = "wheel";
  wheel.parent_frame.position = Vec3(g.C, 0, 0);
  wheel.q0 = std::vector<double>{g.beta(-g.alpha0())};
  wheel.drive.reset();
  s.joints.push_back(wheel);
  for (int k = 0; k < g.n; ++k) {
    const double t = 2 * kPi * k / g.n;
    ContactSpec c;
    c.name = "slot" + std::to_string(k);
    c.body = "crank";
    c.point = Vec3(g.a(), 0, 0);
    c.radius = g.r;
    c.surface_type = "slot";
    c.surface_body = "wheel";
    c.surface_point = -g.b() * Vec3(std::cos(t), std::sin(t), 0);
    c.slot_direction = Vec3(std::cos(t), std::sin(t), 0);
    c.slot_length = g.L;
    s.contacts.push_back(c);
  }
  return s;
}
}  // namespace

TEST_CASE("Geneva drive: engagement, the wheel's law in the slot, release, dwell",
          "[slot][contacts]") {
  const Geneva g;
  const double lead = 0.3, h = 1e-3;
  const Mechanism mech = prepare(geneva(g, lead));
  Simulation sim(mech);
  std::vector<Simulation::ContactEvent> events;
  double worst = 0.0;
  const double t_in = lead / g.w, t_out = (lead + 2 * g.alpha0()) / g.w, turn = 2 * kPi / g.w;
  for (int i = 1; i * h <= 1.6 + 1e-12; ++i) {
    sim.step(h, Integrator::RK4);
    for (auto& e : sim.take_events()) events.push_back(e);
    const double t = sim.time(), alpha = -g.alpha0() - lead + g.w * t;
    if (t > t_in + 1e-6 && t < t_out - 1e-6)  // in slot 0
      worst = std::max(worst, std::abs(sim.q()[1] - g.beta(alpha)));
    if (t > t_out + 1e-6 && t < t_in + turn - 1e-6)  // dwell: a quarter turn on
      worst = std::max(worst, std::abs(sim.q()[1] - g.beta(g.alpha0())));
  }
  CHECK(worst < 1e-9);
  REQUIRE(events.size() >= 3);
  CHECK((events[0].name == "slot0" && events[0].kind == "engage"));
  CHECK(std::abs(events[0].t - t_in) < 1e-9);
  CHECK((events[1].name == "slot0" && events[1].kind == "release"));
  CHECK(std::abs(events[1].t - t_out) < 1e-9);
  // The next slot comes round to the first one's place: slot 1 (the wheel turns clockwise).
  CHECK(events[2].kind == "engage");
  CHECK(events[2].name == "slot1");
  CHECK(std::abs(events[2].t - (t_in + turn)) < 1e-9);
  sim.evaluate();
  // The drive's power jumps at each engagement (the wheel's acceleration does): 1e-8 J.
  CHECK(std::abs(sim.energy().residual) < 1e-8 * std::max(1.0, sim.energy().work));
}

TEST_CASE("slots in the file: round trip and refusals", "[slot][contacts]") {
  const Geneva g;
  const MechanismSpec s = geneva(g, 0.3);
  const LoadResult back = parse_project(to_text(s));
  CHECK(back.spec.contacts == s.contacts);
  nlohmann::json doc = to_json(s);
  doc["contacts"][0]["surface"]["length"] = 0;
  CHECK_THROWS_WITH(parse_project(doc.dump()), Catch::Contains("/contacts/0/surface/length"));
  doc = to_json(s);
  doc["contacts"][1]["surface"]["direction"] = {0, 0, 1};
  CHECK_THROWS_WITH(parse_project(doc.dump()), Catch::Contains("/contacts/1/surface/direction"));
  // A pin that starts in its slot off the centre line is refused by name.
  MechanismSpec off = geneva(g, -0.2);  // the pin is already in slot 0...
  off.joints[1].q0 = std::vector<double>{g.beta(-g.alpha0() + 0.2) + 0.01};  // ...but askew
  const Mechanism mech = prepare(off);
  CHECK_THROWS_WITH(Simulation(mech), Catch::Contains("'slot0'"));
}

TEST_CASE("Geneva drive with friction in its slots: the same motion, the extra work dissipated",
          "[slot][friction][contacts]") {
  // The crank is driven and the engaged pin fixes the wheel, so friction changes the forces but
  // not the motion; the wheel ends the engagement at rest again, so the drive's extra work is
  // what friction dissipated. The pin rolls on one wall from where its slip there stops, slips
  // when the slot's force turns (the wheel's acceleration does, near mid-engagement), and rolls
  // on the other wall from the mirror instant: both sticks are zeros of kinematic slip rates,
  // symmetric about mid-engagement. The energy residual falls as RK4's error (3.8e-9, 2.4e-10,
  // 1.5e-11 J at 1, 0.5, 0.25 ms), so the balance is checked at 0.25 ms.
  const Geneva g;
  const double lead = 0.3, h = 2.5e-4, T = 0.4;
  const double t_in = lead / g.w, t_out = (lead + 2 * g.alpha0()) / g.w, t_mid = (t_in + t_out) / 2;
  MechanismSpec rough = geneva(g, lead);
  for (ContactSpec& c : rough.contacts) c.friction = 0.2;
  const Mechanism smooth_mech = prepare(geneva(g, lead)), rough_mech = prepare(rough);
  Simulation smooth(smooth_mech), sim(rough_mech);
  std::vector<Simulation::ContactEvent> events;
  double worst = 0.0;
  for (int i = 1; i * h <= T + 1e-12; ++i) {
    smooth.step(h, Integrator::RK4), sim.step(h, Integrator::RK4);
    smooth.take_events();
    for (auto& e : sim.take_events()) events.push_back(e);
    const double t = sim.time(), alpha = -g.alpha0() - lead + g.w * t;
    if (t > t_in + 1e-6 && t < t_out - 1e-6)
      worst = std::max(worst, std::abs(sim.q()[1] - g.beta(alpha)));
  }
  CHECK(worst < 1e-9);
  REQUIRE(events.size() == 5);
  const char* kinds[] = {"engage", "stick", "slip", "stick", "release"};
  for (int k = 0; k < 5; ++k) CHECK(events[k].kind == kinds[k]);
  CHECK(std::abs(events[0].t - t_in) < 1e-9);
  CHECK(std::abs(events[4].t - t_out) < 1e-9);
  CHECK(std::abs(events[1].t + events[3].t - 2 * t_mid) < 1e-9);
  CHECK(std::abs(events[2].t - t_mid) < 1e-3 * (t_out - t_in));  // where the slot's force turns
  sim.evaluate(), smooth.evaluate();
  const Energy& e = sim.energy();
  CHECK(e.dissipated > 0.5 * e.work);
  CHECK(std::abs(e.residual) < 1e-9 * e.work);
  CHECK(std::abs((e.work - smooth.energy().work) - e.dissipated) < 1e-9 * e.work);
}
