// The factor-graph dynamics report (`articula-cli dynamics`, issue 19/20) leaves joint friction,
// limits and contacts out; its note names the joints and contacts that have them by their
// project names, so the user knows which part of the project the result ignores.
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/factor_graph/dynamics_report.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/json_docs.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using nlohmann::json;

namespace {
json report_of(const json& doc) {
  const Mechanism m = prepare_project(parse_project(doc.dump()).spec);
  return fg::dynamics_report(m, 0.0, fg::EliminationOrder::Aba);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("Dynamics report: the note names the joints with friction and limits", "[fg_report]") {
  json doc = test::sample_json("double_pendulum.json");
  SECTION("no friction, limits or contacts: no note") {
    CHECK_FALSE(report_of(doc).contains("note"));
  }
  SECTION("friction at the elbow only") {
    doc["joints"][1]["friction"] = {{"coulomb", 0.2}, {"viscous", 0.01}};
    const std::string note = report_of(doc).at("note");
    CHECK(has(note, "friction at joint(s) 'elbow'"));
    CHECK_FALSE(has(note, "'shoulder'"));
    CHECK_FALSE(has(note, "limits at"));
  }
  SECTION("friction at both, limits at the shoulder") {
    doc["joints"][0]["friction"] = {{"coulomb", 0.1}};
    doc["joints"][1]["friction"] = {{"viscous", 0.01}};
    doc["joints"][0]["limits"] = {{"lower", -3.0}, {"upper", 3.0}};
    const std::string note = report_of(doc).at("note");
    CHECK(has(note, "friction at joint(s) 'shoulder', 'elbow'"));
    CHECK(has(note, "limits at joint(s) 'shoulder'"));
    CHECK(has(note, "not in the factor graph"));
  }
}

TEST_CASE("Dynamics report: the note names the contacts", "[fg_report]") {
  const std::string note = report_of(test::sample_json("bouncing_ball.json")).at("note");
  CHECK(has(note, "contact(s) 'floor'"));
  CHECK_FALSE(has(note, "friction at"));
}
