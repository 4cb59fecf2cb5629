// Coulomb friction against a disc cam (contract-additions-2 §2, issue 16): the slide row along the
// profile against finite differences on a turning, moving cam under a free follower; and a roller
// free to spin, pressed by its weight onto a round cam turning at constant speed, which slips
// until it rolls, at t* = I R ω / (μ N r²), with the energy that slipping dissipated in closed
// form.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"

using namespace articula;

namespace {

// A cam body on a planar joint (turning and moving) and a follower on another, its roller's
// centre near the eccentric profile; friction μ = 0.4.
std::string cam_friction_moving_file() {
  return R"json({"format": "articula", "version": 1, "name": "cam slide", "gravity": [0, 0, 0],
    "bodies": [{"name": "cam", "mass": 1, "com": [0, 0, 0], "inertia": [0.001, 0.001, 0.001, 0, 0, 0]},
               {"name": "follower", "mass": 0.2, "com": [0, 0, 0], "inertia": [0.0001, 0.0001, 0.0001, 0, 0, 0]}],
    "joints": [
      {"name": "carry", "type": "planar", "parent": "ground", "child": "cam",
       "q0": [0.3, 0.02, -0.01], "qd0": [1.7, -0.4, 0.3]},
      {"name": "float", "type": "planar", "parent": "ground", "child": "follower",
       "q0": [-0.2, 0.035, 0.048], "qd0": [-2.1, 0.6, 0.9]}],
    "contacts": [{"name": "roller", "body": "follower", "point": [0.004, -0.003, 0], "radius": 0.012,
       "restitution": 0.0, "friction": 0.4,
       "surface": {"type": "cam", "body": "cam", "point": [0.001, 0.002, 0],
                   "profile": "0.01*cos(theta) + sqrt(0.0016 - 0.0001*sin(theta)^2)"}}]})json";
}

// The roller test's values: a round cam of radius R turning at ω under a roller of radius r and
// spin inertia I on a vertical guide, the carriage and roller together of mass m.
struct RollerOnDisc {
  double R = 0.05, r = 0.01, w = 2.0, I = 2e-4, mc = 0.5, mr = 0.1, mu = 0.3;
  double normal() const { return (mc + mr) * kG; }
  double stick_time() const { return I * R * w / (mu * normal() * r * r); }
  std::string file() const {
    std::ostringstream os;
    os.precision(17);
    os << R"({"format": "articula", "version": 1, "name": "roller on disc", "gravity": [0, -9.81, 0],
      "bodies": [{"name": "disc", "mass": 1, "com": [0, 0, 0], "inertia": [0.001, 0.001, 0.001, 0, 0, 0]},
                 {"name": "carriage", "mass": )"
       << mc << R"(, "com": [0, 0, 0], "inertia": [0.001, 0.001, 0.001, 0, 0, 0]},
                 {"name": "roller", "mass": )"
       << mr << R"(, "com": [0, 0, 0], "inertia": [0.0001, 0.0001, )" << I << R"(, 0, 0, 0]}],
      "joints": [
        {"name": "shaft", "type": "revolute", "parent": "ground", "child": "disc",
         "drive": {"type": "motion", "q": ")"
       << w << R"(*t"}},
        {"name": "guide", "type": "prismatic", "parent": "ground", "child": "carriage",
         "parent_frame": {"position": [0, 0, 0], "quaternion": [0.7071067811865476, -0.7071067811865475, 0, 0]},
         "q0": [)"
       << R + r << R"(]},
        {"name": "axle", "type": "revolute", "parent": "carriage", "child": "roller",
         "parent_frame": {"position": [0, 0, 0], "quaternion": [0.7071067811865476, 0.7071067811865475, 0, 0]}}],
      "contacts": [{"name": "roller", "body": "roller", "point": [0, 0, 0], "radius": )"
       << r << R"(, "restitution": 0.0, "friction": )" << mu << R"(,
         "surface": {"type": "cam", "body": "disc", "point": [0, 0, 0], "profile": ")"
       << R << R"("}}]})";
    return os.str();
  }
};

}  // namespace

