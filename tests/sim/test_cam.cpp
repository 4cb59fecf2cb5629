// Disc cams (contract-additions-2 §2, surface type "cam") against closed forms: the profile's
// nearest point, normal and curvature on a circle; the periodic spline through its knots; an
// eccentric-circle cam turning at constant speed under a spring-loaded roller follower, whose
// lift and contact force follow y(φ) = e sin φ + √((R+r)² - e² cos² φ) below the critical speed,
// and which lifts off at the instant the spring no longer holds it above; the file form.
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/io/project.hpp"
#include "core/sim/contact/cam_profile.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {

// The cam: a disc of radius R whose centre is e off the axis, as ρ(θ) about the axis.
struct Cam {
  double R = 0.04, e = 0.01, r = 0.01;  // disc, eccentricity, roller
  double m = 0.2, k = 200.0,
         rest = 0.0;  // follower mass, spring rate and free length (pushes down)
  std::string profile() const {
    return std::to_string(e) + "*cos(theta) + sqrt(" + std::to_string(R * R) + " - " +
           std::to_string(e * e) + "*sin(theta)^2)";
  }
  // The follower's height (its roller centre on the y axis) at cam angle φ, and d/dφ, d²/dφ².
  double y(double p) const { return e * std::sin(p) + s(p); }
  double s(double p) const {
    return std::sqrt((R + r) * (R + r) - e * e * std::cos(p) * std::cos(p));
  }
  double dy(double p) const { return e * std::cos(p) + e * e * std::cos(p) * std::sin(p) / s(p); }
  double ddy(double p) const {
    const double c = std::cos(p), sn = std::sin(p), S = s(p);
    return -e * sn + e * e * (c * c - sn * sn) / S - std::pow(e, 4) * c * c * sn * sn / (S * S * S);
  }
  // The contact force that keeps the follower on the cam turning at ω (N, along the normal).
  double force(double p, double w) const {
    const double need = m * w * w * ddy(p) + m * kG + k * (y(p) - rest);
    return need * (R + r) / (y(p) - e * std::sin(p));
  }
};

std::string cam_file(const Cam& c, double w, double phi0) {
  std::ostringstream os;
  os.precision(17);
  os << R"({"format": "articula", "version": 1, "name": "cam", "gravity": [0, -9.81, 0],
    "bodies": [{"name": "cam", "mass": 1, "com": [0, 0, 0], "inertia": [0.001, 0.001, 0.001, 0, 0, 0]},
               {"name": "follower", "mass": )"
     << c.m << R"(, "com": [0, 0, 0], "inertia": [0.0001, 0.0001, 0.0001, 0, 0, 0]}],
    "joints": [
      {"name": "shaft", "type": "revolute", "parent": "ground", "child": "cam",
       "drive": {"type": "motion", "q": ")"
     << phi0 << " + " << w << R"(*t"}},
      {"name": "guide", "type": "prismatic", "parent": "ground", "child": "follower",
       "parent_frame": {"position": [0, 0, 0], "quaternion": [0.7071067811865476, -0.7071067811865475, 0, 0]},
       "q0": [)"
     << c.y(phi0) << "], \"qd0\": [" << w * c.dy(phi0) << R"(],
       "spring": {"stiffness": )"
     << c.k << ", \"rest\": " << c.rest << R"(}}],
    "contacts": [{"name": "roller", "body": "follower", "point": [0, 0, 0], "radius": )"
     << c.r << R"(, "restitution": 0.0,
       "surface": {"type": "cam", "body": "cam", "point": [0, 0, 0], "profile": ")"
     << c.profile() << R"("}}]})";
  return os.str();
}
}  // namespace

