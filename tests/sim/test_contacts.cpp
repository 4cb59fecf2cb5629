// Joint limits and contacts (contract-additions-2 §2, RBDA 11) against closed forms: a
// pendulum released onto a stop (impact time from the elliptic integral, the impulse of
// Newton's law), a bouncing ball (impact times and apex heights e^{2k} h, coming to rest), the
// chain impulse and its energy loss on a random tree, loops closed through impacts with the
// energy balance including the impact losses; the file form and hostile input.
#include <cmath>
#include <numbers>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/io/project.hpp"
#include "core/sim/contact/impact.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/event_runs.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {

// A uniform rod of mass m and length L hinged at the origin about z, q = 0 horizontal along +x,
// with a lower stop at -theta (q decreases as it falls).
MechanismSpec rod_on_stop(double m, double L, double theta, double e) {
  BodySpec b = test::isotropic_body("rod", m, 0.0, Vec3(L / 2, 0, 0));
  b.inertia = {1e-6, m * L * L / 12, m * L * L / 12, 0, 0, 0};
  JointSpec j = test::joint_between("hinge", Joint::revolute(), "ground", "rod", {0.0});
  j.limits = LimitSpec{-theta, std::nullopt, e};
  return test::one_body_on("rod", b, j, kG);
}

// A ball of radius r on a vertical slider (q = height of its centre) over the ground plane y = 0.
MechanismSpec ball(double m, double r, double q0, double e) {
  MechanismSpec s = test::one_body_on("ball", test::isotropic_body("ball", m, 1e-4),
                                      test::vertical_slider("lift", "ball", q0), kG);
  ContactSpec c;
  c.name = "floor";
  c.body = "ball";
  c.radius = r;
  c.restitution = e;
  s.contacts.push_back(c);
  return s;
}

// ∫_0^θ dθ / sqrt(k sin θ) with θ = φ² (a smooth integrand), composite Simpson.
double fall_time(double k, double theta) {
  const int n = 20000;
  const double b = std::sqrt(theta), h = b / n;
  auto f = [&](double p) {
    return p == 0 ? 2 / std::sqrt(k) : 2 * p / std::sqrt(k * std::sin(p * p));
  };
  double sum = f(0) + f(b);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * f(i * h);
  return sum * h / 3;
}
}  // namespace

TEST_CASE("a rod released onto a stop: impact time, Newton's impulse, rest, energy", "[contacts]") {
  const double m = 1.0, L = 1.0, theta = 1.0, e = 0.5;
  const Mechanism mech = prepare(rod_on_stop(m, L, theta, e));
  Simulation sim(mech);
  const auto events = test::run_collecting_events(sim, 2.0, 1e-3);
  REQUIRE(events.size() >= 5);
  const double Ip = m * L * L / 3, k = m * kG * L / Ip;
  const double w = std::sqrt(k * std::sin(theta));  // speed at the stop, from energy
  // Impact time from the elliptic integral: 1e-9 s (events are bracketed to 1e-12 s).
  CHECK(std::abs(events[0].t - fall_time(k, theta)) < 1e-9);
  CHECK(events[0].kind == "impact");
  CHECK(events[0].name == "hinge");
  // ω⁺ = -e ω⁻: the impulse is I (1 + e) ω⁻ (relative 1e-10: ω⁻ carries the RK4 error).
  CHECK(std::abs(events[0].impulse - Ip * (1 + e) * w) < 1e-10 * Ip * w);
  // Each rebound leaves with e times the speed it arrived with and arrives back with it.
  CHECK(std::abs(events[1].impulse / events[0].impulse - e) < 1e-9);
  // At rest on the stop: q at the bound, the stop holds the gravity moment m g L/2 cos θ.
  sim.evaluate();
  CHECK(std::abs(sim.q()[0] + theta) < 1e-12);
  CHECK(std::abs(sim.qd()[0]) < 1e-12);
  CHECK(std::abs(sim.unilaterals().force[0] - m * kG * L / 2 * std::cos(theta)) < 1e-9);
  // All the potential energy went into the impacts; the balance closes (1e-9 relative).
  const double drop = m * kG * L / 2 * std::sin(theta);
  CHECK(std::abs(sim.energy().impact_loss - drop) < 1e-9 * drop);
  CHECK(std::abs(sim.energy().residual) < 1e-9 * drop);
}

