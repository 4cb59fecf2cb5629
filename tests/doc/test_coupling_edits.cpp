// Coupling edits in the document: adding a gear from pitch radii, the checks, and the upkeep
// other edits owe couplings (a joint rename renames it in its couplings, deleting a joint or a
// body deletes its couplings), each undone exactly; a geared five-bar has one DOF.
#include <catch2/catch.hpp>

#include "core/doc/coupling_edits.hpp"
#include "core/doc/sketch_status.hpp"
#include "core/io/project.hpp"
#include "sketch_fixtures.hpp"

using namespace articula;
using namespace articula::test;

namespace {

// A five-bar: ground pivots A0, B0 (joints J1, J... in drawing order), two cranks and two
// coupler links meeting at C. Two DOF.
void draw_fivebar(EditableMechanism& doc) {
  const Vec3 A0(0, 0, 0), B0(0.3, 0, 0), A(0, 0.1, 0), B(0.3, 0.1, 0), C(0.15, 0.25, 0);
  doc.apply(add_ground_point(doc, A0));
  doc.apply(add_ground_point(doc, B0));
  doc.apply(add_link(doc, {A0, A}, {Attachment{-1}, std::nullopt}));
  doc.apply(add_link(doc, {B0, B}, {Attachment{-1}, std::nullopt}));
  doc.apply(add_link(doc, {A, C}, {Attachment{0}, std::nullopt}));
  doc.apply(add_link(doc, {C, B}, {Attachment{2}, Attachment{1}}));
}

// The joint on ground at the origin and the one at (0.3, 0): the two crank pivots.
std::pair<int, int> crank_pivots(const MechanismSpec& spec) {
  int a = -1, b = -1;
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const JointSpec& js = spec.joints[j];
    if (js.parent != "ground") continue;
    (js.parent_frame.position.x() < 0.1 ? a : b) = j;
  }
  return {a, b};
}

}  // namespace

TEST_CASE("a gear between the cranks of a five-bar leaves one DOF", "[doc][couplings]") {
  EditableMechanism doc;
  draw_fivebar(doc);
  REQUIRE(analyse(doc.spec()).status.dof == 2);
  const auto [a, b] = crank_pivots(doc.spec());
  REQUIRE(a >= 0);
  REQUIRE(b >= 0);
  const Edit e = add_coupling_from_radii(doc, CouplingSpec::Type::Gear, a, b, 0.05, 0.1);
  CHECK(e.label == "Add gear G1");
  doc.apply(e);
  REQUIRE(doc.spec().couplings.size() == 1);
  const CouplingSpec& g = doc.spec().couplings[0];
  CHECK(g.ratio == -0.5);  // -rA/rB, exact
  CHECK(g.joints[0] == doc.spec().joints[a].name);
  const Analysis an = analyse(doc.spec());
  CHECK(an.status.dof == 1);
  // Saved and reloaded, the gear is the same.
  CHECK(parse_project(to_text(doc.spec())).spec.couplings == doc.spec().couplings);
  doc.revert(e);
  CHECK(doc.spec().couplings.empty());
}

TEST_CASE("renaming a coupled joint renames it in the coupling; undo restores both",
          "[doc][couplings]") {
  EditableMechanism doc;
  draw_fivebar(doc);
  const auto [a, b] = crank_pivots(doc.spec());
  doc.apply(add_coupling_from_radii(doc, CouplingSpec::Type::Belt, a, b, 0.05, 0.05));
  const MechanismSpec before = doc.spec();
  JointSpec renamed = doc.spec().joints[a];
  renamed.name = "motor";
  const Edit e = set_joint(doc, a, renamed);
  CHECK(e.label == "Rename " + before.joints[a].name);
  doc.apply(e);
  CHECK(doc.spec().couplings[0].joints[0] == "motor");
  CHECK(analyse(doc.spec()).status.dof == 1);
  doc.revert(e);
  CHECK(doc.spec() == before);
}

TEST_CASE("deleting a coupled joint or body deletes its couplings; undo restores their order",
          "[doc][couplings]") {
  EditableMechanism doc;
  draw_fivebar(doc);
  const auto [a, b] = crank_pivots(doc.spec());
  doc.apply(add_coupling_from_radii(doc, CouplingSpec::Type::Gear, a, b, 0.05, 0.1));
  CouplingSpec linear;
  linear.name = "L1";
  linear.joints = {doc.spec().joints[b].name, doc.spec().joints[a].name};
  linear.ratio = 3.0;
  doc.apply(add_coupling(doc, linear));
  const MechanismSpec before = doc.spec();
  const Edit del = remove_joint(doc, a);
  doc.apply(del);
  CHECK(doc.spec().couplings.empty());
  doc.revert(del);
  CHECK(doc.spec() == before);
  // The crank link carries joint a: deleting the body deletes both couplings once each.
  const int crank = doc.spec().body_index(doc.spec().joints[a].child);
  const Edit del_body = remove_body(doc, crank);
  doc.apply(del_body);
  CHECK(doc.spec().couplings.empty());
  doc.revert(del_body);
  CHECK(doc.spec() == before);
  const Edit del_coupling = remove_coupling(doc, 0);
  doc.apply(del_coupling);
  REQUIRE(doc.spec().couplings.size() == 1);
  CHECK(doc.spec().couplings[0].name == "L1");
}

TEST_CASE("coupling edits are checked with the field and the reason", "[doc][couplings]") {
  EditableMechanism doc;
  draw_fivebar(doc);
  const auto [a, b] = crank_pivots(doc.spec());
  CHECK_THROWS_WITH(add_coupling_from_radii(doc, CouplingSpec::Type::Gear, a, a, 0.05, 0.1),
                    Catch::Contains("joints/1: a coupling joins two different joints"));
  CHECK_THROWS_WITH(add_coupling_from_radii(doc, CouplingSpec::Type::Gear, a, b, 0.0, 0.1),
                    Catch::Contains("radii must be > 0"));
  CHECK_THROWS_WITH(add_coupling_from_radii(doc, CouplingSpec::Type::RackPinion, a, b, 0.05, 0.1),
                    Catch::Contains("needs a prismatic rack joint B"));
  doc.apply(add_coupling_from_radii(doc, CouplingSpec::Type::Gear, a, b, 0.05, 0.1));
  CouplingSpec g = doc.spec().couplings[0];
  g.ratio = 0.5;
  CHECK_THROWS_WITH(set_coupling(doc, 0, g), Catch::Contains("ratio: an external gear pair"));
  g.ratio = -0.25;
  g.radii = std::array<double, 2>{0.05, 0.2};
  const Edit ok = set_coupling(doc, 0, g);
  CHECK(ok.label == "Edit G1");
  doc.apply(ok);
  CHECK(doc.spec().couplings[0].ratio == -0.25);
  // A coupled joint must stay 1-DOF.
  JointSpec ball = doc.spec().joints[a];
  ball.joint = Joint::spherical();
  CHECK_THROWS_WITH(set_joint(doc, a, ball),
                    Catch::Contains("coupling 'G1': joint '" + ball.name + "' is a spherical"));
}
