// The file the editor writes for a four-bar drawn with its tools (ground pivots, three links,
// the Motor tool on the crank): tests/data/python/drawn_fourbar.json. The Python module's test
// (tests/python/test_editing.py) draws the same mechanism through its bindings and must save the
// same bytes. ARTICULA_UPDATE_GOLDEN=1 rewrites the file from the editor's edits.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/doc/sketch_edits.hpp"
#include "core/doc/sketch_status.hpp"
#include "core/io/project.hpp"

using namespace articula;

TEST_CASE("a four-bar drawn with the editor's tools saves as the golden file", "[doc][files]") {
  EditableMechanism doc;
  // Ground 300 mm, crank 100 mm, coupler |(0.24, 0.17)|, rocker 250 mm: a crank-rocker.
  const Vec3 A0(0, 0, 0), B0(0.3, 0, 0), A(0.06, 0.08, 0), B(0.3, 0.25, 0);
  MechanismHeader header = doc.header();
  header.name = "Drawn four-bar";
  doc.apply(set_header(doc, header));
  doc.apply(add_ground_point(doc, A0));
  doc.apply(add_ground_point(doc, B0));
  doc.apply(add_link(doc, {A0, A}, {Attachment{-1}, std::nullopt}));
  doc.apply(add_link(doc, {A, B}, {Attachment{0}, std::nullopt}));
  doc.apply(add_link(doc, {B, B0}, {Attachment{1}, Attachment{-1}}));
  const Analysis before = analyse(doc.spec());
  REQUIRE(before.mechanism);
  const int crank_pivot = doc.spec().joint_index("J1");
  REQUIRE(crank_pivot >= 0);
  REQUIRE(doc.spec().joints[crank_pivot].parent == "ground");
  doc.apply(toggle_motor(doc, before.mechanism.get(), crank_pivot));
  CHECK(analyse(doc.spec()).status.free_dof == 0);

  const std::string text = to_text(doc.spec());
  const std::string path = ARTICULA_SOURCE_DIR "/tests/data/python/drawn_fourbar.json";
  if (std::getenv("ARTICULA_UPDATE_GOLDEN")) std::ofstream(path) << text;
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream golden;
  golden << in.rdbuf();
  CHECK(golden.str() == text);
}