TEST_CASE("cam slide row: rate J v and κ against finite differences on a turning, moving cam",
          "[friction][contacts][cam]") {
  const Mechanism mech = prepare(parse_project(cam_friction_moving_file()).spec);
  REQUIRE(mech.planar);
  const std::vector<Unilateral> items = bind_unilaterals(mech);
  REQUIRE(items.size() == 2);  // the contact and its one slide, along the profile
  REQUIRE((items[1].slide() && items[1].primary() && items[1].cam));
  const Model& model = mech.model();
  Data data(model);
  const VecX v = mech.qd0;
  auto rate = [&](double t, GapState& g, Eigen::RowVectorXd& J) {
    VecX q = mech.q0;
    integrate_in_place(model, q, v, t);  // constant v: q̈ = 0, so ẇ = κ
    forward_kinematics_bias(model, data, q, v);
    unilateral_gap(mech, data, items[1], q, &v, g, J);
    return g.rate;
  };
  GapState g;
  Eigen::RowVectorXd J(model.nv);
  rate(0.0, g, J);
  CHECK(std::abs(J.dot(v) - g.rate) < 1e-14);
  CHECK(std::abs(g.rate) > 0.01);  // m/s: a real sliding motion, not a degenerate one
  const double kappa = g.bias, h = 1e-5;
  GapState gp, gm;
  const double fd = (rate(h, gp, J) - rate(-h, gm, J)) / (2 * h);
  CHECK(std::abs(fd - kappa) < 1e-7 * (1 + std::abs(kappa)));  // O(h²) difference error
  // The tangent is the profile's at the touch, unit, normal to the contact normal, in the plane.
  forward_kinematics(model, data, mech.q0);
  Vec3 c, n;
  contact_frame(data, items[0], c, n);
  const Vec3 t = slide_tangent(data, items[1]);
  CHECK(std::abs(t.norm() - 1) < 1e-15);
  CHECK(std::abs(t.dot(n)) < 1e-15);
  CHECK(std::abs(t.z()) < 1e-15);
}

TEST_CASE("a roller pressed onto a turning round cam slips until it rolls at t* = I R ω / (μ N r²)",
          "[friction][contacts][cam]") {
  const RollerOnDisc d;
  const Mechanism mech = prepare(parse_project(d.file()).spec);
  REQUIRE(mech.planar);
  Simulation sim(mech);
  std::vector<Simulation::ContactEvent> events;
  while (sim.time() < 0.3) {
    sim.step(1e-3, Integrator::RK4);
    for (const auto& e : sim.take_events()) events.push_back(e);
  }
  REQUIRE(events.size() == 1);  // the stick, and nothing after: rolling needs no friction force
  CHECK(events[0].kind == "stick");
  CHECK(std::abs(events[0].t - d.stick_time()) < 1e-9);  // s; t* = 0.1133 s
  const int axle = mech.compiled.v_index(2);
  // Rolling: r ω_roller = -R ω (the touching points move together), 1e-9 relative.
  CHECK(std::abs(sim.qd()[axle] + d.R * d.w / d.r) < 1e-9 * d.R * d.w / d.r);
  CHECK(std::abs(sim.q()[mech.compiled.q_index(1)] - (d.R + d.r)) < 1e-12);  // m: on the cam
  sim.evaluate();
  // The slip speed falls linearly from R ω to 0: μ N R ω t* / 2 dissipated, which is the spin's
  // kinetic energy ½ I (R ω / r)²; the drive put in twice that (μ N R ω t*), 1e-9 relative.
  const double spin = 0.5 * d.I * std::pow(d.R * d.w / d.r, 2);
  CHECK(std::abs(sim.energy().dissipated - spin) < 1e-9 * spin);
  CHECK(std::abs(sim.energy().work - 2 * spin) < 1e-9 * spin);
  CHECK(std::abs(sim.energy().residual) < 1e-10 * spin);  // J
}
