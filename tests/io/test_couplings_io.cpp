// Couplings in the project file (contract-additions-2 §1): reading, the errors with their JSON
// pointers, saving and round trips, sketched couplings under /sketch/floating, and the
// simulation.solver setting (§3).
#include <catch2/catch.hpp>

#include "core/io/project.hpp"
#include "tests/support/json_docs.hpp"

namespace articula {
namespace {

using nlohmann::json;
using test::check_error;
using test::with;

// Two wheels on ground pivots (A revolute, B revolute) and a slider S, geared and racked.
json geared() {
  return json::parse(R"json({
  "format": "articula", "version": 1, "name": "gears",
  "bodies": [
    { "name": "wheelA", "mass": 1.0, "com": [0, 0, 0], "inertia": [0.01, 0.01, 0.02, 0, 0, 0] },
    { "name": "wheelB", "mass": 2.0, "com": [0, 0, 0], "inertia": [0.02, 0.02, 0.04, 0, 0, 0] },
    { "name": "rack", "mass": 0.5, "com": [0, 0, 0], "inertia": [0.001, 0.001, 0.001, 0, 0, 0] }
  ],
  "joints": [
    { "name": "A", "type": "revolute", "parent": "ground", "child": "wheelA" },
    { "name": "B", "type": "revolute", "parent": "ground", "child": "wheelB",
      "parent_frame": { "position": [0.3, 0, 0] } },
    { "name": "S", "type": "prismatic", "parent": "ground", "child": "rack" },
    { "name": "W", "type": "spherical", "parent": "wheelA", "child": "rack" }
  ],
  "couplings": [
    { "name": "G1", "type": "gear", "joints": ["A", "B"], "ratio": -0.5, "radii": [0.1, 0.2],
      "color": "#00aa00" },
    { "name": "R1", "type": "rack_pinion", "joints": ["B", "S"], "ratio": 0.2 }
  ],
  "simulation": { "duration": 1.0, "step": 0.001, "solver": "method2" }
})json");
}

}  // namespace

TEST_CASE("couplings load with every field", "[io][couplings]") {
  const MechanismSpec spec = parse_project(geared().dump()).spec;
  REQUIRE(spec.couplings.size() == 2);
  const CouplingSpec& g = spec.couplings[0];
  CHECK(g.name == "G1");
  CHECK(g.type == CouplingSpec::Type::Gear);
  CHECK(g.joints == std::array<std::string, 2>{"A", "B"});
  CHECK(g.ratio == -0.5);
  REQUIRE(g.radii);
  CHECK((*g.radii)[1] == 0.2);
  CHECK(g.extra == json{{"color", "#00aa00"}});
  CHECK(spec.couplings[1].type == CouplingSpec::Type::RackPinion);
  CHECK(!spec.couplings[1].radii);
  CHECK(spec.simulation->extra.at("solver") == "method2");
}

TEST_CASE("couplings survive save and load unchanged", "[io][couplings]") {
  const MechanismSpec spec = parse_project(geared().dump()).spec;
  const std::string text = to_text(spec);
  CHECK(parse_project(text).spec == spec);
  const json saved = json::parse(text);
  CHECK(saved.at("couplings").at(0).at("radii") == json{0.1, 0.2});
  CHECK(saved.at("couplings").at(1).at("type") == "rack_pinion");
  CHECK(saved.at("simulation").at("solver") == "method2");
  // A file without couplings writes no couplings array (format v1 files stay as they were).
  json plain = geared();
  plain.erase("couplings");
  CHECK(!json::parse(to_text(parse_project(plain.dump()).spec)).contains("couplings"));
}

TEST_CASE("coupling fields are checked where they are", "[io][couplings][errors]") {
  const json g = geared();
  check_error(with(g, "/couplings/0/type", "chain"), "/couplings/0/type",
              "unknown coupling type 'chain'; expected one of: gear, belt, rack_pinion, linear");
  check_error(with(g, "/couplings/0/joints", json{"A"}), "/couplings/0/joints",
              "expected 2 joint names [A, B], got 1");
  check_error(with(g, "/couplings/0/joints/1", "Q"), "/couplings/0/joints/1", "unknown joint 'Q'");
  check_error(with(g, "/couplings/0/joints/1", 3), "/couplings/0/joints/1", "expected a string");
  check_error(with(g, "/couplings/0/joints/1", "W"), "/couplings/0/joints/1",
              "joint 'W' is a spherical joint; a coupling needs a 1-DOF joint");
  check_error(with(g, "/couplings/0/joints/1", "A"), "/couplings/0/joints/1",
              "a coupling joins two different joints; both are 'A'");
  check_error(with(g, "/couplings/0/ratio", 0), "/couplings/0/ratio", "must not be 0");
  check_error(with(g, "/couplings/0/ratio", "2"), "/couplings/0/ratio", "expected a number");
  check_error(with(g, "/couplings/0/ratio", 0.5), "/couplings/0/ratio",
              "an external gear pair turns the other way: ratio must be < 0, got 0.5");
  check_error(with(with(g, "/couplings/0/type", "belt"), "/couplings/0/radii", json{0.2, 0.1}),
              "/couplings/0/ratio", "a belt turns both pulleys the same way");
  check_error(with(g, "/couplings/0/radii", json{0.1, 0.3}), "/couplings/0/ratio",
              "ratio -0.5 does not match the radii: -rA/rB = -0.3333333333333333");
  check_error(with(g, "/couplings/0/radii", json{0.1, -0.2}), "/couplings/0/radii/1",
              "a radius must be a finite number > 0, got -0.2");
  check_error(with(g, "/couplings/0/radii", json{0.1}), "/couplings/0/radii",
              "expected 2 numbers [rA, rB], got 1");
  check_error(with(g, "/couplings/1/joints", json{"S", "B"}), "/couplings/1/joints/0",
              "a rack and pinion needs a revolute pinion joint A; 'S' is a prismatic joint");
  check_error(with(g, "/couplings/1/joints", json{"A", "B"}), "/couplings/1/joints/1",
              "a rack and pinion needs a prismatic rack joint B; 'B' is a revolute joint");
  check_error(with(g, "/couplings/1/name", "G1"), "/couplings/1/name",
              "the coupling name 'G1' is taken");
  check_error(with(g, "/couplings/1/name", "A"), "/couplings/1/name",
              "'A' is already the name of a joint");
  check_error(with(g, "/couplings/1/name", ""), "/couplings/1/name", "must not be empty");
  check_error(with(g, "/couplings", json::object()), "/couplings", "expected an array");
  check_error(with(g, "/couplings/0", 5), "/couplings/0", "expected an object");
}

TEST_CASE("a linear coupling takes any non-zero ratio, radii unchecked", "[io][couplings]") {
  json g = with(geared(), "/couplings/0/type", "linear");
  g = with(g, "/couplings/0/ratio", 3.25);
  CHECK(parse_project(g.dump()).spec.couplings[0].ratio == 3.25);
}

TEST_CASE("simulation.solver is one of the contract's names", "[io][errors]") {
  check_error(with(geared(), "/simulation/solver", "fast"), "/simulation/solver",
              "unknown solver 'fast'; expected one of: auto, method2, sparse, embedding, operator");
  check_error(with(geared(), "/simulation/solver", 1), "/simulation/solver", "expected a string");
}

}  // namespace articula
