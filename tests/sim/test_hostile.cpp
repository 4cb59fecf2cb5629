// A catalogue of hostile mechanisms (tests/data/hostile/*.json): each gives its exact diagnosis,
// or, where the mechanism is legitimate however awkward, an accurate result checked against an
// independent solution. The same diagnoses reach the CLI (exit status 3, tests/app) and the GUI
// (SetupError text in the diagnostics dock).
#include <chrono>
#include <cmath>
#include <regex>
#include <sstream>

#include "core/io/project.hpp"
#include "core/sim/loop_method.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using Catch::Matchers::Contains;

namespace {
Mechanism hostile(const std::string& file) {
  return prepare(
      load_project(std::string(ARTICULA_SOURCE_DIR) + "/tests/data/hostile/" + file).spec);
}

std::string setup_error(const std::string& file) {
  try {
    const Mechanism m = hostile(file);
    Simulation sim(m);
  } catch (const SetupError& e) {
    return e.what();
  }
  return "";
}

// Steps until `t_end` or a SetupError, whose message is returned ("" when none).
std::string run(Simulation& sim, double t_end, double h, Integrator integrator = Integrator::RK4) {
  try {
    while (sim.time() < t_end - 0.5 * h) {
      sim.step(h, integrator);
      sim.evaluate();
    }
  } catch (const SetupError& e) {
    return e.what();
  }
  return "";
}

// Independent reference: the planar two-link arm of textbook robotics (Spong, Hutchinson and
// Vidyasagar, Robot Modeling and Control, 2nd ed., Sec. 6.4), links of length 1 with centres of
// mass at 0.5, angles from the x axis, gravity -y; integrated with the same RK4 step.
struct TwoLink {
  double m1, m2, I1, I2, g = 9.81, l1 = 1.0, c1 = 0.5, c2 = 0.5;
  Eigen::Vector2d qdd(const Eigen::Vector2d& q, const Eigen::Vector2d& v) const {
    const double c = std::cos(q[1]), h = -m2 * l1 * c2 * std::sin(q[1]);
    Eigen::Matrix2d M;
    M(0, 0) = m1 * c1 * c1 + I1 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * c) + I2;
    M(0, 1) = M(1, 0) = m2 * (c2 * c2 + l1 * c2 * c) + I2;
    M(1, 1) = m2 * c2 * c2 + I2;
    const double G1 =
        (m1 * c1 + m2 * l1) * g * std::cos(q[0]) + m2 * c2 * g * std::cos(q[0] + q[1]);
    const double G2 = m2 * c2 * g * std::cos(q[0] + q[1]);
    const Eigen::Vector2d rhs(-(h * v[1] * v[1] + 2 * h * v[0] * v[1] + G1),
                              -(-h * v[0] * v[0] + G2));
    return M.ldlt().solve(rhs);
  }
  void rk4(Eigen::Vector2d& q, Eigen::Vector2d& v, double h) const {
    const Eigen::Vector2d k1q = v, k1v = qdd(q, v);
    const Eigen::Vector2d k2q = v + 0.5 * h * k1v, k2v = qdd(q + 0.5 * h * k1q, k2q);
    const Eigen::Vector2d k3q = v + 0.5 * h * k2v, k3v = qdd(q + 0.5 * h * k2q, k3q);
    const Eigen::Vector2d k4q = v + h * k3v, k4v = qdd(q + h * k3q, k4q);
    q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
};

// Simulates a double pendulum file for 1 s and compares with TwoLink (same step, same method).
void check_two_link(const std::string& file, const TwoLink& ref, double tol) {
  const Mechanism m = hostile(file);
  Simulation sim(m);
  REQUIRE(run(sim, 1.0, 1e-3).empty());
  Eigen::Vector2d q(m.q0[0], m.q0[1]), v = Eigen::Vector2d::Zero();
  for (int n = 0; n < 1000; ++n) ref.rk4(q, v, 1e-3);
  INFO(file << ": q = " << sim.q().transpose() << ", reference " << q.transpose());
  CHECK(std::abs(sim.q()[0] - q[0]) <= tol);
  CHECK(std::abs(sim.q()[1] - q[1]) <= tol);
  CHECK(std::abs(sim.qd()[0] - v[0]) <= 10 * tol);
  CHECK(std::abs(sim.qd()[1] - v[1]) <= 10 * tol);
  const Simulation::Energy& e = sim.energy();  // conservative: T + V constant
  CHECK(std::abs(e.residual) <= 1e-9 * std::max(1.0, std::abs(e.kinetic)));
}

// dead_point.json run for 2 s: stopped at the last good step before the dead point (closed form
// t* = acos(0.0625) - 0.3 for the triple rocker there), naming the drive, with that state kept.
void check_dead_point_stop(Simulation& sim) {
  const double t_dead = std::acos(0.0625) - 0.3;
  const std::string why = run(sim, 2.0, 1e-3);
  INFO(why);
  CHECK_THAT(why, Contains("'A0'") && Contains("dead point"));
  CHECK(sim.time() <= t_dead);
  CHECK(sim.time() >= t_dead - 0.01);
  CHECK(sim.q().allFinite());
}
}  // namespace

