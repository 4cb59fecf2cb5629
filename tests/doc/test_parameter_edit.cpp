// Numbers set by JSON pointer as one reversible edit (core/doc/parameter_edit.hpp): what the
// app's Identify > Apply pushes. The edit changes exactly the items holding the numbers, undoes
// to the original specification, and refuses pointers that lead nowhere, to a non-number, into a
// part edits cannot change, or to an invalid value, naming the pointer.
#include <catch2/catch.hpp>

#include "core/doc/parameter_edit.hpp"
#include "core/io/project.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;

TEST_CASE("set_numbers: one edit for several numbers, undone exactly", "[doc]") {
  const MechanismSpec original = load_project(test::sample_path("fourbar.json")).spec;
  EditableMechanism doc(original);
  const Edit e = set_numbers(doc, {"/bodies/1/mass", "/joints/0/q0/0", "/gravity/1"},
                             {2.5, 0.25, -9.80665}, "Apply identified parameters");
  CHECK(e.label == "Apply identified parameters");
  REQUIRE(e.changes.size() == 3);  // the coupler, joint A0 and the header
  doc.apply(e);
  CHECK(doc.spec().bodies[1].mass == 2.5);
  CHECK(doc.spec().joints[0].q0->at(0) == 0.25);
  CHECK(doc.spec().gravity.y() == -9.80665);
  CHECK(doc.spec().bodies[0] == original.bodies[0]);  // the rest untouched
  CHECK(doc.spec().joints[1] == original.joints[1]);
  doc.revert(e);
  CHECK(doc.spec() == original);
}

TEST_CASE("set_numbers: bad pointers and values name the pointer", "[doc]") {
  const EditableMechanism doc(load_project(test::sample_path("fourbar.json")).spec);
  const auto fails = [&](const std::string& p, double v, const std::string& what) {
    INFO(p);
    try {
      (void)set_numbers(doc, {p}, {v}, "x");
      FAIL("accepted");
    } catch (const ProjectError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::Contains(p));
      CHECK_THAT(e.what(), Catch::Matchers::Contains(what));
    }
  };
  fails("/bodies/9/mass", 1.0, "no number");
  fails("/bodies/1/name", 1.0, "no number");
  fails("bodies/1/mass", 1.0, "not a JSON pointer");
  fails("/sensors/0/sigma", 1.0, "only numbers of");
  fails("/bodies/1/mass", -1.0, "mass");
}
