// The editable document: stable ids, reversible edits (undo to empty and redo to the end give
// the same specification at every step), sketch status of complete and incomplete sketches, and
// the saved file reloading to the same specification.
#include <catch2/catch.hpp>

#include "core/doc/sketch_status.hpp"
#include "core/io/project.hpp"
#include "sketch_fixtures.hpp"

using namespace articula;
using namespace articula::test;

TEST_CASE("a drawn four-bar is one DOF, one loop, no in-plane redundancy", "[doc][status]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  const MechanismSpec& spec = doc.spec();
  REQUIRE(spec.bodies.size() == 3);
  REQUIRE(spec.joints.size() == 4);
  const Analysis a = analyse(spec);
  REQUIRE(a.mechanism);
  CHECK(a.status.ready());
  CHECK(a.status.dof == 1);
  CHECK(a.status.gruebler == 1);
  CHECK(a.status.planar);
  CHECK(a.status.loops == 1);
  CHECK(a.status.redundant == 3);  // out-of-plane rows of a planar loop (samples/README.md)
  CHECK(a.status.planar_redundant == 0);
  CHECK(a.status.redundant_joints.empty());
  CHECK(a.status.unconstrained.size() == 4);  // no drive: every joint moves freely
  CHECK(a.status.free_dof == 1);
  CHECK(a.status.locked.empty());
  CHECK(a.status.assembly_residual <= 1e-12);
  // Drawn link lengths are the joint spacing: 100, 280, 250 mm (1e-15 m).
  CHECK(spec.joints[1].parent_frame.position.norm() == Approx(0.1).margin(1e-15));
  // Mass of a slender aluminium bar: 0.324 kg/m × length.
  CHECK(spec.bodies[1].mass == Approx(0.324 * 0.28).epsilon(1e-12));
  CHECK(spec.bodies[1].com.x() == Approx(0.14).epsilon(1e-12));
}

TEST_CASE("a drawn link's mass follows its geometry and material", "[doc][mass]") {
  EditableMechanism doc;
  doc.apply(add_link(doc, {Vec3(0, 0, 0), Vec3(0.3, 0.4, 0)}, {Attachment{-1}, std::nullopt}));
  BodySpec b = doc.spec().bodies[0];
  // Aluminium bar 20 × 6 mm, 0.5 m long: 2700 · 1.2e-4 · 0.5 = 0.162 kg; Izz about the centre
  // m (L² + w²)/12 in the bar's own frame (the body frame runs along the bar).
  CHECK(b.mass == Approx(0.162).epsilon(1e-12));
  CHECK(b.com.x() == Approx(0.25).epsilon(1e-12));
  CHECK(b.inertia[2] == Approx(0.162 * (0.25 + 0.0004) / 12).epsilon(1e-12));
  // Moving its free end recomputes the mass (steel after choosing the material).
  b.extra["sketch"]["material"] = "steel";
  bar_mass_properties(body_points(doc.spec(), 0), LinkStock::of(b), b);
  doc.apply(set_body(doc, 0, b));
  CHECK(doc.spec().bodies[0].mass == Approx(7850 * 1.2e-4 * 0.5).epsilon(1e-12));
  doc.apply(move_point(doc, Vec3(0.3, 0.4, 0), Vec3(0.6, 0.8, 0)));
  CHECK(doc.spec().bodies[0].mass == Approx(7850 * 1.2e-4 * 1.0).epsilon(1e-12));
  // A typed mass is kept; its centre of mass and inertia follow the drawing as bars of that mass
  // (issue 23: they stayed behind, and the 3D view drew the old bar beside the new one).
  b = doc.spec().bodies[0];
  b.extra["sketch"].erase("mass");
  b.mass = 2.0;
  doc.apply(set_body(doc, 0, b));
  doc.apply(move_point(doc, Vec3(0.6, 0.8, 0), Vec3(0.3, 0.4, 0)));
  const BodySpec& typed = doc.spec().bodies[0];
  CHECK(typed.mass == 2.0);
  CHECK((typed.com - Vec3(0.25, 0, 0)).norm() < 1e-12);  // mid-way along the 0.5 m bar
  CHECK(typed.inertia[2] == Approx(2.0 * (0.25 + 0.0004) / 12).epsilon(1e-12));
}

