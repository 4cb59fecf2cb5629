// Coulomb friction in a slot (contract-additions-2 §2: a slot contact with "friction"): the pin
// presses one wall, with friction μ |λ_n| at its touching point there. Checked against closed
// forms (a round pin in an inclined slot rolls down it iff tan θ <= 3 μ, else slides with
// g (sin θ - μ cos θ) while friction spins it) and against an independent integration of a bead
// in the slot of a rod swung back and forth, whose lateral force changes sign, so that the pin
// goes over from one wall to the other while it slides; the energy balance with the friction
// dissipation; the refusal outside the slot's plane.
#include <cmath>
#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/event_runs.hpp"
#include "tests/support/matchers.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {

using test::isotropic_body;
using test::joint_between;

ContactSpec slot_contact(const std::string& body, double r, const std::string& surface,
                         const Vec3& mouth, const Vec3& way_in, double length, double mu) {
  ContactSpec c;
  c.name = "S";
  c.body = body;
  c.radius = r;
  c.surface_type = "slot";
  c.surface_body = surface;
  c.surface_point = mouth;
  c.slot_direction = way_in;
  c.slot_length = length;
  c.friction = mu;
  return c;
}

// A round pin (a disc, I = m r²/2, on a planar joint: q = (φ, x, y)) at rest at the origin in a
// ground slot running down at θ below +x, its mouth 0.5 m up the slope.
struct InclinedSlot {
  double m = 0.3, r = 0.1, theta = 0.3;
  Vec3 down() const { return {std::cos(theta), -std::sin(theta), 0}; }
  MechanismSpec spec(double mu) const {
    MechanismSpec s;
    s.name = "inclined slot";
    s.gravity = Vec3(0, -kG, 0);
    s.bodies.push_back(isotropic_body("pin", m, 0.5 * m * r * r));
    s.joints.push_back(joint_between("free", Joint::planar(), "ground", "pin", {0, 0, 0}));
    s.contacts.push_back(slot_contact("pin", r, "ground", -0.5 * down(), down(), 3.0, mu));
    return s;
  }
};

int slot_test_item(const UnilateralState& u, Unilateral::Kind kind) {
  for (int k = 0; k < static_cast<int>(u.items.size()); ++k)
    if (u.items[k].kind == kind) return k;
  return -1;
}

// The rod swings as θ(t) = ω0 t + A sin Ω t about the origin (a motion drive); its slot runs in
// from the mouth at x = R (rod frame) towards the pivot. The bead (a heavy wheel, its pin of
// radius r) starts s0 from the pivot moving out at ṡ0, without spin.
struct SwungRod {
  double m = 0.2, I = 0.01, r = 0.01, mu = 0.3, R = 1.0;
  double w0 = 2.0, A = 0.5, W = 8.0, s0 = 0.05, sd0 = 0.1;
  Eigen::Vector3d theta(double t) const {  // θ, θ̇, θ̈
    return {w0 * t + A * std::sin(W * t), w0 + A * W * std::cos(W * t),
            -A * W * W * std::sin(W * t)};
  }
  MechanismSpec spec() const {
    MechanismSpec s;
    s.name = "swung rod";
    s.gravity = Vec3::Zero();
    s.bodies = {isotropic_body("rod", 1.0, 0.1), isotropic_body("bead", m, I)};
    JointSpec rod = joint_between("swing", Joint::revolute(), "ground", "rod", {0.0});
    std::ostringstream law;
    law.precision(17);
    law << w0 << "*t + " << A << "*sin(" << W << "*t)";
    rod.drive = DriveSpec{DriveSpec::Kind::Motion, law.str()};
    s.joints.push_back(rod);
    s.joints.push_back(joint_between("free", Joint::planar(), "ground", "bead", {0, s0, 0},
                                     {0, sd0, s0 * theta(0)[1]}));
    s.contacts.push_back(
        slot_contact("bead", r, "rod", Vec3(R, 0, 0), -Vec3::UnitX(), R - 0.02, mu));
    return s;
  }
  // The reference: in the rod's frame, the slot's force on the bead λ = -m (2 ṡ θ̇ + s θ̈) along
  // n = -e_θ presses the wall at c + σ r e_θ (σ = sign λ); there the bead slips out at
  // u = ṡ - σ r (φ̇ - θ̇), and friction -μ |λ| sign u along e_r drives s̈ = s θ̇² + F/m and the
  // spin I φ̈ = -σ r F. State (s, ṡ, φ, φ̇); u must not reach 0 (no sticking: checked).
  Eigen::Vector4d rate(double t, const Eigen::Vector4d& y, double* lambda, double* u) const {
    const Eigen::Vector3d th = theta(t);
    const double lam = -m * (2 * y[1] * th[1] + y[0] * th[2]), sigma = lam >= 0 ? 1.0 : -1.0;
    const double slip = y[1] - sigma * r * (y[3] - th[1]);
    const double F = -mu * std::abs(lam) * (slip > 0 ? 1.0 : -1.0);
    if (lambda) *lambda = lam;
    if (u) *u = slip;
    return {y[1], y[0] * th[1] * th[1] + F / m, y[3], -sigma * r * F / I};
  }
};

}  // namespace

