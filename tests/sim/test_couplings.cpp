// Joint couplings (contract-additions-2 §1) against closed forms: geared flywheels under a torque,
// a pendulum geared to a flywheel (reduced inertia, small-oscillation period, the nonlinear motion
// against a one-coordinate model), the coupling force against virtual work, energy, a coupling on
// a loop joint inside a loop, and over-determining couplings diagnosed by name.
#include <cmath>
#include <numbers>

#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {

// Only Izz matters: every axis is world z.
BodySpec disc(const std::string& name, double mass, double izz, const Vec3& com = Vec3::Zero()) {
  return test::isotropic_body(name, mass, izz, com);
}

JointSpec pivot(const std::string& name, const std::string& parent, const std::string& child,
                const Vec3& at, const Vec3& on_child = Vec3::Zero()) {
  JointSpec j = test::joint_between(name, Joint::revolute(), parent, child);
  j.parent_frame.position = at;
  j.child_frame.position = on_child;
  return j;
}

CouplingSpec gear(const std::string& name, const std::string& a, const std::string& b, double r) {
  CouplingSpec c;
  c.name = name;
  c.type = r < 0 ? CouplingSpec::Type::Gear : CouplingSpec::Type::Linear;
  c.joints = {a, b};
  c.ratio = r;
  return c;
}

// Flywheel A (inertia IA) driven by a torque tau, geared to flywheel B (IB) with ratio r.
MechanismSpec geared_flywheels(double IA, double IB, double r, double tau) {
  MechanismSpec s;
  s.name = "geared flywheels";
  s.gravity = Vec3::Zero();
  s.bodies = {disc("A", 2.0, IA), disc("B", 1.0, IB)};
  s.joints = {pivot("JA", "ground", "A", Vec3::Zero()), pivot("JB", "ground", "B", {0.3, 0, 0})};
  DriveSpec d;
  d.kind = DriveSpec::Kind::Force;
  d.expression = std::to_string(tau);
  s.joints[0].drive = d;
  s.couplings = {gear("G1", "JA", "JB", r)};
  return s;
}

// A pendulum (point-like bob of mass m at length l, plus Izz about its pivot) geared to a flywheel.
MechanismSpec geared_pendulum(double m, double l, double Ip, double IB, double r, double q0) {
  MechanismSpec s;
  s.name = "geared pendulum";
  s.gravity = {0, -9.81, 0};
  s.bodies = {disc("pendulum", m, Ip, {l, 0, 0}), disc("flywheel", 1.5, IB)};
  s.joints = {pivot("P", "ground", "pendulum", Vec3::Zero()),
              pivot("F", "ground", "flywheel", {0.5, 0, 0})};
  s.joints[0].q0 = std::vector<double>{q0};
  s.couplings = {gear("G", "P", "F", r)};
  return s;
}
}  // namespace

TEST_CASE("Geared flywheels: the reduced inertia and the coupling force", "[sim][couplings]") {
  const double IA = 0.02, IB = 0.05, tau = 1.3;
  for (double r : {-2.0, -0.5, 3.0}) {
    const Mechanism m = prepare(geared_flywheels(IA, IB, r, tau));
    CHECK(m.mobility.mobility == 1);  // two joints, one coupling
    Simulation sim(m);
    sim.evaluate();
    const double a = tau / (IA + r * r * IB);  // θ̈_A = τ / (I_A + r² I_B)
    INFO("ratio " << r);
    CHECK(std::abs(sim.qdd()[0] - a) <= 1e-12 * std::abs(a));
    CHECK(std::abs(sim.qdd()[1] - r * a) <= 1e-12 * std::abs(r * a));
    // Virtual work: the coupling applies I_B θ̈_B to B and -r times that to A, so that
    // τ - r μ = I_A θ̈_A.
    const double mu = IB * r * a;
    REQUIRE(sim.coupling_forces().size() == 1);
    CHECK(std::abs(sim.coupling_forces()[0] - mu) <= 1e-12 * std::abs(mu));
    CHECK(std::abs(tau - r * sim.coupling_forces()[0] - IA * sim.qdd()[0]) <= 1e-12 * tau);
    // Over 1 s the angles keep the ratio exactly and the drive's work is the kinetic energy.
    for (int k = 0; k < 1000; ++k) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    CHECK(std::abs(sim.q()[1] - r * sim.q()[0]) <= 1e-12 * std::abs(sim.q()[1]));
    CHECK(std::abs(sim.q()[0] - 0.5 * a) <= 1e-12 * 0.5 * a);
    CHECK(std::abs(sim.energy().residual) <= 1e-12 * sim.energy().kinetic);
  }
}