TEST_CASE("a motion drive on the crank leaves nothing unconstrained", "[doc][status]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  JointSpec crank = doc.spec().joints[0];
  crank.drive = DriveSpec{DriveSpec::Kind::Motion, "0.3 + 2*pi*t", {}, nlohmann::json::object()};
  doc.apply(set_joint(doc, 0, crank));
  const Analysis a = analyse(doc.spec());
  REQUIRE(a.mechanism);
  CHECK(a.status.dof == 1);
  CHECK(a.status.drives == 1);
  CHECK(a.status.free_dof == 0);
  CHECK(a.status.unconstrained.empty());
}

TEST_CASE("incomplete sketches are a normal state", "[doc][status]") {
  EditableMechanism doc;
  Analysis a = analyse(doc.spec());
  CHECK(!a.mechanism);
  CHECK(a.status.problem.empty());
  CHECK(a.status.summary().find("Empty") != std::string::npos);
  // A link with no pin: not connected to ground.
  doc.apply(add_link(doc, {Vec3(0, 0, 0), Vec3(0.1, 0, 0)}, {}));
  a = analyse(doc.spec());
  CHECK(!a.mechanism);
  REQUIRE(a.status.disconnected.size() == 1);
  CHECK(a.status.disconnected[0] == "link1");
  // A triangle of links pinned to ground at two points is a structure: 0 DOF, every joint locked.
  EditableMechanism tri;
  tri.apply(add_link(tri, {Vec3(0, 0, 0), Vec3(0.1, 0.1, 0)}, {Attachment{-1}, std::nullopt}));
  tri.apply(add_link(tri, {Vec3(0.1, 0.1, 0), Vec3(0.2, 0, 0)}, {Attachment{0}, Attachment{-1}}));
  a = analyse(tri.spec());
  REQUIRE(a.mechanism);
  CHECK(a.status.dof == 0);
  CHECK(a.status.gruebler == 0);
  CHECK(a.status.locked.size() == 3);
  // A loop that cannot close (a second pivot 0.5 m from where the link has it) is reported.
  EditableMechanism bad;
  bad.apply(add_link(bad, {Vec3(0, 0, 0), Vec3(0.1, 0, 0)}, {Attachment{-1}, std::nullopt}));
  JointSpec j;
  j.name = "far";
  j.joint = Joint::revolute();
  j.parent = "ground";
  j.child = "link1";
  j.parent_frame.position = Vec3(0.5, 0, 0);
  bad.apply(add_joint(bad, j));
  a = analyse(bad.spec());
  CHECK(!a.mechanism);
  CHECK(a.status.problem.find("cannot close the loop at joint 'far'") != std::string::npos);
}

TEST_CASE("undo to empty and redo to the end reproduce every step", "[doc][undo]") {
  EditableMechanism doc;
  std::vector<MechanismSpec> states{doc.spec()};
  std::vector<Edit> edits;
  auto step = [&](Edit e) {
    doc.apply(e);
    edits.push_back(std::move(e));
    states.push_back(doc.spec());
  };
  for (Edit& e : draw_fourbar(doc)) edits.push_back(std::move(e));
  // draw_fourbar applied its edits already: rebuild the state list by undoing and redoing.
  states.assign(1, MechanismSpec{});
  {
    EditableMechanism replay;
    for (const Edit& e : edits) {
      replay.apply(e);
      states.push_back(replay.spec());
    }
  }
  BodySpec coupler = doc.spec().bodies[1];
  coupler.name = "coupler";
  step(set_body(doc, 1, coupler));
  step(move_point(doc, Vec3(0.3, 0, 0), Vec3(0.32, 0.01, 0)));
  step(add_slider(doc, 1, doc.spec().bodies[1].pose->position, Vec3(1, 1, 0)));
  step(remove_body(doc, 0));
  REQUIRE(doc.spec() == states.back());
  for (int i = static_cast<int>(edits.size()) - 1; i >= 0; --i) {
    doc.revert(edits[i]);
    REQUIRE(doc.spec() == states[i]);
  }
  CHECK(doc.spec().bodies.empty());
  for (std::size_t i = 0; i < edits.size(); ++i) {
    doc.apply(edits[i]);
    REQUIRE(doc.spec() == states[i + 1]);
  }
}