TEST_CASE("a bouncing ball: impact times, apex heights e^2k h, rest in finite events",
          "[contacts]") {
  const double m = 0.1, r = 0.05, h = 0.95, e = 0.5;
  const Mechanism mech = prepare(ball(m, r, h + r, e));
  Simulation sim(mech);
  const auto events = test::run_collecting_events(sim, 3.0, 1e-3);
  REQUIRE(events.size() > 6);
  const double v1 = std::sqrt(2 * kG * h);
  double t = std::sqrt(2 * h / kG), v = v1;
  for (int k = 0; k < 5; ++k) {
    INFO("bounce " << k);
    CHECK(std::abs(events[k].t - t) < 1e-9);
    const double arrive = events[k].impulse / (m * (1 + e));  // p = m (1 + e) v⁻
    const double apex = (e * arrive) * (e * arrive) / (2 * kG);
    CHECK(std::abs(apex - std::pow(e, 2 * (k + 1)) * h) < 1e-10 * h);
    v *= e;
    t += 2 * v / kG;
  }
  CHECK(events.size() < 100);  // Zeno: the ball comes to rest after finitely many bounces
  sim.evaluate();
  CHECK(std::abs(sim.gaps()[0]) < 1e-12);
  CHECK(std::abs(sim.unilaterals().force[0] - m * kG) < 1e-9);
  CHECK(std::abs(sim.energy().residual) < 1e-9 * m * kG * h);
}

TEST_CASE("rk45 locates the same bounces and comes to rest", "[contacts]") {
  const double m = 0.1, r = 0.05, h = 0.95, e = 0.5;
  const Mechanism mech = prepare(ball(m, r, h + r, e));
  Simulation sim(mech);
  std::vector<Simulation::ContactEvent> events;
  for (int i = 1; i <= 300; ++i) {  // output every 10 ms, error-controlled steps between
    sim.advance(0.01 * i, 1e-10, 1e-12, 0.01);
    for (auto& ev : sim.take_events()) events.push_back(ev);
  }
  REQUIRE(events.size() > 6);
  double t = std::sqrt(2 * h / kG), v = std::sqrt(2 * kG * h);
  for (int k = 0; k < 5; ++k) {
    INFO("bounce " << k);
    CHECK(std::abs(events[k].t - t) < 1e-9);  // free flight is quadratic: Dormand-Prince is exact
    v *= e;
    t += 2 * v / kG;
  }
  CHECK(events.size() < 100);
  sim.evaluate();
  CHECK(std::abs(sim.gaps()[0]) < 1e-12);
  CHECK(std::abs(sim.energy().residual) < 1e-9 * m * kG * h);
  CHECK(sim.accepted_steps() < 2000);  // long steps in flight and at rest
}

TEST_CASE("a ball hopping off the floor lands at 2 v0 / g, however small the hop", "[contacts]") {
  // It leaves from gap 0, so its gap starts in round-off: the landing is the gap's return to 0
  // inside the step (a hop of 5e-12 m at v0 = 1e-5 m/s), not an impact at the start.
  const double m = 0.1, r = 0.05;
  for (double v0 : {1e-3, 1e-5}) {
    MechanismSpec s = ball(m, r, r, 0.0);
    s.joints[0].qd0 = std::vector<double>{v0};
    const Mechanism mech = prepare(s);
    Simulation sim(mech);
    const auto events = test::run_collecting_events(sim, 0.01, 1e-3);
    INFO("v0 = " << v0);
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == "impact");
    CHECK(std::abs(events[0].t - 2 * v0 / kG) < 1e-9);  // located to 1e-9 s
    INFO("impulse " << events[0].impulse);
    // e = 0: p = m v0, at the located instant (g 1e-12 s / v0 <= 1e-7 relative)
    CHECK(std::abs(events[0].impulse / (m * v0) - 1) < 1e-6);
    sim.evaluate();
    CHECK(std::abs(sim.unilaterals().force[0] - m * kG) < 1e-9);  // then it rests on the floor
  }
}

