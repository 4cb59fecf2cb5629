// Project files, format v1: validation (one case per kind of error, with its JSON pointer),
// unknown-field preservation, round trips, atomic saving and robustness against broken input.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/io/project.hpp"
#include "tests/support/json_docs.hpp"

namespace articula {
namespace {

using nlohmann::json;
using test::check_error;
using test::check_error_text;
using test::with;
using test::without;
using namespace std::string_literals;
namespace fs = std::filesystem;

// The contract's four-bar: a motion-driven crank, identity frames left out on some joints.
const char* const kFourBar = R"json({
  "format": "articula",
  "version": 1,
  "name": "Four-bar linkage",
  "gravity": [0, -9.81, 0],
  "bodies": [
    { "name": "crank", "mass": 1.0, "com": [0.15, 0, 0],
      "inertia": [0.0001, 0.0075, 0.0075, 0, 0, 0],
      "pose": { "position": [0, 0, 0], "quaternion": [1, 0, 0, 0] } },
    { "name": "coupler", "mass": 2.0, "com": [0.5, 0, 0],
      "inertia": [0.0002, 0.1667, 0.1667, 0, 0, 0] },
    { "name": "rocker", "mass": 1.5, "com": [0.4, 0, 0],
      "inertia": [0.0002, 0.08, 0.08, 0, 0, 0] }
  ],
  "joints": [
    { "name": "A", "type": "revolute", "parent": "ground", "child": "crank",
      "q0": [0.3], "qd0": [0.0],
      "drive": { "type": "motion", "q": "0.3 + 2*pi*t" } },
    { "name": "B", "type": "revolute", "parent": "crank", "child": "coupler",
      "parent_frame": { "position": [0.3, 0, 0], "quaternion": [1, 0, 0, 0] } },
    { "name": "C", "type": "revolute", "parent": "coupler", "child": "rocker",
      "parent_frame": { "position": [1.0, 0, 0] },
      "child_frame": { "position": [0.8, 0, 0] },
      "spring": { "stiffness": 10, "rest": 0.1, "damping": 0.5 } },
    { "name": "D", "type": "revolute", "parent": "ground", "child": "rocker",
      "parent_frame": { "position": [1.0, 0, 0], "quaternion": [1, 0, 0, 0] } }
  ],
  "simulation": { "duration": 5.0, "step": 0.001, "integrator": "rk4" }
}
)json";

// Every joint type, awkward numbers, non-ASCII names and unknown fields at every level.
const char* const kKitchenSink = R"json({
  "format": "articula", "version": 1, "name": "Küchenspüle",
  "gravity": [0.1, -9.80665, 1e-7],
  "editor": { "zoom": 1.5, "camera": [1, 2, 3], "layers": [{ "name": "a" }] },
  "author": "tester",
  "bodies": [
    { "name": "base", "mass": 3.3, "com": [0.1, 0.2, 0.30000000000000004],
      "inertia": [0.1, 0.2, 0.25, 0.01, -0.02, 0.003], "color": "#ff0000",
      "pose": { "position": [1, 2, 3], "quaternion": [0.5, 0.5, 0.5, 0.5], "locked": true } },
    { "name": "arm-ä", "mass": 0.7, "com": [0, 0, -0.0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "screw", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "slider", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "ujoint", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "plate", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "drone", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "tool", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] },
    { "name": "carriage", "mass": 1, "com": [0, 0, 0], "inertia": [1, 1, 1, 0, 0, 0] }
  ],
  "joints": [
    { "name": "J-base", "type": "spherical", "parent": "ground", "child": "base",
      "q0": [0.7071067811865476, 0, 0, 0.7071067811865476], "qd0": [0.1, 0.2, 0.3],
      "note": "rotates", "parent_frame": { "position": [0, 0, 1], "tag": 7 } },
    { "name": "J-arm", "type": "revolute", "parent": "base", "child": "arm-ä",
      "child_frame": { "position": [0.25, 0, 0], "quaternion": [0, 1, 0, 0] },
      "drive": { "type": "force", "value": "sin(2*pi*t)", "units": "N m" },
      "spring": { "stiffness": 0, "rest": -1.25, "damping": 0.125, "preload": [1, 2] } },
    { "name": "J-screw", "type": "helical", "pitch": 0.0015, "parent": "arm-ä",
      "child": "screw", "q0": [123456.789] },
    { "name": "J-slider", "type": "prismatic", "parent": "ground", "child": "slider",
      "drive": { "type": "motion", "q": "0.1*t^2" } },
    { "name": "J-cyl", "type": "cylindrical", "parent": "slider", "child": "carriage",
      "q0": [1, 2], "qd0": [3, 4] },
    { "name": "J-u", "type": "universal", "parent": "carriage", "child": "ujoint",
      "q0": [0.5, -0.5] },
    { "name": "J-planar", "type": "planar", "parent": "ujoint", "child": "plate",
      "q0": [0.1, 0.2, 0.3], "qd0": [0, 0, 0] },
    { "name": "J-free", "type": "free", "parent": "ground", "child": "drone",
      "q0": [1, 2, 3, 1, 0, 0, 0], "qd0": [1, 2, 3, 4, 5, 6] },
    { "name": "J-fixed", "type": "fixed", "parent": "drone", "child": "tool", "q0": [] }
  ],
  "simulation": { "duration": 2.5, "step": 0.0025, "integrator": "euler", "tolerance": 1e-9 }
}
)json";

