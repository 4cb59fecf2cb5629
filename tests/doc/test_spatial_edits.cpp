// The 3D view's building edits (core/doc/spatial_edits): a link between two points in space
// with its round-bar mass, joints whose frames coincide at the point with z along the chosen
// axis, and the RSSR sample rebuilt from four points and two axes, whose rocker then follows the
// sample's (an independent file, written with its own frames) as the crank turns.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "core/doc/sketch_geometry.hpp"
#include "core/doc/spatial_edits.hpp"
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"

using namespace articula;

namespace {

// World pose of a joint's frame on one side (parent or child) as sketched.
Mat3 frame_world(const MechanismSpec& s, const JointSpec& j, bool parent) {
  const std::string& name = parent ? j.parent : j.child;
  const int b = s.body_index(name);
  const Mat3 R = b < 0 ? Mat3::Identity() : s.bodies[b].pose->orientation.toRotationMatrix();
  return R * (parent ? j.parent_frame : j.child_frame).orientation.toRotationMatrix();
}

struct Rssr {
  MechanismSpec sample = load_project(ARTICULA_SOURCE_DIR "/samples/rssr.json").spec;
  Vec3 A = Vec3::Zero(), B, C, D{0.08, 0, 0.15};
  Rssr() {
    B = to_world(sample, 0, Vec3(0.05, 0, 0));
    C = to_world(sample, 2, Vec3(0.08, 0, 0));
  }
  // crank A-B (revolute about z on ground), coupler B-C (ball on the crank), rocker D-C
  // (revolute about x on ground, ball on the coupler): the sample's joints, the crank driven.
  EditableMechanism build(double diameter = 0.01) const {
    EditableMechanism doc;
    doc.apply(add_spatial_link(doc, A, B, diameter,
                               SpatialJoint{-1, Joint::revolute(), Vec3::UnitZ()}, std::nullopt));
    doc.apply(
        add_spatial_link(doc, B, C, diameter, SpatialJoint{0, Joint::spherical()}, std::nullopt));
    doc.apply(add_spatial_link(doc, D, C, diameter,
                               SpatialJoint{-1, Joint::revolute(), Vec3::UnitX()},
                               SpatialJoint{1, Joint::spherical()}));
    return doc;
  }
};

}  // namespace

TEST_CASE("a spatial link: round bar mass, frame along the link, joint frames at the point",
          "[doc][spatial]") {
  EditableMechanism doc;
  const Vec3 a(0.1, 0.2, 0.3), b(0.4, -0.2, 0.3);  // 0.5 m apart
  const Vec3 axis(0, 1, 1);
  doc.apply(add_spatial_link(doc, a, b, 0.02, SpatialJoint{-1, Joint::universal(), axis, b - a},
                             std::nullopt));
  const MechanismSpec& s = doc.spec();
  REQUIRE(s.bodies.size() == 1);
  REQUIRE(s.joints.size() == 1);
  const BodySpec& link = s.bodies[0];
  // Aluminium 2700 kg/m^3 times π 0.01² m² times 0.5 m; the bar's own formula (link_inertia)
  // only to round-off.
  CHECK(link.mass == Approx(2700 * std::numbers::pi * 1e-4 * 0.5).epsilon(1e-12));
  CHECK((to_world(s, 0, link.com) - 0.5 * (a + b)).norm() < 1e-15);
  CHECK((to_world(s, 0, Vec3(0.5, 0, 0)) - b).norm() < 1e-15);
  const JointSpec& j = s.joints[0];
  CHECK(j.parent == "ground");
  CHECK(j.child == link.name);
  CHECK(j.name == "U1");
  // Both frames at a, the same orientation (q = 0 is the sketch), z along the axis, the second
  // axis (y) across the link.
  CHECK((to_world(s, -1, j.parent_frame.position) - a).norm() < 1e-15);
  CHECK((to_world(s, 0, j.child_frame.position) - a).norm() < 1e-15);
  const Mat3 P = frame_world(s, j, true), C = frame_world(s, j, false);
  CHECK((P - C).norm() < 1e-14);
  CHECK((P.col(2) - axis.normalized()).norm() < 1e-14);
  CHECK(std::abs(P.col(1).dot(b - a)) < 1e-14);
}

