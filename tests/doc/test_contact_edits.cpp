// Contact edits in the document: a ground line under a ball and a cam under a roller follower,
// each checked against the simulation (the ball's first impact at sqrt(2 h / g), the cam touching
// its roller with gap 0 at t = 0); property changes, undo/redo exact, save and reload unchanged,
// and bad values refused with the field and the problem named.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "core/doc/contact_edits.hpp"
#include "core/io/project.hpp"
#include "core/sim/contact/cam_profile.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/spec_builders.hpp"

using namespace articula;

namespace {

// A body of mass m on a vertical slider from the ground origin (q = height of its origin).
MechanismSpec on_vertical_slider(const std::string& name, double q0) {
  return test::one_body_on(name, test::isotropic_body(name, 0.1, 1e-4),
                           test::vertical_slider("lift", name, q0), kG);
}

// The follower above plus a cam disc on a pivot at the origin (q = 0: cam axes = world axes).
MechanismSpec cam_and_follower(double lift) {
  MechanismSpec s = on_vertical_slider("follower", lift);
  BodySpec cam = s.bodies[0];
  cam.name = "cam";
  s.bodies.push_back(cam);
  s.joints.push_back(test::joint_between("shaft", Joint::revolute(), "ground", "cam", {0.0}));
  return s;
}

ContactSpec floor_under_ball(const MechanismSpec& s, double r) {
  // The line drawn right to left: its left normal points down, the ball above turns it up.
  return ground_line_contact(s, 0, Vec3::Zero(), r, Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0));
}

}  // namespace

TEST_CASE("a ground line under a ball: first impact at sqrt(2h/g), undo and redo exact",
          "[doc][contacts]") {
  const double r = 0.05, h = 0.95;
  EditableMechanism doc(on_vertical_slider("ball", h + r));
  const MechanismSpec before = doc.spec();
  const Edit e = add_contact(doc, floor_under_ball(doc.spec(), r));
  CHECK(e.label == "Add contact C1");
  CHECK(e.changes.size() == 1);  // one undo step
  doc.apply(e);
  REQUIRE(doc.spec().contacts.size() == 1);
  const ContactSpec& c = doc.spec().contacts[0];
  CHECK(c.surface_normal == Vec3(0, 1, 0));  // exact: built from (0, 2, 0) / 2
  CHECK(c.surface_body == "ground");
  // Saved and reloaded, the contact is the same.
  CHECK(parse_project(to_text(doc.spec())).spec.contacts == doc.spec().contacts);

  const Mechanism mech = prepare(doc.spec());
  Simulation sim(mech);
  sim.evaluate();
  CHECK(std::abs(sim.gaps()[0] - h) < 1e-12);  // centre height minus radius, rounding only
  std::vector<Simulation::ContactEvent> events;
  for (int i = 0; i < 500 && events.empty(); ++i) {
    sim.step(1e-3, Integrator::RK4);
    events = sim.take_events();
  }
  REQUIRE(!events.empty());
  // Free fall to the line: events are located to 1e-12 s, RK4 is exact on a parabola.
  CHECK(std::abs(events[0].t - std::sqrt(2 * h / kG)) < 1e-9);
  CHECK(events[0].name == "C1");

  doc.revert(e);
  CHECK(doc.spec() == before);
  doc.apply(e);  // redo keeps the id the first apply gave
  CHECK(doc.contact_index(e.changes[0].id) == 0);
}

TEST_CASE("contact properties change in one step and undo exactly", "[doc][contacts]") {
  EditableMechanism doc(on_vertical_slider("ball", 1.0));
  doc.apply(add_contact(doc, floor_under_ball(doc.spec(), 0.05)));
  const MechanismSpec before = doc.spec();
  ContactSpec c = doc.spec().contacts[0];
  c.radius = 0.1, c.restitution = 0.8, c.friction = 0.4;
  const Edit e = set_contact(doc, 0, c);
  CHECK(e.label == "Edit C1");
  doc.apply(e);
  CHECK(doc.spec().contacts[0] == c);
  doc.revert(e);
  CHECK(doc.spec() == before);
  c.name = "floor";
  CHECK(set_contact(doc, 0, c).label == "Rename C1");
  const Edit gone = remove_contact(doc, 0);
  doc.apply(gone);
  CHECK(doc.spec().contacts.empty());
  doc.revert(gone);
  CHECK(doc.spec() == before);
}