json four_bar() {
  return json::parse(kFourBar);
}

// A fresh, empty directory, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("articula-io-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("the contract's four-bar loads with every field", "[io]") {
  const LoadResult r = parse_project(kFourBar);
  const MechanismSpec& s = r.spec;
  CHECK(r.warnings.empty());
  CHECK(s.name == "Four-bar linkage");
  CHECK(s.gravity == Vec3(0, -9.81, 0));
  REQUIRE(s.bodies.size() == 3);
  CHECK(s.bodies[0].mass == 1.0);
  CHECK(s.bodies[0].com == Vec3(0.15, 0, 0));
  CHECK(s.bodies[2].inertia == std::array<double, 6>{0.0002, 0.08, 0.08, 0, 0, 0});
  CHECK(s.bodies[0].pose.has_value());
  CHECK_FALSE(s.bodies[1].pose.has_value());
  REQUIRE(s.joints.size() == 4);
  const JointSpec& a = s.joints[0];
  CHECK(a.joint == Joint::revolute());
  CHECK(a.parent == "ground");
  CHECK(a.child == "crank");
  CHECK(a.q0 == std::vector<double>{0.3});
  CHECK(a.qd0 == std::vector<double>{0.0});
  REQUIRE(a.drive.has_value());
  CHECK(a.drive->kind == DriveSpec::Kind::Motion);
  CHECK(a.drive->expression == "0.3 + 2*pi*t");
  CHECK(a.parent_frame == PoseSpec{});
  CHECK(s.joints[2].parent_frame.position == Vec3(1.0, 0, 0));
  CHECK(s.joints[2].child_frame.orientation.coeffs() == Quat::Identity().coeffs());
  REQUIRE(s.joints[2].spring.has_value());
  CHECK(s.joints[2].spring->stiffness == 10.0);
  CHECK(s.joints[2].spring->rest == 0.1);
  CHECK(s.joints[2].spring->damping == 0.5);
  REQUIRE(s.simulation.has_value());
  CHECK(s.simulation->duration == 5.0);
  CHECK(s.simulation->step == 0.001);
  CHECK(s.simulation->integrator == "rk4");
  CHECK(s.extra == json::object());
}

TEST_CASE("optional fields take the contract's defaults", "[io]") {
  json doc = without(without(four_bar(), "/gravity"), "/simulation");
  doc = without(without(doc, "/joints/0/q0"), "/joints/0/drive");
  const MechanismSpec s = parse_project(doc.dump()).spec;
  CHECK(s.gravity == Vec3(0, -9.81, 0));
  CHECK_FALSE(s.simulation.has_value());
  CHECK_FALSE(s.joints[0].q0.has_value());
  CHECK_FALSE(s.joints[0].drive.has_value());
  const MechanismSpec sim =
      parse_project(with(four_bar(), "/simulation", json::object()).dump()).spec;
  CHECK(sim.simulation == SimulationSpec{});
}