TEST_CASE("a pin in an inclined slot rolls iff tan θ <= 3 μ, else slides and spins (closed forms)",
          "[slot][friction][contacts]") {
  const InclinedSlot p;
  // The planar joint's translation is in the pin's turning frame: the centre is read from the
  // kinematics, and the steps are short for the pin's spin (ω h <= 0.003).
  const double T = 0.5, c = std::cos(p.theta), sn = std::sin(p.theta);
  for (const double mu : {0.25, 0.05}) {  // tan θ = 0.309: rolls, slides
    INFO("mu = " << mu);
    const Mechanism mech = prepare(p.spec(mu));
    Simulation sim(mech);
    const auto events = test::run_collecting_events(sim, T, 2.5e-4);
    sim.evaluate();
    const UnilateralState& u = sim.unilaterals();
    const int n = slot_test_item(u, Unilateral::Kind::Slot), t = n + 1;
    REQUIRE(u.items[t].slide());
    // Gravity presses the pin on the lower wall: the slot's force is along n = ẑ × down, upwards.
    CHECK(std::abs(u.force[n] - p.m * kG * c) < 1e-10);
    CHECK(u.items[t].side == 1);
    Data data(mech.model());
    forward_kinematics(mech.model(), data, sim.q());
    const double down = data.X0[mech.compiled.model_body[0]].r.dot(p.down());
    const double spin = -sim.q()[0];  // rolling down on the +n wall turns it clockwise
    if (std::tan(p.theta) <= 3 * mu) {
      const double a = 2.0 / 3.0 * kG * sn;  // a disc rolling: g sin θ / (1 + I / (m r²))
      CHECK(std::abs(down - 0.5 * a * T * T) < 1e-11);  // RK4: exact for t²
      CHECK(std::abs(spin - down / p.r) < 1e-9);
      CHECK(std::abs(std::abs(u.force[t]) - p.m * kG * sn / 3) < 1e-10);  // the stuck force
    } else {
      const double a = kG * (sn - mu * c), alpha = 2 * mu * kG * c / p.r;  // r μ m g cos θ / I
      CHECK(std::abs(down - 0.5 * a * T * T) < 1e-11);
      CHECK(std::abs(spin - 0.5 * alpha * T * T) < 1e-8);
      CHECK(std::abs(std::abs(u.force[t]) - mu * p.m * kG * c) < 1e-10);
    }
    CHECK(events.empty());  // rolling or sliding from the start, to the end
    const Energy& e = sim.energy();
    CHECK(std::abs(e.residual) < 1e-10 * (1.0 + p.m * kG * down));
  }
}

TEST_CASE(
    "a bead in the slot of a swung rod goes from wall to wall while it slides: against an "
    "independent integration",
    "[slot][friction][contacts]") {
  const SwungRod b;
  const Mechanism mech = prepare(b.spec());
  Simulation sim(mech);
  // At 0.5 ms: the energy residual falls as RK4's error (5.1e-9, 3.2e-10, 2.0e-11 J at 1, 0.5,
  // 0.25 ms), the trajectory is then within the reference's own error.
  const double T = 1.0, h = 5e-4;
  // The reference by RK4 at 2e-5 s (its kinks at λ = 0 cost O(h²) there: ~1e-10).
  Eigen::Vector4d y(b.s0, b.sd0, 0.0, 0.0);
  const double hr = 2e-5;
  int flips = 0;
  double umin = 1e9, lam_prev = 0.0;
  for (int i = 0; i < std::lround(T / hr); ++i) {
    const double t = i * hr;
    double lam = 0.0, u = 0.0;
    const Eigen::Vector4d k1 = b.rate(t, y, &lam, &u);
    if (i > 0 && (lam >= 0) != (lam_prev >= 0)) ++flips;
    lam_prev = lam, umin = std::min(umin, std::abs(u));
    const Eigen::Vector4d k2 = b.rate(t + hr / 2, y + hr / 2 * k1, nullptr, nullptr);
    const Eigen::Vector4d k3 = b.rate(t + hr / 2, y + hr / 2 * k2, nullptr, nullptr);
    const Eigen::Vector4d k4 = b.rate(t + hr, y + hr * k3, nullptr, nullptr);
    y += hr / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  REQUIRE(flips >= 3);   // the pin goes over to the other wall three times
  REQUIRE(umin > 1e-2);  // and never sticks
  const auto events = test::run_collecting_events(sim, T, h);
  CHECK(events.empty());  // going over to the other wall is not a contact event
  // The bead's distance from the pivot and its spin (planar joint q = (φ, x, y)).
  const double s = std::hypot(sim.q()[2], sim.q()[3]);
  CHECK(std::abs(s - y[0]) < 1e-8);
  CHECK(std::abs(sim.q()[1] - y[2]) < 1e-8);
  sim.evaluate();
  const Energy& e = sim.energy();
  CHECK(e.dissipated > 0.05 * std::abs(e.work));  // friction took a part of the drive's work
  CHECK(std::abs(e.residual) < 1e-9 * std::abs(e.work));
}

TEST_CASE("friction in a slot outside the plane is refused by name", "[slot][friction][contacts]") {
  const InclinedSlot p;
  MechanismSpec s = p.spec(0.2);
  s.joints[0].joint = Joint::free();  // the pin may leave the slot's plane
  s.joints[0].q0 = std::vector<double>{0, 0, 0, 1, 0, 0, 0};
  const Mechanism mech = prepare(s);
  CHECK_THROWS_WITH(Simulation(mech), Catch::Contains("'S'") && Catch::Contains("planar"));
}
