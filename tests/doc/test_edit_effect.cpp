// What an edit changed (core/doc/edit_effect): renames are Names (no rebuild, no restart), property
// edits Dynamics, added or removed items Structure, and reverting says the same in reverse.
#include <catch2/catch.hpp>

#include "core/doc/coupling_edits.hpp"
#include "core/doc/edit_effect.hpp"
#include "sketch_fixtures.hpp"

using namespace articula;
using namespace articula::test;

TEST_CASE("a body rename is a names-only change across its joints", "[doc][effects]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  BodySpec b = doc.spec().bodies[1];
  b.name = "coupler";
  const Edit e = set_body(doc, 1, b);
  REQUIRE(e.changes.size() == 3);  // the body and its two joints (parent/child names)
  const EditEffect fx = describe_edit(e);
  CHECK(fx.scope == EditEffect::Scope::Names);
  for (const auto& item : fx.items) CHECK(item.what == EditEffect::What::Renamed);
  CHECK(fx.items[0].kind == Change::Kind::Body);
  CHECK(fx.items[0].id == doc.body_id(1));
  CHECK(describe_edit(e, true).scope == EditEffect::Scope::Names);
}

TEST_CASE("a joint rename carries its couplings, still names only", "[doc][effects]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  CouplingSpec c;
  c.name = "L1";
  c.joints = {doc.spec().joints[0].name, doc.spec().joints[3].name};
  c.ratio = 2.0;
  doc.apply(add_coupling(doc, c));
  JointSpec j = doc.spec().joints[0];
  j.name = "motor";
  const EditEffect fx = describe_edit(set_joint(doc, 0, j));
  CHECK(fx.scope == EditEffect::Scope::Names);
  REQUIRE(fx.items.size() == 2);
  CHECK(fx.items[1].kind == Change::Kind::Coupling);
}

TEST_CASE("property edits are dynamics, inserts and removals structure", "[doc][effects]") {
  EditableMechanism doc;
  draw_fourbar(doc);
  BodySpec heavier = doc.spec().bodies[0];
  heavier.mass *= 2;
  CHECK(describe_edit(set_body(doc, 0, heavier)).scope == EditEffect::Scope::Dynamics);
  BodySpec both = heavier;
  both.name = "crank";  // a rename together with a mass change is not a rename
  const EditEffect fx = describe_edit(set_body(doc, 0, both));
  CHECK(fx.scope == EditEffect::Scope::Dynamics);
  CHECK(fx.items[0].what == EditEffect::What::Edited);
  const Edit del = remove_joint(doc, 1);
  const EditEffect removed = describe_edit(del), restored = describe_edit(del, true);
  CHECK(removed.scope == EditEffect::Scope::Structure);
  CHECK(removed.items[0].what == EditEffect::What::Removed);
  CHECK(restored.items[0].what == EditEffect::What::Inserted);
  MechanismHeader h = doc.header();
  h.name = "Another name";
  CHECK(describe_edit(set_header(doc, h)).scope == EditEffect::Scope::Names);
  h.gravity = Vec3(0, 0, -9.81);
  CHECK(describe_edit(set_header(doc, h)).scope == EditEffect::Scope::Dynamics);
}