TEST_CASE("ids survive renames, removals and undo/redo", "[doc][ids]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  const EntityId coupler = doc.body_id(1), rocker = doc.body_id(2), pin_b = doc.joint_id(2);
  BodySpec b = doc.spec().bodies[1];
  b.name = "coupler";
  const Edit rename = set_body(doc, 1, b);
  doc.apply(rename);
  CHECK(doc.body_index(coupler) == 1);
  // The joints that referred to the old name follow the rename.
  CHECK(doc.spec().joints[doc.joint_index(pin_b)].parent == "coupler");
  const Edit remove = remove_body(doc, 1);
  doc.apply(remove);
  CHECK(doc.body_index(coupler) == -1);
  CHECK(doc.joint_index(pin_b) == -1);
  CHECK(doc.body_index(rocker) == 1);
  doc.revert(remove);
  CHECK(doc.body_index(coupler) == 1);
  CHECK(doc.joint_index(pin_b) == 2);
  doc.revert(rename);
  doc.apply(rename);
  CHECK(doc.spec().bodies[doc.body_index(coupler)].name == "coupler");
  // An edit that no longer fits is refused and changes nothing.
  const MechanismSpec before = doc.spec();
  CHECK_THROWS_AS(doc.apply(rename), std::invalid_argument);
  CHECK(doc.spec() == before);
}

TEST_CASE("invalid property values are refused with the reason", "[doc][validation]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  BodySpec b = doc.spec().bodies[0];
  b.mass = -1;
  CHECK(check_body(doc.spec(), 0, b) == "mass must be a positive number (kg)");
  CHECK_THROWS_WITH(set_body(doc, 0, b), "mass must be a positive number (kg)");
  b = doc.spec().bodies[0];
  b.name = "link2";
  CHECK(check_body(doc.spec(), 0, b) == "the name 'link2' is taken");
  b = doc.spec().bodies[0];
  b.inertia = {1, 1, 3, 0, 0, 0};
  CHECK(check_body(doc.spec(), 0, b).find("triangle") != std::string::npos);
  JointSpec j = doc.spec().joints[0];
  j.drive = DriveSpec{DriveSpec::Kind::Motion, "2*pi*", {}, nlohmann::json::object()};
  CHECK(check_joint(doc.spec(), 0, j).rfind("drive: ", 0) == 0);
  j = doc.spec().joints[0];
  j.q0 = std::vector<double>{1, 2};
  CHECK(check_joint(doc.spec(), 0, j) == "q0 needs 1 values for this joint type");
  j = doc.spec().joints[0];
  j.child = "nowhere";
  CHECK(check_joint(doc.spec(), 0, j) == "unknown body 'nowhere'");
}

TEST_CASE("a sketch saves to format v1 and reloads identically", "[doc][files]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  doc.apply(add_ground_point(doc, Vec3(0.5, 0.2, 0)));
  doc.apply(add_slider(doc, -1, Vec3(0.5, 0.2, 0), Vec3(1, 0, 0)));
  const std::string text = to_text(doc.spec());
  const LoadResult loaded = parse_project(text);
  CHECK(loaded.warnings.empty());
  CHECK(loaded.spec == doc.spec());
  CHECK(to_text(loaded.spec) == text);
  // The reloaded file analyses the same way.
  CHECK(analyse(loaded.spec).status.dof == analyse(doc.spec()).status.dof);
}