TEST_CASE("syntax errors name line and column", "[io][errors]") {
  check_error_text("{\n  \"format\": \"articula\",\n  \"version\" 1\n}", "", "line 3, column 13");
  check_error_text("{\"format\": \"articula\",}", "", "line 1, column 23");
  check_error_text("", "", "line 1, column 1");
  check_error_text("{\"a\": \"ä\" x}", "", "line 1, column 11");  // characters, not bytes
  // nlohmann reports an overflow without a position; we still locate its start.
  check_error_text("{\n \"gravity\": [0, 1e400, 0]}", "", "line 2, column 17");
}

TEST_CASE("the document must be an articula object of version 1", "[io][errors]") {
  check_error_text("[1, 2]", "", "expected a JSON object");
  check_error(without(four_bar(), "/format"), "/format", "required field is missing");
  check_error(with(four_bar(), "/format", "urdf"), "/format", "expected \"articula\"");
  check_error(with(four_bar(), "/format", 1), "/format", "expected a string");
  check_error(without(four_bar(), "/version"), "/version", "required field is missing");
  check_error(with(four_bar(), "/version", 2), "/version",
              "written by a newer Articula (version 2); this build reads version 1");
  check_error(with(four_bar(), "/version", 0), "/version", "unsupported version 0");
  check_error(with(four_bar(), "/version", "1"), "/version", "expected a number");
  check_error(with(four_bar(), "/bodies", json::object()), "/bodies", "expected an array");
  check_error(with(four_bar(), "/name", 3), "/name", "expected a string");
}

TEST_CASE("body names are required, unique and not ground", "[io][errors]") {
  check_error(without(four_bar(), "/bodies/1/name"), "/bodies/1/name", "required");
  check_error(with(four_bar(), "/bodies/1/name", ""), "/bodies/1/name", "must not be empty");
  check_error(with(four_bar(), "/bodies/1/name", json::array()), "/bodies/1/name",
              "expected a string");
  check_error(with(four_bar(), "/bodies/2/name", "crank"), "/bodies/2/name",
              "duplicate body name 'crank' (first used at /bodies/0)");
  check_error(with(four_bar(), "/bodies/1/name", "ground"), "/bodies/1/name",
              "'ground' is the fixed world frame");
  check_error(with(four_bar(), "/bodies/1", 5), "/bodies/1", "expected an object");
}

TEST_CASE("body mass, com and inertia are checked", "[io][errors]") {
  check_error(with(four_bar(), "/bodies/0/mass", 0), "/bodies/0/inertia",
              "a massless body (mass 0) must have zero inertia");
  check_error(with(four_bar(), "/bodies/0/mass", -1.5), "/bodies/0/mass", "must be >= 0, got -1.5");
  json massless = with(four_bar(), "/bodies/0/mass", 0);  // an ideal link: mass and inertia 0
  massless["bodies"][0]["inertia"] = {0, 0, 0, 0, 0, 0};
  CHECK(parse_project(massless.dump()).spec.bodies[0].mass == 0.0);
  check_error(with(four_bar(), "/bodies/0/mass", "heavy"), "/bodies/0/mass", "expected a number");
  check_error(without(four_bar(), "/bodies/0/mass"), "/bodies/0/mass", "required");
  check_error(with(four_bar(), "/bodies/0/com", {1, 2}), "/bodies/0/com",
              "expected 3 numbers, got 2");
  check_error(with(four_bar(), "/bodies/0/com/1", nullptr), "/bodies/0/com/1",
              "expected a number, got null");
  check_error(with(four_bar(), "/bodies/0/inertia", {1, 1, 1}), "/bodies/0/inertia",
              "expected 6 numbers");
  check_error(with(four_bar(), "/bodies/0/inertia", {1, 1, 0, 0, 0, 0}), "/bodies/0/inertia",
              "positive definite");
  check_error(with(four_bar(), "/bodies/0/inertia", {1, 1, 3, 0, 0, 0}), "/bodies/0/inertia",
              "triangle inequality");
}