TEST_CASE("hostile: a loop that cannot close", "[hostile]") {
  // Ground 0.3 m, crank 0.1 + coupler 0.02 + rocker 0.05 reach 0.17 m at most.
  try {
    (void)hostile("loop_cannot_close.json");
    FAIL("assembled a loop that cannot close");
  } catch (const SetupError& e) {
    CHECK_THAT(
        e.what(),
        Contains("cannot close the loop at joint 'B': residual ") &&
            Contains("(check link lengths: the loop may be too long or too short to close)"));
  }
}

TEST_CASE("hostile: a crank driven through a dead point", "[hostile]") {
  // Triple rocker g = 0.3, a = 0.2, b = 0.15, c = 0.2: the crank angle is limited to
  // cos θ* = (a² + g² - (b + c)²) / (2 a g) = 0.0625, reached at t* = θ* - 0.3.
  const Mechanism m = hostile("dead_point.json");
  Simulation sim(m);
  check_dead_point_stop(sim);
  CHECK(std::abs(sim.q()[0] - (0.3 + sim.time())) <= 1e-12);  // the drive's law, to round-off
}

namespace {
std::string first_failure(const std::string& file) {
  const Mechanism m = hostile(file);
  Simulation sim(m);
  try {
    for (int k = 0; k < 1000; ++k) sim.step(1e-3, Integrator::RK4);
  } catch (const SetupError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("hostile: a motion law that blows up is named, not blamed on a dead point", "[hostile]") {
  // The four-bar's crank driven by 0.3 + 1/(t - 0.5): in the step to 0.481 s it turns by
  // 1/0.019 - 1/0.02 = 2.63 rad, more than the 0.5 rad a step can follow (the loop solve then
  // fails; it used to read "drove the mechanism past a dead point").
  const std::string blow = first_failure("drive_blows_up.json");
  INFO(blow);
  CHECK_THAT(blow, Contains("at t = 0.481 the motion law of joint 'A0' moves it by 2.63") &&
                       Contains(" rad in one step of 0.001 s (q = -52.3") &&
                       Contains("more than a step can follow (0.5 rad): check the law, or use a "
                                "smaller step"));
  CHECK(blow.find("dead point") == std::string::npos);
  // 0.3 + exp(1000 t): the loop solve first fails in the step to 3 ms, e^3 - e^2 = 12.70 rad.
  const std::string exp = first_failure("drive_exp.json");
  INFO(exp);
  CHECK_THAT(exp, Contains("at t = 0.003 the motion law of joint 'A0' moves it by 12.69"));
  CHECK(exp.find("dead point") == std::string::npos);
}

TEST_CASE("hostile: a locked mechanism with a drive", "[hostile]") {
  const Mechanism m = hostile("locked.json");
  CHECK(m.mobility.mobility == 0);
  CHECK(setup_error("locked.json") ==
        "the mechanism is locked (mobility 0, 3 redundant constraint(s)): it cannot move, so the "
        "motion "
        "drive(s) on joint(s) 'O1' cannot be imposed; remove a joint or a body to give it a degree "
        "of "
        "freedom, or remove the drive");
}

TEST_CASE("hostile: inconsistent drives on an overconstrained mechanism", "[hostile]") {
  // Double parallelogram: Grübler-Kutzbach counts 0, the geometry gives mobility 1.
  const Mechanism m = hostile("inconsistent_drives.json");
  CHECK(m.gruebler == 0);
  CHECK(m.mobility.mobility == 1);
  CHECK_THAT(
      setup_error("inconsistent_drives.json"),
      Contains("the motion drives on joint(s) 'O1' 'O3' over-determine the mechanism at t = 0 "
               "(mobility 1, 2 motion drive(s), rank"));
}

TEST_CASE("hostile: a zero-mass leaf body (singular mass matrix)", "[hostile]") {
  CHECK(
      setup_error("zero_mass_leaf.json") ==
      "the mass matrix is singular: joint(s) 'elbow' move no mass or inertia (the bodies they "
      "carry "
      "are massless, or their mass lies on the joint axis): give those bodies mass and rotational "
      "inertia, or fix the joint");
}

TEST_CASE("hostile: massless intermediate bodies", "[hostile]") {
  // The upper link is massless: the lower one still gives every joint inertia. Against the
  // textbook two-link equations (tolerance: 1e-10 rad after 1 s, same RK4 step).
  check_two_link("massless_intermediate.json", {0.0, 1.0, 0.0, 1.0 / 12}, 1e-10);
}

TEST_CASE("hostile: a massless coupler in a closed loop", "[hostile]") {
  // The coupler is a leaf of the spanning tree, so the tree's mass matrix is singular; the loop
  // closure determines its motion (a two-force member). Checked by the energy balance over half
  // a revolution: the drive's work equals the change of T + V of crank and rocker (residual 1e-6
  // of the work), with the loop closed to 1e-12, and against a coupler of 1e-9 kg (1e-6 rad).
  const Mechanism m = hostile("massless_coupler.json");
  Simulation sim(m);
  const std::string why = run(sim, 0.5, 1e-3);
  INFO(why);
  REQUIRE(why.empty());
  const Simulation::Energy& e = sim.energy();
  INFO("work " << e.work << " J, residual " << e.residual << " J");
  CHECK(std::abs(e.work) > 1e-3);
  CHECK(std::abs(e.residual) <= 1e-6 * std::abs(e.work));
  CHECK(sim.loop_error() <= 1e-12);
  MechanismSpec light = m.spec;
  light.bodies[1].mass = 1e-9;
  light.bodies[1].inertia = {1e-15, 1e-12, 1e-12, 0, 0, 0};
  const Mechanism ml = prepare(light);
  Simulation ref(ml);
  REQUIRE(run(ref, 0.5, 1e-3).empty());
  for (std::size_t j = 0; j < sim.joint_states().size(); ++j)
    CHECK(std::abs(sim.joint_states()[j].q[0] - ref.joint_states()[j].q[0]) <= 1e-6);
}

TEST_CASE("hostile: mass ratio 1e6", "[hostile]") {
  check_two_link("mass_ratio.json", {1000.0, 1e-3, 1000.0 / 12, 1e-3 / 12}, 1e-10);
}

TEST_CASE("hostile: coordinates 1e4 m from the origin (RBDA 10.1)", "[hostile]") {
  // The same crank-rocker with its ground pivots at the origin and at (1e4, 1e4) m: body frames
  // are relative to their parents, so only round-off in the loop closure differs.
  const Mechanism near = hostile("fourbar_origin.json"), far = hostile("fourbar_far.json");
  Simulation a(near), b(far);
  REQUIRE(run(a, 1.0, 1e-3).empty());
  const std::string why = run(b, 1.0, 1e-3);
  INFO(why);
  REQUIRE(why.empty());
  for (std::size_t j = 0; j < a.joint_states().size(); ++j) {
    INFO("joint " << near.spec.joints[j].name);
    CHECK(std::abs(a.joint_states()[j].q[0] - b.joint_states()[j].q[0]) <= 1e-9);
    CHECK(std::abs(a.joint_states()[j].qd[0] - b.joint_states()[j].qd[0]) <= 1e-7);
    CHECK(std::abs(a.joint_states()[j].tau[0] - b.joint_states()[j].tau[0]) <=
          1e-6 * std::max(1.0, std::abs(a.joint_states()[j].tau[0])));
  }
}

TEST_CASE("hostile: a 1000-body chain", "[hostile]") {
  MechanismSpec spec;
  spec.name = "chain of 1000";
  std::string parent = "ground";
  for (int i = 0; i < 1000; ++i) {
    BodySpec b;
    b.name = "link" + std::to_string(i);
    b.mass = 0.1;
    b.com = Vec3(0.05, 0, 0);
    b.inertia = {1e-6, 0.1 * 0.01 / 12, 0.1 * 0.01 / 12, 0, 0, 0};
    JointSpec j;
    j.name = "j" + std::to_string(i);
    j.joint = Joint::revolute();
    j.parent = parent;
    j.child = b.name;
    if (i > 0) j.parent_frame.position = Vec3(0.1, 0, 0);
    j.q0 = std::vector<double>{i == 0 ? -1.0 : 0.01};
    spec.bodies.push_back(b);
    spec.joints.push_back(j);
    parent = b.name;
  }
  const auto start = std::chrono::steady_clock::now();
  const Mechanism m = prepare(spec);
  CHECK(m.mobility.mobility == 1000);
  Simulation sim(m);
  REQUIRE(run(sim, 0.01, 1e-3).empty());  // ten RK4 steps
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN("1000-body chain: prepare + 10 RK4 steps in " << seconds << " s");
  CHECK(seconds < 60.0);  // Release: well under a second; sanitizer builds are ~10x slower
  CHECK(sim.q().allFinite());
  const Simulation::Energy& e = sim.energy();
  CHECK(std::abs(e.residual) <= 1e-9 * std::max(1.0, std::abs(e.kinetic)));
}

TEST_CASE("hostile: a spring too stiff for the explicit integrator", "[hostile]") {
  // I = 1 kg m², k = 1e8 N m/rad: ω = 1e4 rad/s; RK4 is stable for h ω < 2.78, here h ω = 10.
  const Mechanism m = hostile("stiff_spring.json");
  Simulation sim(m);
  const std::string why = run(sim, 1.0, 1e-3);
  INFO(why);
  CHECK_THAT(why, Contains("the acceleration of joint 'pivot' is not finite") &&
                      Contains("The integration diverged: "
                               "the spring-damper on joint 'pivot' (stiffness 1e+08, damping 0, "
                               "rate 1e+04 1/s) is too stiff "
                               "for rk4 with step 0.001 s: it is stable below 0.000278 s; use a "
                               "smaller step or the adaptive "
                               "integrator (rk45)"));
  // The state before the bad step is kept, and the message says when that was.
  CHECK(sim.q().allFinite());
  CHECK(sim.qd().allFinite());
  std::ostringstream kept;
  kept << "the state at t = " << sim.time() << " is kept";
  CHECK_THAT(why, Contains(kept.str()));
  // The advice works: rk45 follows the oscillation, conserving energy.
  Simulation adaptive(m);
  adaptive.advance(0.01, 1e-8, 1e-10, 1e-3);
  adaptive.evaluate();
  const Simulation::Energy& e = adaptive.energy();
  CHECK(std::abs(e.residual) <= 1e-5 * (e.kinetic + e.potential));
}

TEST_CASE("hostile: a simulation that produces NaN", "[hostile]") {
  // The force drive sqrt(0.0105 - t) is NaN after t = 0.0105: the step from 0.010 to 0.011 fails
  // at its last stage; the state at t = 0.010 stays.
  const Mechanism m = hostile("nan_drive.json");
  Simulation sim(m);
  const std::string why = run(sim, 1.0, 1e-3);
  CHECK_THAT(
      why, Contains("the force drive on joint 'pivot' gives a non-finite force ('sqrt(0.0105 - t)' "
                    "is not defined there); the simulation stops at the last good state"));
  CHECK(std::abs(sim.time() - 0.010) <= 1e-12);
  CHECK(sim.q().allFinite());
  CHECK(sim.qd().allFinite());
  sim.evaluate();  // the kept state still evaluates
  CHECK(sim.qdd().allFinite());
}

// A roller pressed into the corner between a ratchet tooth's ramp and the next tooth's steep face.
// The cam's nearest-point search used to jump to the neighbouring tooth there, so the gap jumped,
// and the run stopped: "'tip' impact x10001 (restitution 0.3); 0 of them changed the motion".
TEST_CASE("hostile: a ratchet pawl meeting a steep tooth face", "[hostile][contacts]") {
  const Mechanism m = hostile("ratchet_jam.json");
  Simulation sim(m);
  double min_gap = 1.0, min_q = 0.0, min_qd = 0.0;
  while (sim.time() < 1.0 - 1e-4) {
    sim.step(2e-4, Integrator::RK4);
    sim.evaluate();
    min_gap = std::min(min_gap, sim.gaps()[0]);
    min_q = std::min(min_q, sim.q()[0]), min_qd = std::min(min_qd, sim.qd()[0]);
  }
  CHECK(min_gap > -1e-9);                    // m: never inside the tooth
  CHECK(min_qd < -1.0);                      // rad/s: it was turning back into the face ...
  CHECK(min_q > -2 * std::acos(-1.0) / 10);  // ... which stopped it within one tooth ...
  CHECK(sim.qd()[0] > 0);                    // ... and sent it forward again
}

TEST_CASE("hostile: the same results with the sparse-matrix method forced", "[hostile][sparse]") {
  // RBDA 8.13's method on the planar cases: the run stops at the same step before the dead point
  // with the same diagnosis (a bad pivot would fall back to Method 2, never NaN); far from the
  // origin its absolute frame is centred on the mechanism, so nothing is lost to the distance.
  auto forced = [](Mechanism m) {
    m.sparse = sparse_dynamics_model(m);
    REQUIRE(m.sparse);
    return m;
  };
  const Mechanism dead = forced(hostile("dead_point.json"));
  Simulation sim(dead);
  check_dead_point_stop(sim);

  const Mechanism near = forced(hostile("fourbar_origin.json")),
                  far = forced(hostile("fourbar_far.json"));
  Simulation a(near), b(far);
  REQUIRE(run(a, 1.0, 1e-3).empty());
  REQUIRE(run(b, 1.0, 1e-3).empty());
  for (std::size_t j = 0; j < a.joint_states().size(); ++j) {
    INFO("joint " << near.spec.joints[j].name);
    CHECK(std::abs(a.joint_states()[j].q[0] - b.joint_states()[j].q[0]) <= 1e-9);
    CHECK(std::abs(a.joint_states()[j].qd[0] - b.joint_states()[j].qd[0]) <= 1e-7);
  }
}

TEST_CASE("hostile: the operator solver gives Method 2's diagnoses", "[hostile][operator]") {
  // The spatial-operator solver (`--solver operator`) through the dead point: the same message,
  // word for word, at the same step; and the four-bar 1e4 m from the origin like the one at it.
  const Mechanism dead = hostile("dead_point.json");
  SimulationOptions o;
  o.solver = SolverChoice::Method2;
  Simulation reference(dead, o);
  const std::string expected = run(reference, 2.0, 1e-3);
  o.solver = SolverChoice::Operator;
  Simulation sim(dead, o);
  REQUIRE(std::string(sim.solver_name()) == "operator");
  CHECK_THAT(expected, Contains("'A0'") && Contains("dead point"));
  // Word for word but the size of the failed closure (past the dead point the Newton iterations
  // of the projection diverge, so their last error depends on round-off: 0.1229 both ways).
  const std::regex closure("loop error [0-9.e+-]+");
  CHECK(std::regex_replace(run(sim, 2.0, 1e-3), closure, "") ==
        std::regex_replace(expected, closure, ""));
  CHECK(sim.time() == reference.time());

  const Mechanism near = hostile("fourbar_origin.json"), far = hostile("fourbar_far.json");
  Simulation a(near, o), b(far, o);
  REQUIRE(run(a, 1.0, 1e-3).empty());
  REQUIRE(run(b, 1.0, 1e-3).empty());
  for (std::size_t j = 0; j < a.joint_states().size(); ++j) {
    INFO("joint " << j);
    CHECK(std::abs(a.joint_states()[j].q[0] - b.joint_states()[j].q[0]) <= 1e-9);
    CHECK(std::abs(a.joint_states()[j].qd[0] - b.joint_states()[j].qd[0]) <= 1e-7);
  }
}