TEST_CASE("the chain impulse and its energy loss on a random tree", "[contacts]") {
  std::mt19937 rng(16);
  for (int trial = 0; trial < 5; ++trial) {
    const Model model = test::random_tree(8, rng, false);
    Data data(model);
    const VecX q = test::random_vector(model.nq, rng), qd = test::random_vector(model.nv, rng);
    crba(model, data, q);
    REQUIRE(ltdl_factor(model, data));
    const MatX H = data.H.selfadjointView<Eigen::Lower>();
    VecX t = test::random_vector(model.nv, rng);
    if (t.dot(qd) > 0) t = -t;  // approaching
    const double e = std::uniform_real_distribution<double>(0, 1)(rng);
    ImpactProblem P{MatX(0, model.nv), t.transpose(), VecX::Constant(1, t.dot(qd)),
                    VecX::Constant(1, e)};
    ConstrainedDynamicsWork work;
    const ImpactSolution s = solve_impact(model, data, P, work);
    REQUIRE(s.solved);
    const VecX Hit = H.ldlt().solve(t);
    const double tHt = t.dot(Hit), v = t.dot(qd);
    const double p = -(1 + e) * v / tHt;
    CHECK(std::abs(s.p[0] - p) < 1e-12 * std::abs(p));
    CHECK_CLOSE(s.dv, VecX(Hit * p), 1e-12);
    CHECK(std::abs(s.rate[0] + e * v) < 1e-12 * std::abs(v));  // Newton: t^T q̇⁺ = -e t^T q̇⁻
    const double loss = 0.5 * (1 - e * e) * v * v / tHt;
    CHECK(std::abs(-s.contact_work - loss) < 1e-12 * loss);
    const VecX v1 = qd + s.dv;
    const double T = 0.5 * qd.dot(H * qd);
    CHECK(std::abs(T - 0.5 * v1.dot(H * v1) - loss) < 1e-12 * T);
  }
}

TEST_CASE("a four-bar swinging onto stops: loops closed through every impact, energy balanced",
          "[contacts]") {
  LoadResult r = load_project(test::sample_path("fourbar.json"));
  MechanismSpec& s = r.spec;
  for (JointSpec& j : s.joints) j.drive.reset();
  const Mechanism first = prepare(s);
  // Stops ±0.25 rad about the assembled angle on every revolute joint, tree and loop alike.
  Simulation probe(first);
  probe.evaluate();
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const double q0 = probe.joint_states()[j].q[0];
    s.joints[j].limits = LimitSpec{q0 - 0.25, q0 + 0.25, 0.3};
  }
  const Mechanism mech = prepare(s);
  Simulation sim(mech);
  double worst = 0.0, scale = 0.0;
  int impacts = 0;
  for (int i = 0; i < 2000; ++i) {
    sim.step(1e-3, Integrator::RK4);
    for (const auto& e : sim.take_events()) impacts += e.kind == "impact";
    sim.evaluate();
    worst = std::max(worst, sim.loop_error());
    scale = std::max(scale, sim.energy().kinetic + std::abs(sim.energy().potential));
    INFO("t = " << sim.time());
    REQUIRE(std::abs(sim.energy().residual) < 1e-9 * scale);
  }
  CHECK(impacts > 0);
  CHECK(worst < 1e-12);
}