TEST_CASE("poses and frames are checked", "[io][errors]") {
  check_error(with(four_bar(), "/bodies/0/pose/quaternion", {0, 0, 0, 0}),
              "/bodies/0/pose/quaternion", "zero-length quaternion");
  check_error(with(four_bar(), "/bodies/0/pose/quaternion", {1, 0, 0}), "/bodies/0/pose/quaternion",
              "expected 4 numbers");
  check_error(with(four_bar(), "/bodies/0/pose/position", "origin"), "/bodies/0/pose/position",
              "expected 3 numbers, got a string");
  check_error(with(four_bar(), "/joints/1/parent_frame", {0, 0, 0}), "/joints/1/parent_frame",
              "expected an object");
  check_error(with(four_bar(), "/joints/2/child_frame/quaternion", {0, 0, 0, 0}),
              "/joints/2/child_frame/quaternion", "zero-length");
}

TEST_CASE("non-unit quaternions are normalised with a warning", "[io]") {
  json doc = with(four_bar(), "/bodies/0/pose/quaternion", {2, 0, 0, 0});
  doc = with(doc, "/joints/1/parent_frame/quaternion", {0.7071, 0, 0, 0.7071});
  const LoadResult r = parse_project(doc.dump());
  REQUIRE(r.warnings.size() == 2);
  CHECK_THAT(r.warnings[0],
             Catch::StartsWith("/bodies/0/pose/quaternion:") && Catch::Contains("normalised"));
  CHECK_THAT(r.warnings[1], Catch::StartsWith("/joints/1/parent_frame/quaternion:"));
  CHECK(r.spec.bodies[0].pose->orientation.coeffs() == Quat::Identity().coeffs());
  CHECK(std::abs(r.spec.joints[1].parent_frame.orientation.norm() - 1.0) < 1e-15);
  // Saved normalised, the file now loads without a warning.
  CHECK(parse_project(to_text(r.spec)).warnings.empty());
  // The quaternion part of spherical and free coordinates is treated alike.
  json sph = with(four_bar(), "/joints/1/type", "spherical");
  sph = with(sph, "/joints/1/q0", {0, 0, 3, 0});
  const LoadResult rs = parse_project(sph.dump());
  REQUIRE(rs.warnings.size() == 1);
  CHECK_THAT(rs.warnings[0], Catch::StartsWith("/joints/1/q0:"));
  CHECK(rs.spec.joints[1].q0 == std::vector<double>{0, 0, 1, 0});
  check_error(with(sph, "/joints/1/q0", {0, 0, 0, 0}), "/joints/1/q0", "zero-length");
}

TEST_CASE("joint names, types and bodies are checked", "[io][errors]") {
  check_error(without(four_bar(), "/joints/2/name"), "/joints/2/name", "required");
  check_error(with(four_bar(), "/joints/3/name", "B"), "/joints/3/name",
              "duplicate joint name 'B' (first used at /joints/1)");
  check_error(with(four_bar(), "/joints/2/type", "hinge"), "/joints/2/type",
              "unknown joint type 'hinge'; expected one of: revolute, prismatic, helical, "
              "cylindrical, universal, spherical, planar, free, fixed");
  check_error(without(four_bar(), "/joints/2/type"), "/joints/2/type", "required");
  check_error(with(four_bar(), "/joints/1/parent", "crnak"), "/joints/1/parent",
              "unknown body 'crnak'");
  check_error(with(four_bar(), "/joints/1/child", "nothing"), "/joints/1/child",
              "unknown body 'nothing'");
  check_error(with(four_bar(), "/joints/1/child", "crank"), "/joints/1/child",
              "parent and child are the same body 'crank'");
  check_error(with(four_bar(), "/joints/0/child", "ground"), "/joints/0/child", "same body");
  check_error(with(four_bar(), "/joints", {1}), "/joints/0", "expected an object");
}

TEST_CASE("helical joints need a pitch, and only they have one", "[io][errors]") {
  const json helical = with(four_bar(), "/joints/1/type", "helical");
  check_error(helical, "/joints/1/pitch", "required for a helical joint");
  check_error(with(helical, "/joints/1/pitch", "fine"), "/joints/1/pitch", "expected a number");
  CHECK(parse_project(with(helical, "/joints/1/pitch", 0.01).dump()).spec.joints[1].joint ==
        Joint::helical(0.01));
  check_error(with(four_bar(), "/joints/1/pitch", 0.01), "/joints/1/pitch",
              "only helical joints have a pitch");
}