TEST_CASE("spatial edits refuse what makes no sense, naming it", "[doc][spatial]") {
  EditableMechanism doc;
  const Vec3 a = Vec3::Zero(), b(0.1, 0, 0);
  CHECK_THROWS_WITH(add_spatial_link(doc, a, a, 0.01, std::nullopt, std::nullopt),
                    "the ends of a link must be distinct");
  CHECK_THROWS_WITH(add_spatial_link(doc, a, b, -1, std::nullopt, std::nullopt),
                    Catch::Contains("link diameter"));
  CHECK_THROWS_WITH(
      add_spatial_link(doc, a, b, 0.01, SpatialJoint{-1, Joint::revolute(), Vec3::Zero()},
                       std::nullopt),
      Catch::Contains("joint axis"));
  doc.apply(add_spatial_link(doc, a, b, 0.01, std::nullopt, std::nullopt));
  CHECK_THROWS_WITH(add_spatial_joint(doc, SpatialJoint{0}, 0, a),
                    "a joint joins two different bodies");
  CHECK_THROWS_WITH(add_spatial_joint(doc, SpatialJoint{-1, Joint::planar()}, 0, a),
                    Catch::Contains("only revolute"));
  CHECK_THROWS_WITH(add_spatial_joint(doc, SpatialJoint{-1}, 3, a), "joint: no such body");
  CHECK(doc.spec().joints.empty());
}

TEST_CASE("the RSSR rebuilt from points moves as the sample does", "[doc][spatial]") {
  const Rssr r;
  EditableMechanism doc = r.build();
  MechanismSpec spec = doc.spec();
  spec.joints[0].drive = DriveSpec{};
  spec.joints[0].drive->expression = "2*pi*t";
  // Joint frames at q = 0 are the sketch: the loop is closed as built (round-off of the sample's
  // 16-digit numbers), and the coupler spin is the second, passive DoF as in the sample.
  const Mechanism built = prepare(spec);
  const Mechanism sample = prepare(r.sample);
  CHECK(built.mobility.mobility == 2);
  CHECK(built.mobility.mobility == sample.mobility.mobility);
  CHECK(built.mobility.redundant == sample.mobility.redundant);
  Simulation a(built), b(sample);
  double worst_loop = 0, worst_rocker = 0;
  const int out = spec.joint_index("J2");
  REQUIRE(out == 2);                // J1 crank, S1, then the rocker's J2 and S2
  for (int n = 1; n <= 500; ++n) {  // half a turn of the crank at 1 rev/s
    a.step(1e-3, Integrator::RK4);
    b.step(1e-3, Integrator::RK4);
    if (n % 25) continue;
    a.evaluate();
    b.evaluate();
    worst_loop = std::max(worst_loop, a.loop_error());
    // The sample's output angle is counted from its own zero (q0 = 1.796 rad at the sketch).
    const double sample_rocker = b.joint_states()[3].q[0] - r.sample.joints[3].q0->at(0);
    worst_rocker = std::max(worst_rocker, std::abs(a.joint_states()[out].q[0] - sample_rocker));
  }
  INFO("worst loop error " << worst_loop << " m, worst rocker difference " << worst_rocker);
  // Projection tolerance 1e-12; the rocker is fixed by the crank alone (kinematics): the two
  // files agree to round-off (measured 3e-15 rad; the sample prints 16 digits).
  CHECK(worst_loop < 1e-10);
  CHECK(worst_rocker < 1e-11);
}