TEST_CASE("bad contacts are refused with the field and the problem", "[doc][contacts]") {
  EditableMechanism doc(on_vertical_slider("ball", 1.0));
  const ContactSpec good = floor_under_ball(doc.spec(), 0.05);
  auto refused = [&](ContactSpec c, const std::string& start) {
    INFO(start);
    CHECK_THROWS_WITH(add_contact(doc, c), Catch::StartsWith(start));
    CHECK(check_contact(doc.spec(), -1, c).rfind(start, 0) == 0);
  };
  ContactSpec c = good;
  c.body = "wheel";
  refused(c, "body: unknown body 'wheel'");
  c = good, c.surface_body = "ball";
  refused(c, "surface/body: the sphere and the plane are on the same body 'ball'");
  c = good, c.restitution = 1.5;
  refused(c, "restitution: restitution 1.5 is outside [0, 1]");
  c = good, c.radius = -0.01;
  refused(c, "radius:");
  c = good, c.friction = std::nan("");
  refused(c, "friction:");
  c = good, c.surface_normal = Vec3::Zero();
  refused(c, "surface/normal: the plane's normal is zero");
  c = good, c.surface_type = "cam", c.surface_body = "ground", c.profile = "0.02 - theta^2";
  refused(c, "surface/profile");
  CHECK(check_contact(doc.spec(), -1, good).empty());
  doc.apply(add_contact(doc, good));
  c = good, c.name = "C1";
  refused(c, "name: duplicate contact name 'C1'");
  c.restitution = -0.1;
  const MechanismSpec kept = doc.spec();
  CHECK_THROWS_WITH(set_contact(doc, 0, c), Catch::StartsWith("restitution:"));
  CHECK(doc.spec() == kept);  // nothing applied
  CHECK_THROWS_WITH(ground_line_contact(doc.spec(), 0, Vec3::Zero(), 0, Vec3(1, 1, 0),
                                        Vec3(1, 1, 0), Vec3::Zero()),
                    "the ground line's two points coincide");
}

TEST_CASE("a cam tool's cam touches its roller: gap 0, rho(phi) = d - r", "[doc][contacts]") {
  const double lift = 0.05, roller = 0.01;
  EditableMechanism doc(cam_and_follower(lift));
  const Vec3 at(0, lift, 0);  // the roller's centre, in the cam's axes at q = 0
  const ContactSpec c = cam_contact(doc.spec(), 1, Vec3::Zero(), 0, Vec3::Zero(), roller, at);
  const CamProfile profile = CamProfile::from_json(c.profile, "profile");
  const double phi = std::numbers::pi / 2;
  // The eccentric circle's largest radius, toward the roller: d - r to rounding of the text.
  CHECK(std::abs(profile.radius(phi).r - (lift - roller)) < 1e-15);
  CHECK(std::abs(profile.radius(phi + std::numbers::pi).r - (lift - roller) / 2) < 1e-15);
  doc.apply(add_contact(doc, c));
  CHECK(parse_project(to_text(doc.spec())).spec.contacts == doc.spec().contacts);
  const Mechanism mech = prepare(doc.spec());
  Simulation sim(mech);
  sim.evaluate();
  CHECK(std::abs(sim.gaps()[0]) < 1e-12);  // touching, to rounding
  CHECK_THROWS_WITH(cam_contact(doc.spec(), 1, Vec3::Zero(), 0, Vec3::Zero(), 0.06, at),
                    Catch::StartsWith("the roller covers the cam's centre"));
}