TEST_CASE("q0 and qd0 have the joint type's sizes", "[io][errors]") {
  check_error(with(four_bar(), "/joints/0/q0", {1, 2}), "/joints/0/q0",
              "expected 1 number for a revolute joint, got 2");
  check_error(with(four_bar(), "/joints/0/qd0", 0.0), "/joints/0/qd0",
              "expected 1 number for a revolute joint, got a number");
  const json sph = with(without(four_bar(), "/joints/0/drive"), "/joints/0/type", "spherical");
  check_error(with(sph, "/joints/0/q0", {1, 0, 0}), "/joints/0/q0",
              "expected 4 numbers for a spherical joint, got 3");
  check_error(with(with(sph, "/joints/0/q0", {1, 0, 0, 0}), "/joints/0/qd0", {1, 2, 3, 4}),
              "/joints/0/qd0", "expected 3 numbers for a spherical joint, got 4");
  const json free = with(with(sph, "/joints/0/type", "free"), "/joints/0/q0", {0, 0, 0, 1});
  check_error(free, "/joints/0/q0", "expected 7 numbers for a free joint");
  check_error(with(four_bar(), "/joints/0/q0/0", true), "/joints/0/q0/0", "expected a number");
}

TEST_CASE("drives are checked", "[io][errors]") {
  check_error(with(four_bar(), "/joints/0/drive/type", "speed"), "/joints/0/drive/type",
              "unknown drive type 'speed'; expected \"motion\" or \"force\"");
  check_error(without(four_bar(), "/joints/0/drive/q"), "/joints/0/drive/q", "required");
  check_error(with(four_bar(), "/joints/0/drive/q", 0.3), "/joints/0/drive/q", "expected a string");
  check_error(with(four_bar(), "/joints/0/drive/q", "0.3 + sinn(t)"), "/joints/0/drive/q",
              "invalid expression \"0.3 + sinn(t)\": ");
  check_error(with(four_bar(), "/joints/0/drive/q", "2*(t"), "/joints/0/drive/q", "position");
  const json bare = without(without(four_bar(), "/joints/0/q0"), "/joints/0/qd0");
  check_error(with(bare, "/joints/0/type", "universal"), "/joints/0/drive",
              "a motion drive needs a 1-DOF joint; this is a universal joint with 2");
  const json force = json{{"type", "force"}, {"value", "3*t"}};
  const json cyl = with(bare, "/joints/0/type", "cylindrical");
  CHECK(parse_project(with(cyl, "/joints/0/drive", force).dump()).spec.joints[0].drive->kind ==
        DriveSpec::Kind::Force);
  check_error(with(with(four_bar(), "/joints/1/type", "fixed"), "/joints/1/drive", force),
              "/joints/1/drive", "a force drive needs a joint that can move");
  check_error(with(four_bar(), "/joints/0/drive", "motion"), "/joints/0/drive",
              "expected an object");
}

TEST_CASE("springs are checked", "[io][errors]") {
  check_error(with(four_bar(), "/joints/2/spring/stiffness", -1), "/joints/2/spring/stiffness",
              "must be >= 0");
  check_error(with(four_bar(), "/joints/2/spring/damping", -0.5), "/joints/2/spring/damping",
              "must be >= 0");
  check_error(with(four_bar(), "/joints/2/spring/rest", "0"), "/joints/2/spring/rest",
              "expected a number");
  check_error(with(four_bar(), "/joints/2/type", "planar"), "/joints/2/spring",
              "a spring needs a 1-DOF joint; this is a planar joint with 3");
}

TEST_CASE("gravity and simulation settings are checked", "[io][errors]") {
  check_error(with(four_bar(), "/gravity", {0, -9.81}), "/gravity", "expected 3 numbers");
  check_error(with(four_bar(), "/simulation/duration", 0), "/simulation/duration", "must be > 0");
  check_error(with(four_bar(), "/simulation/step", -0.001), "/simulation/step", "must be > 0");
  check_error(with(four_bar(), "/simulation/step", 6), "/simulation/step",
              "exceeds the duration 5.0");
  check_error(with(four_bar(), "/simulation/integrator", "verlet"), "/simulation/integrator",
              "unknown integrator 'verlet'; expected one of: rk4, euler");
  check_error(with(four_bar(), "/simulation/integrator", 4), "/simulation/integrator",
              "expected a string");
  check_error(with(four_bar(), "/simulation", 5), "/simulation", "expected an object");
}

