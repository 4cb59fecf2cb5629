// Coulomb and viscous friction in joints (contract-additions-2 §2): a block on an incline as a
// prismatic joint whose friction is μ m g cos θ (sticks iff tan θ <= μ, else slides with
// a = g (sin θ - μ cos θ)), a block pushed by a growing force (breaks away exactly when the push
// reaches F), a pendulum with friction coming to rest (stick located, energy balanced).
#include <cmath>
#include <numbers>

#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/event_runs.hpp"
#include "tests/support/matchers.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {

// A block of mass m on a slider along d (world), from rest at q = 0, with joint friction F.
MechanismSpec block(double m, const Vec3& d, double F, double viscous = 0.0) {
  JointSpec j = test::joint_between("slide", Joint::prismatic(), "ground", "block", {0.0});
  j.parent_frame.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), d.normalized());
  j.friction = JointFrictionSpec{F, viscous};
  return test::one_body_on("block", test::isotropic_body("block", m, 0.01), j, kG);
}

}  // namespace

TEST_CASE("a block on an incline sticks iff tan θ <= μ, else slides with g (sin θ - μ cos θ)",
          "[friction]") {
  const double m = 2.0, theta = 0.3;
  const Vec3 down(std::cos(theta), -std::sin(theta), 0);
  for (const double mu : {0.4, 0.31, 0.2, 0.0}) {
    INFO("mu = " << mu);
    const Mechanism mech = prepare(block(m, down, mu * m * kG * std::cos(theta)));
    Simulation sim(mech);
    test::run_collecting_events(sim, 1.0, 1e-3);
    sim.evaluate();
    if (std::tan(theta) <= mu) {
      CHECK(std::abs(sim.q()[0]) < 1e-12);
      CHECK(std::abs(sim.qd()[0]) < 1e-12);
      // The friction holds the downhill weight component.
      CHECK(std::abs(sim.unilaterals().force[0] + m * kG * std::sin(theta)) < 1e-12 * m * kG);
    } else {
      const double a = kG * (std::sin(theta) - mu * std::cos(theta));
      CHECK(std::abs(sim.qdd()[0] - a) < 1e-12 * kG);
      CHECK(std::abs(sim.q()[0] - a / 2) < 1e-12);  // RK4 is exact for constant acceleration
      CHECK(std::abs(sim.energy().residual) < 1e-9 * m * kG);
    }
  }
}

TEST_CASE("a block pushed by a growing force breaks away when the push reaches F", "[friction]") {
  const double m = 1.0, F = 5.0, rate = 10.0;  // push 10 t N: breakaway at t = 0.5 s
  MechanismSpec s = block(m, Vec3::UnitX(), F);
  s.joints[0].drive = DriveSpec{DriveSpec::Kind::Force, "10*t", nullptr, nlohmann::json::object()};
  const Mechanism mech = prepare(s);
  Simulation sim(mech);
  const auto events = test::run_collecting_events(sim, 1.0, 1e-3);
  REQUIRE(!events.empty());
  CHECK(events[0].kind == "slip");
  CHECK(std::abs(events[0].t - F / rate) < 1e-9);
  // Then m q̈ = 10 t - F from rest at t0 = F / 10.
  const double t0 = F / rate, dt = 1.0 - t0;
  const double q_exact = (rate * dt * dt * dt / 6 + (rate * t0 - F) * dt * dt / 2) / m;
  CHECK(std::abs(sim.q()[0] - q_exact) < 1e-9);
}

TEST_CASE("a pendulum with joint friction comes to rest: stick located, energy balanced",
          "[friction]") {
  LoadResult r = load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/pendulum.json");
  r.spec.joints[0].friction = JointFrictionSpec{4.0, 0.1};
  const Mechanism mech = prepare(r.spec);
  Simulation sim(mech);
  const auto events = test::run_collecting_events(sim, 8.0, 1e-3);
  int sticks = 0;
  for (const auto& e : events) sticks += e.kind == "stick";
  CHECK(sticks >= 1);
  sim.evaluate();
  CHECK(std::abs(sim.qd()[0]) < 1e-12);
  CHECK(sim.unilaterals().closed[0]);
  CHECK(std::abs(sim.unilaterals().force[0]) <= 4.0 + 1e-9);
  const double scale = std::abs(sim.energy().dissipated);
  CHECK(scale > 0.1);
  CHECK(std::abs(sim.energy().residual) < 1e-9 * scale);
}

TEST_CASE("friction in the file: round trip and refusals", "[friction]") {
  const MechanismSpec s = block(1, Vec3::UnitX(), 2.0, 0.5);
  CHECK(parse_project(to_text(s)).spec.joints[0].friction == s.joints[0].friction);
  nlohmann::json doc = to_json(s);
  doc["joints"][0]["friction"]["coulomb"] = -1;
  CHECK_THROWS_WITH(parse_project(doc.dump()), Catch::Contains("/joints/0/friction/coulomb"));
}
