// Coulomb friction at contacts (contract-additions-2 §2, RBDA 11.8) against closed forms: the
// slide rows against finite differences on a ball over a moving plate; a block on an incline
// (sticks iff tan θ <= μ, else slides with g (sin θ - μ cos θ)); a block thrown up the incline
// (the stick instant v0 / (g (sin θ + μ cos θ)), then rest or sliding back); a ball thrown
// without spin (rolling from t = 2 v0 / (7 μ g) at 5/7 v0); the energy balance with the friction
// dissipation.
#include <cmath>
#include <numbers>

#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/event_runs.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {

using test::isotropic_body;
using test::joint_between;

ContactSpec contact(const std::string& body, double r, const std::string& surface,
                    const Vec3& normal, double mu) {
  ContactSpec c;
  c.name = "C";
  c.body = body;
  c.radius = r;
  c.surface_body = surface;
  c.surface_normal = normal;
  c.friction = mu;
  return c;
}

// A block (a point contact at its centre of mass, so no moment) on a planar joint over the
// incline through the origin rising at θ towards +x, thrown up the incline at v0.
MechanismSpec incline(double m, double theta, double mu, double v0) {
  MechanismSpec s;
  s.name = "incline";
  s.gravity = Vec3(0, -kG, 0);
  s.bodies.push_back(isotropic_body("block", m, 0.01));
  const Vec3 up(std::cos(theta), std::sin(theta), 0);
  s.joints.push_back(joint_between("slide", Joint::planar(), "ground", "block", {0, 0, 0},
                                   {0, v0 * up.x(), v0 * up.y()}));
  s.contacts.push_back(
      contact("block", 0.0, "ground", Vec3(-std::sin(theta), std::cos(theta), 0), mu));
  return s;
}

// Distance travelled up the incline (planar joint at θ_joint = 0: q = (θ, x, y)).
double along(const Simulation& sim, double theta) {
  return sim.q()[1] * std::cos(theta) + sim.q()[2] * std::sin(theta);
}

int item_of(const UnilateralState& u, Unilateral::Kind kind) {
  for (int k = 0; k < static_cast<int>(u.items.size()); ++k)
    if (u.items[k].kind == kind) return k;
  return -1;
}
}  // namespace

TEST_CASE("slide rows: rate J v and κ against finite differences on a ball over a moving plate",
          "[friction][contacts]") {
  MechanismSpec s;
  s.name = "plate";
  s.gravity = Vec3::Zero();
  s.bodies = {isotropic_body("arm", 1, 0.1), isotropic_body("plate", 1, 0.1),
              isotropic_body("ball", 1, 0.004)};
  s.joints.push_back(joint_between("turn", Joint::revolute(), "ground", "arm", {0.3}, {0.7}));
  s.joints.back().parent_frame.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3::UnitX()));
  s.joints.push_back(joint_between("push", Joint::prismatic(), "arm", "plate", {0.2}, {-0.5}));
  s.joints.back().parent_frame.position = Vec3(0.5, 0, 0);
  s.joints.push_back(joint_between("fly", Joint::free(), "ground", "ball",
                                   {0.4, 0.3, -0.2, 0.9, 0.1, -0.3, 0.3},
                                   {1.1, -0.4, 0.8, 0.3, -0.6, 0.5}));
  s.contacts.push_back(contact("ball", 0.1, "plate", Vec3(0.2, 1, -0.3).normalized(), 0.5));
  s.contacts.back().surface_point = Vec3(0.1, -0.2, 0.05);
  const Mechanism mech = prepare(s);
  const std::vector<Unilateral> items = bind_unilaterals(mech);
  REQUIRE(items.size() == 3);  // the contact and its two tangents
  REQUIRE((items[1].slide() && items[2].slide() && items[1].primary() && !items[2].primary()));
  const Model& model = mech.model();
  Data data(model);
  const VecX v = mech.qd0;
  auto rate = [&](const Unilateral& u, double t, GapState& g, Eigen::RowVectorXd& J) {
    VecX q = mech.q0;
    integrate_in_place(model, q, v, t);  // constant v: q̈ = 0, so φ̈ = κ
    forward_kinematics_bias(model, data, q, v);
    unilateral_gap(mech, data, u, q, &v, g, J);
    return g.rate;
  };
  const double h = 1e-5;
  for (int k = 0; k < 3; ++k) {
    GapState g;
    Eigen::RowVectorXd J(model.nv);
    rate(items[k], 0.0, g, J);
    CHECK(std::abs(J.dot(v) - g.rate) < 1e-14);
    const double kappa = g.bias;
    GapState gp, gm;
    const double fd = (rate(items[k], h, gp, J) - rate(items[k], -h, gm, J)) / (2 * h);
    INFO("item " << k);
    CHECK(std::abs(fd - kappa) < 1e-7 * (1 + std::abs(kappa)));  // O(h²) difference error
  }
  // The tangents are orthonormal to the normal, in the surface's frame.
  forward_kinematics(model, data, mech.q0);
  Vec3 c, n;
  contact_frame(data, items[0], c, n);
  const Vec3 t1 = slide_tangent(data, items[1]), t2 = slide_tangent(data, items[2]);
  CHECK(std::abs(t1.dot(n)) < 1e-15);
  CHECK(std::abs(t2.dot(n)) < 1e-15);
  CHECK(std::abs(t1.dot(t2)) < 1e-15);
}