TEST_CASE("every body must be connected to ground", "[io][errors]") {
  json doc = four_bar();
  doc["bodies"].push_back(
      {{"name", "loose"}, {"mass", 1}, {"com", {0, 0, 0}}, {"inertia", {1, 1, 1, 0, 0, 0}}});
  check_error(doc, "/bodies/3", "body 'loose' is not connected to ground by any joint");
  // Connected through a joint pointing the other way (child towards ground) counts.
  json island = without(without(four_bar(), "/joints/3"), "/joints/0");
  check_error(island, "/bodies/0", "body 'crank' is not connected to ground");
  island["joints"].push_back(
      {{"name", "E"}, {"type", "revolute"}, {"parent", "rocker"}, {"child", "ground"}});
  CHECK_NOTHROW(parse_project(island.dump()));
}

TEST_CASE("sketched links not connected to ground are saved under /sketch/floating", "[io]") {
  // The four-bar plus a sketched link pair (two bodies, one pin between them, a spring on one)
  // that no joint connects to ground yet, listed between the grounded parts.
  MechanismSpec spec = parse_project(four_bar().dump()).spec;
  BodySpec a = spec.bodies[0], b = spec.bodies[0];
  a.name = "loose_a", b.name = "loose_b";
  spec.bodies.insert(spec.bodies.begin() + 1, a);
  spec.bodies.push_back(b);
  JointSpec pin = spec.joints[1];
  pin.name = "P", pin.parent = "loose_a", pin.child = "loose_b";
  spec.joints.insert(spec.joints.begin(), pin);
  ForceSpec f;
  f.name = "S", f.body1 = "ground", f.body2 = "loose_b", f.stiffness = 10;
  spec.forces.push_back(f);
  spec.extra["sketch"] = {{"ground_points", {{0, 0, 0}}}};

  const json saved = to_json(spec);
  // The file is valid format v1: only grounded parts in the main lists.
  CHECK(saved["bodies"].size() == 3);
  CHECK(saved["joints"].size() == 4);
  CHECK_FALSE(saved.contains("forces"));
  const json& floating = saved["sketch"]["floating"];
  CHECK(floating["bodies"].size() == 2);
  CHECK(floating["bodies"][0]["name"] == "loose_a");
  CHECK(floating["joints"].size() == 1);
  CHECK(floating["forces"][0]["name"] == "S");
  CHECK(saved["sketch"]["ground_points"].size() == 1);  // the sketch's other data kept

  // Default load (simulator, articula-cli): the mechanism without them, and a warning.
  const LoadResult plain = parse_project(to_text(spec));
  CHECK(plain.spec.bodies.size() == 3);
  CHECK(plain.spec.forces.empty());
  REQUIRE(plain.warnings.size() == 1);
  CHECK_THAT(plain.warnings[0], Catch::Contains("/sketch/floating: 2 sketched link(s)"));
  CHECK(to_json(plain.spec) == saved);  // kept verbatim through a save

  // The editor gets them back; saving again writes the same text.
  const LoadResult restored = parse_project(to_text(spec), LoadOptions{.restore_floating = true});
  CHECK(restored.spec.bodies.size() == 5);
  CHECK(restored.spec.joints.size() == 5);
  CHECK(restored.spec.forces.size() == 1);
  CHECK_FALSE(restored.spec.extra["sketch"].contains("floating"));
  CHECK(restored.spec.grounded_bodies() == std::vector<bool>{true, true, true, false, false});
  CHECK(to_text(restored.spec) == to_text(spec));

  // Everything in it is validated, named by its own pointer, names unique across both parts.
  json bad = saved;
  bad["sketch"]["floating"]["bodies"][1]["mass"] = -1;
  CHECK_THROWS_WITH(parse_project(bad.dump(), LoadOptions{.restore_floating = true}),
                    Catch::Contains("/sketch/floating/bodies/1/mass"));
  bad = saved;
  bad["sketch"]["floating"]["bodies"][0]["name"] = "crank";
  try {
    (void)parse_project(bad.dump(), LoadOptions{.restore_floating = true});
    FAIL("a duplicate name was accepted");
  } catch (const ProjectError& e) {
    CHECK(e.pointer == "/sketch/floating/bodies/0/name");
    CHECK_THAT(std::string(e.what()), Catch::Contains("first used at /bodies/0"));
  }
  CHECK_THROWS_WITH(parse_project(with(saved, "/sketch/floating", 3).dump(),
                                  LoadOptions{.restore_floating = true}),
                    Catch::Contains("/sketch/floating: expected an object"));
}