TEST_CASE("limits and contacts in the file: round trip and refusals by JSON pointer",
          "[contacts]") {
  MechanismSpec s = ball(0.1, 0.05, 1.0, 0.5);
  s.joints[0].limits = LimitSpec{0.0, 2.0, 0.25};
  const LoadResult back = parse_project(to_text(s));
  CHECK(back.spec.joints[0].limits == s.joints[0].limits);
  CHECK(back.spec.contacts == s.contacts);
  auto refused = [&](const std::string& text, const std::string& pointer) {
    try {
      parse_project(text);
    } catch (const ProjectError& e) {
      CHECK(e.pointer == pointer);
      return;
    }
    FAIL("accepted: " << text);
  };
  nlohmann::json doc = to_json(s);
  doc["joints"][0]["limits"]["restitution"] = 1.01;  // would create energy
  refused(doc.dump(), "/joints/0/limits/restitution");
  doc = to_json(s);
  doc["joints"][0]["limits"] = {{"lower", 1.0}, {"upper", 0.5}};
  refused(doc.dump(), "/joints/0/limits/upper");
  doc = to_json(s);
  doc["contacts"][0]["surface"]["normal"] = {0, 0, 0};
  refused(doc.dump(), "/contacts/0/surface/normal");
  doc = to_json(s);
  doc["contacts"][0]["body"] = "nothing";
  refused(doc.dump(), "/contacts/0/body");
  doc = to_json(s);
  doc["contacts"][0]["surface"]["type"] = "torus";
  refused(doc.dump(), "/contacts/0/surface/type");
}

TEST_CASE("hostile: a limit violated at t = 0, a sphere starting inside the plane", "[contacts]") {
  MechanismSpec s = rod_on_stop(1, 1, 1, 0.5);
  s.joints[0].q0 = std::vector<double>{-1.5};
  const Mechanism m1 = prepare(s);
  CHECK_THROWS_WITH(Simulation(m1), Catch::Contains("joint 'hinge' starts outside its limits"));
  const Mechanism m2 = prepare(ball(0.1, 0.05, 0.02, 0.5));
  CHECK_THROWS_WITH(Simulation(m2), Catch::Contains("contact 'floor' starts with its sphere"));
}

TEST_CASE("hostile: an elastic ball (e = 1) bounces for ever without losing energy", "[contacts]") {
  const Mechanism mech = prepare(ball(0.1, 0.05, 1.05, 1.0));
  Simulation sim(mech);
  const auto events = test::run_collecting_events(sim, 5.0, 1e-3);
  CHECK(events.size() >= 5);
  sim.evaluate();
  CHECK(std::abs(sim.energy().impact_loss) < 1e-12);
  CHECK(std::abs(sim.energy().residual) < 1e-9);
}

// Events without end: a rod rattling elastically between two stops 2e-8 rad apart at about
// 1 rad/s hits them 5e4 times a millisecond. The step stops after 10000 events with what happened
// (every impact changed the motion), not a guess at why.
TEST_CASE("hostile: a rod rattling between two stops 2e-8 rad apart is stopped, saying so",
          "[contacts]") {
  MechanismSpec s = rod_on_stop(1, 1, 1e-8, 1.0);
  s.joints[0].limits = LimitSpec{-1e-8, 1e-8, 1.0};
  s.joints[0].qd0 = std::vector<double>{1.0};
  const Mechanism mech = prepare(s);
  Simulation sim(mech);
  std::string what;
  try {
    sim.step(1e-3, Integrator::RK4);
  } catch (const SetupError& e) {
    what = e.what();
  }
  INFO(what);
  // 10001 bounces of 2e-8 s each: 2e-4 s into the step.
  CHECK_THAT(what, Catch::Contains("at t = 0.000200 more than 10000 events in one step"));
  // The two stops in turn (both named after their joint), every impact with an impulse.
  CHECK_THAT(what, Catch::Contains("'hinge' impact x5000 (restitution 1); 'hinge' impact x5001 "
                                   "(restitution 1); 10001 of them changed the motion"));
  CHECK(sim.time() < 1e-3);  // the run keeps its last good state inside the step
  CHECK(std::abs(sim.q()[0]) <= 1e-8 + 1e-9);
}