TEST_CASE("cam profile: nearest point, normal and curvature of a circle; spline through knots",
          "[cam][contacts]") {
  const CamProfile circle = CamProfile::from_json("0.05 + 0*theta", "/p");
  for (const double a : {0.3, 2.0, -2.5}) {
    const Eigen::Vector2d c = 0.08 * Eigen::Vector2d(std::cos(a), std::sin(a));
    const double th = circle.nearest(c);
    CHECK(std::abs(std::remainder(th - a, 2 * kPi)) < 1e-12);
    CHECK(std::abs(circle.curvature(th) - 1 / 0.05) < 1e-9);  // κ = 1/R
    const CamProfile::Point P = circle.at(th);
    CHECK((P.p - 0.05 * c.normalized()).norm() < 1e-15);
  }
  // The eccentric circle: the nearest point to any outside point lies on the line to the disc's
  // centre (e, 0), and the curvature is 1/R all round.
  const Cam cam;
  const CamProfile ecc = CamProfile::from_json(cam.profile(), "/p");
  const Eigen::Vector2d centre(cam.e, 0);
  for (const double a : {0.0, 1.0, 2.5, 4.0}) {
    const Eigen::Vector2d c = centre + 0.07 * Eigen::Vector2d(std::cos(a), std::sin(a));
    const CamProfile::Point P = ecc.at(ecc.nearest(c));
    CHECK((P.p - (centre + cam.R * (c - centre).normalized())).norm() < 1e-12);
    CHECK(std::abs(ecc.curvature(ecc.nearest(c)) - 1 / cam.R) < 1e-8);
  }
  CHECK(std::isinf(ecc.min_concave_radius()));
  // A spline through 64 radii of the eccentric circle: exact at the knots, within the O(h⁴)
  // interpolation error between them.
  nlohmann::json radii = nlohmann::json::array();
  for (int i = 0; i < 64; ++i) radii.push_back(ecc.radius(2 * kPi * i / 64).r);
  const CamProfile spline = CamProfile::from_json(radii, "/p");
  double knot = 0, mid = 0;
  for (int i = 0; i < 64; ++i) {
    knot = std::max(knot, std::abs(spline.radius(2 * kPi * i / 64).r - radii[i].get<double>()));
    const double t = 2 * kPi * (i + 0.5) / 64;
    mid = std::max(mid, std::abs(spline.radius(t).r - ecc.radius(t).r));
  }
  CHECK(knot < 1e-15);
  CHECK(mid < 1e-7);
}

// Roller centres 1 mm out along the normal at 300 points of one tooth, ramp and face: the nearest
// point against the distance minimised over samples 3e-5 rad apart within ±0.5 rad (most of a
// tooth each way) and refined by golden-section search. Newton from the polar angle with 0.5 rad
// steps used to land on the neighbouring tooth near the face (a gap of 1.2e-4 m where the roller
// touched: issue 16's ratchet).
TEST_CASE("cam profile: the nearest point on a ten-tooth ratchet, against brute force",
          "[cam][contacts]") {
  const CamProfile saw = CamProfile::from_json(
      "0.054 + 0.008/pi*atan2(0.9*sin(10*theta), 1 - 0.9*cos(10*theta))", "/p");
  auto dist = [&](const Eigen::Vector2d& c, double t) { return (saw.at(t).p - c).norm(); };
  const double g = 0.618033988749895;
  double worst = 0;
  for (int k = 0; k < 300; ++k) {
    const double th = 0.1 + 2 * kPi / 10 * k / 300;
    const CamProfile::Point P = saw.at(th);
    const Eigen::Vector2d t = P.dp.normalized(), n(t.y(), -t.x());
    const Eigen::Vector2d c = P.p + 0.001 * n;
    double best = th, dmin = dist(c, th);
    for (int i = -15000; i <= 15000; ++i)
      if (const double d = dist(c, th + i * 3.3e-5); d < dmin) dmin = d, best = th + i * 3.3e-5;
    double a = best - 3.3e-5, b = best + 3.3e-5;
    for (int it = 0; it < 60; ++it) {
      const double m1 = b - g * (b - a), m2 = a + g * (b - a);
      if (dist(c, m1) < dist(c, m2))
        b = m2;
      else
        a = m1;
    }
    worst = std::max(worst, dist(c, saw.nearest(c)) - dist(c, 0.5 * (a + b)));
  }
  CHECK(worst < 1e-12);  // m: the same minimum, to rounding
  // The roller centres of the jam in the wheel's frame (from ratchet_jam.json's run at t = 0.9160,
  // 0.9162 and 0.9164 s) and their nearest distances by the same search.
  const Eigen::Vector2d jam[] = {{-0.015306701047083515, 0.05102940596844669},
                                 {-0.015333899959369327, 0.051071227334173026},
                                 {-0.015360367643898703, 0.051112538249298616}};
  for (const Eigen::Vector2d& c : jam) {
    double dmin = 1e9;
    for (int i = -15000; i <= 15000; ++i) dmin = std::min(dmin, dist(c, 1.88 + i * 3.3e-5));
    CHECK(dist(c, saw.nearest(c)) - dmin < 1e-10);  // m (samples only, no refinement)
  }
}