TEST_CASE("unknown fields are kept everywhere and written back", "[io]") {
  const MechanismSpec s = parse_project(kKitchenSink).spec;
  CHECK(s.extra == json::parse(R"json({"author": "tester", "editor": { "zoom": 1.5,
      "camera": [1, 2, 3], "layers": [{ "name": "a" }] }})json"));
  CHECK(s.bodies[0].extra == json{{"color", "#ff0000"}});
  CHECK(s.bodies[0].pose->extra == json{{"locked", true}});
  CHECK(s.joints[0].extra == json{{"note", "rotates"}});
  CHECK(s.joints[0].parent_frame.extra == json{{"tag", 7}});
  CHECK(s.joints[1].drive->extra == json{{"units", "N m"}});
  CHECK(s.joints[1].spring->extra == json{{"preload", {1, 2}}});
  CHECK(s.simulation->extra == json{{"tolerance", 1e-9}});
  const json saved = json::parse(to_text(s));
  CHECK(saved["editor"] == s.extra["editor"]);
  CHECK(saved["author"] == "tester");
  CHECK(saved["bodies"][0]["color"] == "#ff0000");
  CHECK(saved["bodies"][0]["pose"]["locked"] == true);
  CHECK(saved["joints"][0]["note"] == "rotates");
  CHECK(saved["joints"][0]["parent_frame"]["tag"] == 7);
  CHECK(saved["joints"][1]["drive"]["units"] == "N m");
  CHECK(saved["joints"][1]["spring"]["preload"] == json{1, 2});
  CHECK(saved["simulation"]["tolerance"] == 1e-9);
  CHECK(to_json(s) == saved);
}

TEST_CASE("load, save, load is the identity", "[io]") {
  for (const char* text : {kFourBar, kKitchenSink}) {
    const LoadResult first = parse_project(text);
    CHECK(first.warnings.empty());
    const std::string saved = to_text(first.spec);
    const LoadResult second = parse_project(saved);
    CHECK(second.spec == first.spec);
    CHECK(second.warnings.empty());
    CHECK(to_text(second.spec) == saved);  // byte-identical
  }
}

TEST_CASE("saved text follows the contract's layout", "[io]") {
  const std::string text = to_text(parse_project(kFourBar).spec);
  CHECK(text.rfind("{\n  \"format\": \"articula\",\n  \"version\": 1,\n  \"name\": ", 0) == 0);
  CHECK(text.back() == '\n');
  CHECK(text.find("\"gravity\": [0.0, -9.81, 0.0]") != std::string::npos);
  CHECK(text.find("\"q0\": [0.3]") != std::string::npos);
  // Identity frames are the default and are left out; others are written.
  const json saved = json::parse(text);
  CHECK_FALSE(saved["joints"][0].contains("parent_frame"));
  CHECK_FALSE(saved["joints"][3].contains("child_frame"));
  CHECK(saved["joints"][3]["parent_frame"]["quaternion"] == json{1.0, 0.0, 0.0, 0.0});
  CHECK(saved["bodies"][0].contains("pose"));
  CHECK_FALSE(saved["bodies"][1].contains("pose"));
  // Gravity is always written, even when it is the default.
  MechanismSpec empty;
  const json minimal = json::parse(to_text(empty));
  CHECK(minimal["gravity"] == json{0.0, -9.81, 0.0});
  CHECK_FALSE(minimal.contains("simulation"));
  CHECK(parse_project(to_text(empty)).spec == empty);
}