TEST_CASE("a plate through three points: frame in its plane, three bars, corners joined",
          "[doc][spatial]") {
  EditableMechanism doc;
  doc.apply(add_spatial_link(doc, Vec3::Zero(), Vec3(0, 0, 0.3), 0.01,
                             SpatialJoint{-1, Joint::revolute(), Vec3::UnitX()}, std::nullopt));
  const Vec3 a(0, 0, 0.3), b(0.3, 0, 0.3), c(0, 0.4, 0.3);  // a 0.3-0.4-0.5 m triangle
  doc.apply(add_spatial_plate(doc, {a, b, c}, 0.01, {SpatialJoint{0, Joint::spherical()}}));
  const MechanismSpec& s = doc.spec();
  REQUIRE(s.bodies.size() == 2);
  REQUIRE(s.joints.size() == 2);
  const BodySpec& plate = s.bodies[1];
  CHECK(plate.name == "plate1");
  // Three aluminium bars, 1.2 m of π 0.005² m² at 2700 kg/m^3; centre of mass at the perimeter-
  // weighted mean of the bar midpoints.
  CHECK(plate.mass == Approx(2700 * std::numbers::pi * 0.25e-4 * 1.2).epsilon(1e-12));
  const Vec3 com = (0.3 * (a + b) / 2 + 0.5 * (b + c) / 2 + 0.4 * (c + a) / 2) / 1.2;
  CHECK((to_world(s, 1, plate.com) - com).norm() < 1e-15);
  const Mat3 R = plate.pose->orientation.toRotationMatrix();
  CHECK((R.col(0) - Vec3::UnitX()).norm() < 1e-15);
  CHECK((R.col(2) - Vec3::UnitZ()).norm() < 1e-15);
  CHECK(s.joints[1].parent == "link1");
  CHECK(s.joints[1].child == "plate1");
  CHECK((joint_world_point(s, 1) - a).norm() < 1e-15);
  CHECK_THROWS_WITH(add_spatial_plate(doc, {a, b, 2 * b - a}, 0.01, {}),
                    "plate points: the first three are collinear");
  CHECK_THROWS_WITH(add_spatial_plate(doc, {a, b}, 0.01, {}), "a plate has three or more points");
}

TEST_CASE("rigid moves of a joint's frames and of a body's pose", "[doc][spatial]") {
  const Rssr r;
  EditableMechanism doc = r.build();
  // The rocker's ground revolute at D: turned 30° about z through D, then moved 20 mm along y.
  RigidMove m;
  m.pivot = r.D;
  m.rotation = Eigen::AngleAxisd(std::numbers::pi / 6, Vec3::UnitZ()).toRotationMatrix();
  m.delta = Vec3(0, 0.02, 0);
  const MechanismSpec before = doc.spec();
  doc.apply(move_joint_frames(doc, 2, m));
  const MechanismSpec& s = doc.spec();
  // Both frames where the motion puts them, computed directly (to round-off of the quaternions).
  CHECK((joint_world_point(s, 2) - (r.D + m.delta)).norm() < 1e-15);
  const JointSpec &j = s.joints[2], &j0 = before.joints[2];
  CHECK((to_world(s, 2, j.child_frame.position) - (r.D + m.delta)).norm() < 1e-15);
  for (bool parent : {true, false})
    CHECK((frame_world(s, j, parent) - m.rotation * frame_world(before, j0, parent)).norm() <
          1e-15);
  CHECK(s.bodies == before.bodies);  // the bodies stay
  // The crank's pose moved: its frame, and the coupler's joint frame on it, go with it.
  const Vec3 b_before = to_world(s, 0, s.joints[1].parent_frame.position);
  m.pivot = Vec3::Zero();
  doc.apply(move_body_pose(doc, 0, m));
  CHECK((to_world(doc.spec(), 0, Vec3::Zero()) - m.delta).norm() < 1e-15);
  CHECK((to_world(doc.spec(), 0, doc.spec().joints[1].parent_frame.position) - m.apply(b_before))
            .norm() < 1e-15);
  // Refused, naming the problem, and nothing changes.
  RigidMove bad;
  bad.rotation(0, 0) = 2;
  CHECK_THROWS_WITH(move_body_pose(doc, 0, bad), Catch::Contains("proper rotation"));
  bad = RigidMove{};
  bad.delta.x() = std::nan("");
  CHECK_THROWS_WITH(move_joint_frames(doc, 0, bad), Catch::Contains("must be finite"));
  CHECK_THROWS_WITH(move_joint_frames(doc, 9, RigidMove{}), "joint: no joint 9");
  CHECK_THROWS_WITH(move_body_pose(doc, -1, RigidMove{}), "body: no body -1");
}