TEST_CASE(
    "a block on an incline by contact friction sticks iff tan θ <= μ, else slides with "
    "g (sin θ - μ cos θ)",
    "[friction][contacts]") {
  const double m = 2.0, theta = 0.3, T = 1.0;
  for (const double mu : {0.4, 0.31, 0.2, 0.0}) {
    INFO("mu = " << mu);
    const Mechanism mech = prepare(incline(m, theta, mu, 0.0));
    Simulation sim(mech);
    test::run_collecting_events(sim, T, 1e-3);
    sim.evaluate();
    const UnilateralState& u = sim.unilaterals();
    const int n = item_of(u, Unilateral::Kind::Contact);
    CHECK(std::abs(u.force[n] - m * kG * std::cos(theta)) < 1e-10);  // λ_n = m g cos θ
    if (std::tan(theta) <= mu) {
      CHECK(std::abs(along(sim, theta)) < 1e-12);
      // Tangent ẑ × n points down the incline: the stuck force holds the block up it.
      CHECK(std::abs(u.force[n + 1] + m * kG * std::sin(theta)) < 1e-10);
    } else {
      const double a = kG * (std::sin(theta) - mu * std::cos(theta));
      CHECK(std::abs(along(sim, theta) + 0.5 * a * T * T) < 1e-11);  // RK4: exact for t²
      if (mu > 0) CHECK(std::abs(u.force[n + 1] + mu * m * kG * std::cos(theta)) < 1e-10);
    }
    CHECK(std::abs(sim.energy().residual) < 1e-9 * m * kG);
  }
}

TEST_CASE(
    "a block thrown up an incline stops at v0 / (g (sin θ + μ cos θ)), then rests or "
    "slides back",
    "[friction][contacts]") {
  const double m = 1.5, theta = 0.3, v0 = 2.0, T = 1.2;
  for (const double mu : {0.5, 0.1}) {
    INFO("mu = " << mu);
    const Mechanism mech = prepare(incline(m, theta, mu, v0));
    Simulation sim(mech);
    const auto events = test::run_collecting_events(sim, T, 1e-3);
    const double up = kG * (std::sin(theta) + mu * std::cos(theta));
    const double ts = v0 / up, top = 0.5 * v0 * ts;
    REQUIRE(!events.empty());
    CHECK(events[0].kind == "stick");
    CHECK(std::abs(events[0].t - ts) < 1e-9);  // located, not rounded to the 1 ms step
    if (std::tan(theta) <= mu) {
      CHECK(events.size() == 1);
      CHECK(std::abs(along(sim, theta) - top) < 1e-11);
    } else {
      REQUIRE(events.size() == 2);
      CHECK(events[1].kind == "slip");
      CHECK(std::abs(events[1].t - ts) < 1e-12);
      const double down = kG * (std::sin(theta) - mu * std::cos(theta));
      CHECK(std::abs(along(sim, theta) - (top - 0.5 * down * (T - ts) * (T - ts))) < 1e-9);
    }
    sim.evaluate();
    const double E0 = 0.5 * m * v0 * v0;  // the friction's dissipation balances the loss
    CHECK(std::abs(sim.energy().residual) < 1e-9 * E0);
    CHECK(std::abs(sim.energy().dissipated -
                   mu * m * kG * std::cos(theta) *
                       (top + (std::tan(theta) <= mu
                                   ? 0.0
                                   : 0.5 * (kG * (std::sin(theta) - mu * std::cos(theta))) *
                                         (T - ts) * (T - ts)))) < 1e-9 * E0);
  }
}