TEST_CASE(
    "a roller follower on an eccentric cam: lift and contact force in closed form below the "
    "critical speed",
    "[cam][contacts]") {
  const Cam cam;
  const double w = 20.0;  // rad/s, below ω_c ≈ 67 rad/s for these values
  const LoadResult r = parse_project(cam_file(cam, w, 0.0));
  const Mechanism mech = prepare(r.spec);
  Simulation sim(mech);
  double worst_y = 0, worst_f = 0;
  for (int i = 1; i <= 700; ++i) {  // 0.7 s: more than two turns
    sim.step(1e-3, Integrator::RK4);
    CHECK(sim.take_events().empty());
    if (i % 50) continue;
    sim.evaluate();
    const double phi = w * sim.time();
    worst_y = std::max(worst_y, std::abs(sim.q()[1] - cam.y(phi)));
    worst_f = std::max(worst_f, std::abs(sim.unilaterals().force[0] - cam.force(phi, w)));
  }
  CHECK(worst_y < 1e-12);  // held on the profile by the contact row and the projection
  CHECK(worst_f < 1e-6 * cam.force(0.0, w));
}

TEST_CASE("a roller follower lifts off where m ω² y'' + m g + k (y - y0) reaches 0",
          "[cam][contacts]") {
  const Cam cam;
  const double w = 90.0, phi0 = kPi;  // above ω_c; the cam starts with its low side up
  const LoadResult r = parse_project(cam_file(cam, w, phi0));
  const Mechanism mech = prepare(r.spec);
  Simulation sim(mech);
  std::vector<Simulation::ContactEvent> events;
  while (events.empty() && sim.time() < 0.2) {
    sim.step(1e-4, Integrator::RK4);
    events = sim.take_events();
  }
  REQUIRE(!events.empty());
  CHECK(events[0].kind == "lift_off");
  // The closed form's first zero of the needed force after φ0, by bisection.
  auto need = [&](double t) { return cam.force(phi0 + w * t, w); };
  double lo = 0, hi = 1e-4;
  while (need(hi) > 0) lo = hi, hi += 1e-4;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i)
    (need(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  CHECK(std::abs(events[0].t - lo) < 1e-9);
}

TEST_CASE("cams in the file: round trip and refusals by JSON pointer", "[cam][contacts]") {
  const Cam cam;
  const LoadResult r = parse_project(cam_file(cam, 10.0, 0.0));
  REQUIRE(r.spec.contacts.size() == 1);
  CHECK(r.spec.contacts[0].surface_type == "cam");
  const LoadResult back = parse_project(to_text(r.spec));
  CHECK(back.spec.contacts == r.spec.contacts);
  auto refused = [&](const std::string& profile, const std::string& where) {
    nlohmann::json doc = nlohmann::json::parse(cam_file(cam, 10.0, 0.0));
    doc["contacts"][0]["surface"]["profile"] = nlohmann::json::parse(profile);
    try {
      parse_project(doc.dump());
      FAIL("accepted " << profile);
    } catch (const ProjectError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(where));
    }
  };
  refused(R"x("0.05 + sinn(theta)")x", "/contacts/0/surface/profile");
  refused(R"x("0.01 + 0.05*sin(theta)")x", "> 0 all round");
  refused(R"x("0.05 + 0.01*sin(theta/2)")x", "repeat every 2 pi");
  refused(R"([0.05, 0.06])", "at least 3 radii");
  refused(R"([0.05, "x", 0.06])", "/contacts/0/surface/profile/1");
  // Friction on a cam is simulated where the mechanism moves in the cam's plane (one slide along
  // the profile: test_cam_friction); off it the simulation refuses it, naming the contact.
  nlohmann::json doc = nlohmann::json::parse(cam_file(cam, 10.0, 0.0));
  doc["contacts"][0]["friction"] = 0.2;
  const Mechanism in_plane = prepare(parse_project(doc.dump()).spec);
  Simulation planar(in_plane);
  planar.step(1e-3, Integrator::RK4);
  CHECK(planar.time() > 0);
  doc["joints"][0]["parent_frame"] = {{"position", {0, 0, 0}},
                                      {"quaternion", {std::cos(0.15), std::sin(0.15), 0, 0}}};
  const Mechanism tilted = prepare(parse_project(doc.dump()).spec);
  CHECK_THROWS_WITH(Simulation(tilted), Catch::Contains("'roller'") && Catch::Contains("planar"));
}
