// The sketch status in two parts (AnalysisDepth::Counts, then complete_status) is the full
// analysis: on every sample, and on sketches that are incomplete or cannot be assembled.
#include <catch2/catch.hpp>

#include "core/doc/sketch_status.hpp"
#include "core/io/project.hpp"
#include "sketch_fixtures.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;
using namespace articula::test;

namespace {
void check_same_status(const SketchStatus& a, const SketchStatus& b) {
  CHECK(a.bodies == b.bodies);
  CHECK(a.joints == b.joints);
  CHECK(a.drives == b.drives);
  CHECK(a.disconnected == b.disconnected);
  CHECK(a.analysed == b.analysed);
  CHECK(a.problem == b.problem);
  CHECK(a.dof == b.dof);
  CHECK(a.gruebler == b.gruebler);
  CHECK(a.loops == b.loops);
  CHECK(a.redundant == b.redundant);
  CHECK(a.planar_redundant == b.planar_redundant);
  CHECK(a.redundant_joints == b.redundant_joints);
  CHECK(a.unconstrained == b.unconstrained);
  CHECK(a.locked == b.locked);
  CHECK(a.free_dof == b.free_dof);
  CHECK(a.assembly_residual == b.assembly_residual);  // the same computation, bit for bit
  CHECK(a.details_pending == b.details_pending);
}

// Counts first, then the details from the grounded mechanism, as the editor does.
SketchStatus two_part_status(const MechanismSpec& spec) {
  Analysis a = analyse(spec, AnalysisDepth::Counts);
  if (a.grounded) {
    CHECK(a.status.details_pending);
    CHECK(a.status.unconstrained.empty());
    CHECK(a.status.locked.empty());
    complete_status(*a.grounded, a.status);
  } else {
    CHECK_FALSE(a.status.details_pending);  // nothing to detail
  }
  return a.status;
}
}  // namespace

TEST_CASE("the status in two parts equals the full analysis on every sample", "[doc][status]") {
  const std::vector<std::string> files = sample_files();
  CHECK(files.size() >= 20);
  for (const std::string& f : files) {
    INFO(f);
    const MechanismSpec spec = load_project(sample_path(f)).spec;
    check_same_status(two_part_status(spec), analyse(spec).status);
  }
}

TEST_CASE("the status in two parts of incomplete sketches", "[doc][status]") {
  EditableMechanism doc;
  check_same_status(two_part_status(doc.spec()), analyse(doc.spec()).status);  // empty
  draw_fourbar(doc);
  check_same_status(two_part_status(doc.spec()), analyse(doc.spec()).status);
  // A floating link: the grounded part is analysed, the link listed as disconnected.
  doc.apply(add_link(doc, {Vec3(1, 1, 0), Vec3(1.2, 1, 0)}, {std::nullopt, std::nullopt}));
  const SketchStatus two = two_part_status(doc.spec());
  CHECK(two.disconnected.size() == 1);
  check_same_status(two, analyse(doc.spec()).status);
  // Completing twice changes nothing (details already there).
  Analysis a = analyse(doc.spec(), AnalysisDepth::Counts);
  REQUIRE(a.grounded);
  complete_status(*a.grounded, a.status);
  const SketchStatus once = a.status;
  complete_status(*a.grounded, a.status);
  check_same_status(a.status, once);
}