TEST_CASE("A motion drive through a gear reports its own torque, not the mesh's",
          "[sim][couplings]") {
  // Flywheel A driven at constant angular acceleration α, geared to B: the motor supplies
  // (I_A + r² I_B) α; the mesh applies I_B r α to B (and -r times that to A).
  const double IA = 0.02, IB = 0.05, alpha = 3.0;
  for (double r : {-2.0, 0.5}) {
    MechanismSpec s = geared_flywheels(IA, IB, r, 0.0);
    s.joints[0].drive = DriveSpec{DriveSpec::Kind::Motion, "1.5*t*t", nullptr};
    if (r > 0) s.couplings[0].type = CouplingSpec::Type::Belt;
    const Mechanism m = prepare(s);
    Simulation sim(m);
    for (int k = 0; k < 100; ++k) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    INFO("ratio " << r);
    const double motor = (IA + r * r * IB) * alpha, mesh = IB * r * alpha;
    CHECK(std::abs(sim.joint_states()[0].tau[0] - motor) <= 1e-12 * motor);
    CHECK(std::abs(sim.coupling_forces()[0] - mesh) <= 1e-12 * std::abs(mesh));
    CHECK(sim.joint_states()[1].tau[0] == 0.0);  // passive: the mesh is not J.tau
  }
}

TEST_CASE("A pendulum geared to a flywheel moves as the one-coordinate reduced model",
          "[sim][couplings]") {
  const double m = 0.8, l = 0.4, Ip = 0.002, IB = 0.01, r = -3.0, q0 = 1.2;
  const Mechanism mech = prepare(geared_pendulum(m, l, Ip, IB, r, q0));
  const double J = Ip + m * l * l + r * r * IB;  // reduced inertia about the pendulum's pivot
  auto reduced = [&](double q) { return -m * 9.81 * l * std::cos(q) / J; };  // θ from +x, g -y
  // The reduced model, integrated by RK4 with the same step.
  double q = q0, v = 0.0;
  const double h = 1e-3;
  Simulation sim(mech);
  sim.evaluate();
  const double E0 = sim.energy().kinetic + sim.energy().potential;
  double worst_q = 0.0, worst_E = 0.0;
  for (int k = 0; k < 2000; ++k) {
    const double k1q = v, k1v = reduced(q);
    const double k2q = v + h / 2 * k1v, k2v = reduced(q + h / 2 * k1q);
    const double k3q = v + h / 2 * k2v, k3v = reduced(q + h / 2 * k2q);
    const double k4q = v + h * k3v, k4v = reduced(q + h * k3q);
    q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    sim.step(h, Integrator::RK4);
    sim.evaluate();
    worst_q = std::max(worst_q, std::abs(sim.q()[0] - q));
    worst_E = std::max(worst_E, std::abs(sim.energy().residual));
  }
  INFO("worst angle difference " << worst_q << " rad, energy residual " << worst_E << " J");
  CHECK(worst_q <= 1e-9);                 // the full motion equals the reduced one over 2 s
  CHECK(worst_E <= 1e-9 * std::abs(E0));  // ideal couplings do no work
  CHECK(std::abs(sim.q()[1] - r * (sim.q()[0] - q0)) <= 1e-12);

  // Small oscillations about the lowest point: period 2π sqrt(J / (m g l)).
  const Mechanism small = prepare(geared_pendulum(m, l, Ip, IB, r, -kPi / 2 + 1e-3));
  Simulation s(small);
  const double T = 2 * kPi * std::sqrt(J / (m * 9.81 * l));
  double prev = s.qd()[0], t_cross = -1.0;
  for (int k = 0; k < 12000 && t_cross < 0; ++k) {  // first upward zero crossing of q̇: T / 2
    s.step(1e-4, Integrator::RK4);
    if (prev < 0 && s.qd()[0] >= 0) t_cross = s.time() - 1e-4 * s.qd()[0] / (s.qd()[0] - prev);
    prev = s.qd()[0];
  }
  INFO("half period " << t_cross << " s, expected " << T / 2);
  CHECK(std::abs(t_cross - T / 2) <=
        1e-6 * T);  // linear interpolation of the crossing, 1e-4 s steps
}