TEST_CASE("a ball thrown without spin rolls from t = 2 v0 / (7 μ g) at 5/7 v0 (3D friction)",
          "[friction][contacts]") {
  const double m = 0.5, r = 0.1, mu = 0.3, v0 = 3.0, T = 0.5, h = 2.5e-4;
  const double I = 0.4 * m * r * r;             // solid sphere
  const Vec3 dir = Vec3(1, 0, 1).normalized();  // oblique: both tangents slip
  MechanismSpec s;
  s.name = "ball";
  s.gravity = Vec3(0, -kG, 0);
  s.bodies.push_back(isotropic_body("ball", m, I));
  s.joints.push_back(joint_between("fly", Joint::free(), "ground", "ball", {0, r, 0, 1, 0, 0, 0},
                                   {0, 0, 0, v0 * dir.x(), 0, v0 * dir.z()}));
  s.contacts.push_back(contact("ball", r, "ground", Vec3::UnitY(), mu));
  const Mechanism mech = prepare(s);
  Simulation sim(mech);
  const auto events = test::run_collecting_events(sim, T, h);
  const double ts = 2 * v0 / (7 * mu * kG);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == "stick");
  CHECK(std::abs(events[0].t - ts) < 1e-9);
  const double xs = v0 * ts - 0.5 * mu * kG * ts * ts;
  const Vec3 x(sim.q()[0], sim.q()[1], sim.q()[2]);
  const Vec3 expect = Vec3(0, r, 0) + dir * (xs + 5.0 / 7.0 * v0 * (T - ts));
  CHECK((x - expect).norm() < 1e-9);  // RK4 at 0.25 ms on the spinning ball
  sim.evaluate();
  CHECK(std::abs(sim.energy().residual) < 1e-9 * 0.5 * m * v0 * v0);
  // Energy lost by sliding: the kinetic energy drops from ½ m v0² to ½ (m + I/r²) (5/7 v0)².
  const double lost = 0.5 * m * v0 * v0 - 0.5 * (m + I / (r * r)) * std::pow(5.0 / 7.0 * v0, 2);
  CHECK(std::abs(sim.energy().dissipated - lost) < 1e-9 * lost);
}

TEST_CASE("friction on a loop joint equals the same friction on a tree joint (another cut)",
          "[friction]") {
  // The passive four-bar swinging under gravity with Coulomb and viscous friction in joint B:
  // cut at B (B a loop joint) or, with the joints reordered, at A (B a tree joint).
  LoadResult r = load_project(test::sample_path("fourbar.json"));
  MechanismSpec s = r.spec;
  s.joints[0].drive.reset();
  for (JointSpec& j : s.joints)
    if (j.name == "B") j.friction = JointFrictionSpec{0.4, 0.05};
  MechanismSpec swapped = s;
  std::swap(swapped.joints[1], swapped.joints[2]);
  const Mechanism m1 = prepare(s), m2 = prepare(swapped);
  const int b1 = s.joint_index("B"), b2 = swapped.joint_index("B");
  REQUIRE(m1.compiled.joint_map[b1].loop != m2.compiled.joint_map[b2].loop);
  Simulation s1(m1), s2(m2);
  const auto e1 = test::run_collecting_events(s1, 3.0, 1e-3),
             e2 = test::run_collecting_events(s2, 3.0, 1e-3);
  REQUIRE(!e1.empty());
  REQUIRE(e1.size() == e2.size());
  for (std::size_t i = 0; i < e1.size(); ++i) {
    CHECK(e1[i].kind == e2[i].kind);
    CHECK(std::abs(e1[i].t - e2[i].t) < 1e-9);
  }
  s1.evaluate(), s2.evaluate();
  const int a1 = s.joint_index("A0"), a2 = swapped.joint_index("A0");
  CHECK(std::abs(s1.joint_states()[a1].q[0] - s2.joint_states()[a2].q[0]) < 1e-9);
  CHECK(std::abs(s1.energy().dissipated - s2.energy().dissipated) < 1e-9);
  CHECK(std::abs(s1.energy().residual) < 1e-9 * s1.energy().dissipated);
  CHECK(s1.loop_error() < 1e-12);
}