TEST_CASE("save_project replaces the target atomically", "[io][save]") {
  TempDir dir;
  const fs::path target = dir.path / "four-bar.json";
  std::ofstream(target) << "old contents";
  ::chmod(target.c_str(), 0640);
  const MechanismSpec spec = parse_project(kFourBar).spec;
  save_project(spec, target.string());
  // No temp file left; the replaced version is kept as the backup.
  CHECK(dir.entries() == std::vector<std::string>{"four-bar.json", "four-bar.json.bak"});
  CHECK(read_file(target) == to_text(spec));
  CHECK(read_file(dir.path / "four-bar.json.bak") == "old contents");
  CHECK(backup_path(target.string()) == (dir.path / "four-bar.json.bak").string());
  CHECK(load_project(target.string()).spec == spec);
  struct stat st;
  REQUIRE(::stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);  // the user's permissions survive the replacement
  // A new file is created too.
  save_project(spec, (dir.path / "new.json").string());  // nothing to back up
  CHECK(dir.entries() ==
        std::vector<std::string>{"four-bar.json", "four-bar.json.bak", "new.json"});
  // The next save makes the current version the backup.
  MechanismSpec renamed = spec;
  renamed.name = "second";
  save_project(renamed, target.string());
  CHECK(read_file(dir.path / "four-bar.json.bak") == to_text(spec));
  CHECK(load_project(target.string()).spec == renamed);
}

TEST_CASE("a failed save leaves nothing behind", "[io][save]") {
  TempDir dir;
  const MechanismSpec spec = parse_project(kFourBar).spec;
  const fs::path missing = dir.path / "no-such-dir" / "p.json";
  CHECK_THROWS_AS(save_project(spec, missing.string()), std::runtime_error);
  CHECK_FALSE(fs::exists(missing.parent_path()));
  CHECK(dir.entries().empty());
  // Renaming a file over a directory fails after the temp file was written: it is removed.
  fs::create_directory(dir.path / "taken");
  CHECK_THROWS_AS(save_project(spec, (dir.path / "taken").string()), std::runtime_error);
  CHECK(dir.entries() == std::vector<std::string>{"taken"});
  // A spec that cannot be written (not finite) fails before touching the disk.
  MechanismSpec bad = spec;
  bad.bodies[1].mass = std::nan("");
  CHECK_THROWS_WITH(save_project(bad, (dir.path / "bad.json").string()),
                    Catch::Contains("/bodies/1/mass"));
  CHECK(dir.entries() == std::vector<std::string>{"taken"});
}

TEST_CASE("load_project reports unreadable files", "[io][errors]") {
  TempDir dir;
  try {
    (void)load_project((dir.path / "absent.json").string());
    FAIL("no error for a missing file");
  } catch (const ProjectError& e) {
    CHECK(e.pointer.empty());
    CHECK_THAT(std::string(e.what()), Catch::Contains("cannot open") && Catch::Contains("absent"));
  }
  CHECK_THROWS_AS(load_project(dir.path.string()), ProjectError);  // a directory
}

TEST_CASE("truncated and garbled input never crashes", "[io][robust]") {
  std::size_t parsed = 0, rejected = 0;
  auto attempt = [&](const std::string& text) {
    try {
      (void)parse_project(text);
      ++parsed;
    } catch (const ProjectError&) {
      ++rejected;
    }
  };
  for (const std::string doc : {kFourBar, kKitchenSink})
    for (std::size_t n = 0; n <= doc.size(); ++n) attempt(doc.substr(0, n));
  CHECK(parsed == 4);  // each whole document, with and without its trailing newline
  std::mt19937 rng(20240601);
  const std::string garbage = "{}[]\",:0-e.\\\0\xff\xc3tfn "s;
  const std::string doc = kFourBar;
  for (int i = 0; i < 4000; ++i) {
    std::string text = doc;
    for (int k = 0; k < 3; ++k) text[rng() % text.size()] = garbage[rng() % garbage.size()];
    attempt(text);
  }
  CHECK(parsed + rejected ==
        std::string(kFourBar).size() + std::string(kKitchenSink).size() + 2 + 4000);
}

}  // namespace articula