TEST_CASE("A coupling on a loop joint inside a four-bar keeps loop and ratio exact",
          "[sim][couplings]") {
  MechanismSpec s = load_project(test::sample_path("fourbar.json")).spec;
  s.joints[0].drive.reset();  // a passive four-bar under gravity
  const Mechanism plain = prepare(s);
  std::string loop_joint;
  for (std::size_t j = 0; j < s.joints.size(); ++j)
    if (plain.compiled.joint_map[j].loop) loop_joint = s.joints[j].name;
  REQUIRE(!loop_joint.empty());
  s.bodies.push_back(disc("flywheel", 0.2, 2e-4));
  s.joints.push_back(pivot("F", "ground", "flywheel", {0.15, -0.2, 0}));
  s.couplings = {gear("G", loop_joint, "F", -1.5)};
  const Mechanism m = prepare(s);
  CHECK(m.mobility.mobility == plain.mobility.mobility);  // the flywheel's freedom is taken
  Simulation sim(m);
  sim.evaluate();
  const int lj = s.joint_index(loop_joint), fj = s.joint_index("F");
  const double ql0 = sim.joint_states()[lj].q[0], qf0 = sim.joint_states()[fj].q[0];
  double worst_ratio = 0.0, worst_E = 0.0, worst_loop = 0.0, scale = 0.0;
  for (int k = 0; k < 2000; ++k) {
    sim.step(5e-4, Integrator::RK4);
    sim.evaluate();
    scale = std::max(scale, sim.energy().kinetic);
    const double dl = std::remainder(sim.joint_states()[lj].q[0] - ql0, 2 * kPi);
    worst_ratio = std::max(worst_ratio, std::abs(sim.joint_states()[fj].q[0] - qf0 + 1.5 * dl));
    worst_E = std::max(worst_E, std::abs(sim.energy().residual));
    worst_loop = std::max(worst_loop, sim.loop_error());
    CHECK(std::abs(sim.joint_states()[fj].qd[0] + 1.5 * sim.joint_states()[lj].qd[0]) <= 1e-9);
  }
  INFO("ratio error " << worst_ratio << ", loop error " << worst_loop << ", energy " << worst_E
                      << " J of kinetic energy up to " << scale << " J");
  CHECK(worst_ratio <= 1e-12);  // projected with the loops after every step
  CHECK(worst_loop <= 1e-12);
  // RK4 at 0.5 ms with the projection after each step (the samples' closed loops show 1e-9 to
  // 1e-8 of the energy exchanged at 1 ms, tests/sim/test_energy_balance.cpp).
  CHECK(worst_E <= 1e-9 * scale);
  CHECK(std::abs(sim.joint_states()[fj].qd[0]) > 1e-3);  // it moved
}

TEST_CASE("Over-determining couplings are refused by name", "[sim][couplings]") {
  SECTION("a second relation between the same joints") {
    MechanismSpec s = geared_flywheels(0.02, 0.05, -2.0, 1.0);
    s.couplings.push_back(gear("G2", "JA", "JB", -3.0));
    REQUIRE_THROWS_WITH(prepare(s), Catch::Contains("'G2' over-determines"));
  }
  SECTION("a relation the loop already imposes otherwise: the four-bar locks") {
    MechanismSpec s = load_project(test::sample_path("fourbar.json")).spec;
    s.joints[0].drive.reset();
    s.couplings = {gear("G", "A0", "B0", -1.0)};
    REQUIRE_THROWS_WITH(prepare(s), Catch::Contains("'G' over-determines"));
  }
  SECTION("a joint that is not 1-DoF") {
    MechanismSpec s = geared_flywheels(0.02, 0.05, -2.0, 1.0);
    s.joints[1].joint = Joint::spherical();
    REQUIRE_THROWS_WITH(prepare(s), Catch::Contains("coupling 'G1'"));
  }
}

TEST_CASE("Couplings force Method 2: the sparse solver says why it does not apply",
          "[sim][couplings][solvers]") {
  const Mechanism m = prepare(geared_flywheels(0.02, 0.05, -2.0, 1.0));
  SimulationOptions o;
  o.solver = SolverChoice::Sparse;
  REQUIRE_THROWS_WITH(Simulation(m, o), Catch::Contains("no loops"));
  o.solver = SolverChoice::Method2;
  CHECK(std::string(Simulation(m, o).solver_name()).starts_with("method2"));
}
