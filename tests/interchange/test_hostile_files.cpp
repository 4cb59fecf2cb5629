// Hostile exchange files (tests/data/interchange/hostile, also the interchange fuzz corpus): a
// clear message naming file, line and element, or a warning; never a crash. And the CLI's
// convert: exit 2 with that message, 0 with the warnings on stderr.
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/io/visual_json.hpp"
#include "core/sim/mechanism.hpp"
#include "interchange/convert.hpp"
#include "interchange/xml_text.hpp"
#include "tests/app/cli_support.hpp"

using namespace articula;
using namespace articula::test;

namespace {
const std::string kHostile = std::string(ARTICULA_SOURCE_DIR) + "/tests/data/interchange/hostile/";

std::string import_error(const std::string& file) {
  try {
    import_mechanism(kHostile + file);
  } catch (const InterchangeError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("hostile URDF and SDF files are refused naming the line and the element", "[hostile]") {
  const std::vector<std::array<std::string, 2>> cases = {
      {"malformed.urdf", "malformed.urdf:5: malformed XML"},
      {"not_urdf.urdf", "not_urdf.urdf:1: not a URDF file"},
      {"unknown_joint_type.urdf",
       "unknown_joint_type.urdf:4: <joint name='elbow'>: unknown type 'hinge'"},
      {"unknown_link.urdf", "unknown_link.urdf:4: <joint name='j'>: unknown child link 'nowhere'"},
      {"fixed_joint_cycle.urdf",
       "fixed_joint_cycle.urdf:8: <joint name='ba'>: joints form a cycle: ba ab"},
      {"self_joint.urdf", "<joint name='j'>: joints form a cycle"},
      {"revolute_without_limits.urdf",
       "revolute_without_limits.urdf:4: <joint name='elbow'>: urdfdom: Joint [elbow] is of type "
       "REVOLUTE but it does not specify limits"},
      {"zero_axis.urdf", "zero_axis.urdf:4: <joint name='j'>: zero <axis>"},
      {"malformed.sdf", "malformed.sdf:4: malformed XML"},
      {"unknown_joint_type.sdf",
       "unknown_joint_type.sdf:4: <joint name='elbow'>: unknown type 'hinge'"},
      {"unknown_link.sdf", "Child frame with name[nowhere] specified by joint with name[j]"},
      {"skew_universal.sdf",
       "skew_universal.sdf:5: <joint name='u'>: axis and axis2 are not perpendicular"},
      {"gearbox_without_joints.sdf", "<joint name='g'>: no 1-DoF joint between reference body"},
      {"no_model.sdf", "no_model.sdf: no <model>"},
  };
  for (const auto& [file, message] : cases) {
    INFO(file);
    CHECK_THAT(import_error(file), Catch::Contains(message));
  }
}

TEST_CASE("mesh references and links without inertia are warnings", "[hostile]") {
  const Imported mesh = import_mechanism(kHostile + "mesh_reference.urdf");
  REQUIRE(mesh.warnings.size() == 1);
  CHECK_THAT(mesh.warnings[0], Catch::Contains("mesh_reference.urdf:4: <link name='a'>: mesh "
                                               "'package://arm/meshes/a.stl' not imported"));
  CHECK(mesh.spec.bodies.size() == 1);
  const Imported massless = import_mechanism(kHostile + "missing_inertial.urdf");
  REQUIRE(massless.warnings.size() == 1);
  CHECK_THAT(massless.warnings[0], Catch::Contains(":4: <link name='b'>: no <inertial>: massless"));
}

TEST_CASE("visuals of no size, or of shapes not drawn, are warnings naming the link", "[hostile]") {
  const Imported urdf = import_mechanism(kHostile + "bad_visuals.urdf");
  REQUIRE(urdf.warnings.size() == 3);  // box 0 wide, sphere radius -1, cylinder 0 long
  for (const std::string& w : urdf.warnings)
    CHECK_THAT(w, Catch::Contains("bad_visuals.urdf:3: <link name='a'>: a <visual>") &&
                      Catch::Contains("not imported"));
  REQUIRE(urdf.spec.bodies.size() == 1);
  CHECK(body_visuals(urdf.spec.bodies[0]).size() == 1);  // the good box
  const Imported sdf = import_mechanism(kHostile + "bad_visuals.sdf");
  REQUIRE(sdf.warnings.size() == 2);
  CHECK_THAT(sdf.warnings[0], Catch::Contains("bad_visuals.sdf:2: <link name='a'>: <visual "
                                              "name='flat'>: a size <= 0"));
  CHECK_THAT(sdf.warnings[1], Catch::Contains("<visual name='ground'> not imported"));
  CHECK(body_visuals(sdf.spec.bodies[0]).size() == 1);  // the sphere
}

TEST_CASE("every hostile file imports or is refused with InterchangeError, never worse",
          "[hostile]") {
  for (const auto& entry : std::filesystem::directory_iterator(kHostile)) {
    INFO(entry.path().string());
    try {
      const Imported in = import_mechanism(entry.path().string());
      try {
        prepare(in.spec);
      } catch (const std::invalid_argument&) {  // SetupError and compile errors: named problems
      } catch (const std::runtime_error&) {
      }
    } catch (const InterchangeError& e) {
      CHECK(std::string(e.what()).find(entry.path().filename().string()) != std::string::npos);
    }
  }
}

TEST_CASE("articula-cli convert: by extension, warnings on stderr, exit 2 naming the line",
          "[hostile][cli]") {
  Workspace ws;
  const std::string sample = std::string(ARTICULA_SOURCE_DIR) + "/samples/stewart_platform.json";
  const Run sdf = cli(ws, "convert " + sample + " " + (ws.dir / "stewart.sdf").string());
  CHECK(sdf.status == 0);
  CHECK_THAT(sdf.err, Catch::Contains("warning: joint 'P1': drive not exported"));
  const Run back = cli(ws, "convert " + (ws.dir / "stewart.sdf").string() + " " +
                               (ws.dir / "stewart.json").string());
  CHECK(back.status == 0);
  const Run info = cli(ws, "info " + (ws.dir / "stewart.json").string());
  CHECK(json::parse(info.out)["mobility"] == 6);
  const Run mjcf = cli(ws, "convert " + sample + " " + (ws.dir / "stewart.xml").string());
  CHECK(mjcf.status == 0);
  const Run loops = cli(ws, "convert " + sample + " " + (ws.dir / "stewart.urdf").string());
  CHECK(loops.status == 2);
  CHECK_THAT(loops.err, Catch::Contains("URDF cannot hold closed loops"));
  CHECK(!fs::exists(ws.dir / "stewart.urdf"));
  const Run bad =
      cli(ws, "convert " + kHostile + "unknown_joint_type.urdf " + (ws.dir / "x.json").string());
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Contains("unknown_joint_type.urdf:4: <joint name='elbow'>"));
  const Run ext = cli(ws, "convert " + sample + " " + (ws.dir / "x.step").string());
  CHECK(ext.status == 2);
  CHECK_THAT(ext.err, Catch::Contains("unknown extension"));
}
