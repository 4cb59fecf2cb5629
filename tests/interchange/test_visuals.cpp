// Visual boxes, cylinders and spheres through URDF and SDFormat: read in the link frame, meshes
// warned about, and written back so that every shape stays where it was in the world (checked with
// forward kinematics, independent of the writers' frame bookkeeping).
#include <catch2/catch.hpp>

#include "core/io/project.hpp"
#include "core/io/visual_json.hpp"
#include "interchange/convert.hpp"
#include "interchange/sdf.hpp"
#include "interchange/urdf.hpp"
#include "tests/interchange/visual_fixture.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;
using namespace articula::test;

TEST_CASE("URDF visual boxes, cylinders and spheres are imported in the link frame", "[urdf]") {
  const std::string text = R"(<robot name="arm">
  <link name="world"/>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.1 0 0" rpy="0 1.5707963267948966 0"/>
      <geometry><cylinder radius="0.02" length="0.2"/></geometry></visual>
    <visual><origin xyz="0.2 0 0"/><geometry><box size="0.05 0.06 0.07"/></geometry></visual>
    <visual><geometry><sphere radius="0.03"/></geometry></visual>
    <visual><geometry><mesh filename="package://arm/upper.stl"/></geometry></visual>
    <visual><geometry><box size="0 0.06 0.07"/></geometry></visual>
  </link>
  <joint name="shoulder" type="continuous"><parent link="world"/><child link="upper"/></joint>
</robot>)";
  std::vector<std::string> warnings;
  const MechanismSpec s = import_urdf(text, "arm.urdf", warnings);
  const std::vector<VisualSpec> v = body_visuals(s.bodies.at(0));
  REQUIRE(v.size() == 3);
  CHECK(v[0].shape == VisualSpec::Shape::Cylinder);
  CHECK(v[0].radius == 0.02);
  CHECK(v[0].length == 0.2);
  CHECK(v[0].frame.position == Vec3(0.1, 0, 0));
  // rpy (0, pi/2, 0): the cylinder's axis (frame z) along the link's x; 1e-15: the quaternion
  // from urdfdom's rpy in double precision.
  CHECK((v[0].frame.orientation.toRotationMatrix().col(2) - Vec3::UnitX()).norm() <= 1e-15);
  CHECK(v[1].shape == VisualSpec::Shape::Box);
  CHECK(v[1].size == Vec3(0.05, 0.06, 0.07));
  CHECK(v[2].shape == VisualSpec::Shape::Sphere);
  CHECK(v[2].radius == 0.03);
  REQUIRE(warnings.size() == 2);
  CHECK_THAT(warnings[0], Catch::Contains("arm.urdf:9:") && Catch::Contains("upper.stl"));
  CHECK_THAT(warnings[1],
             Catch::Contains("arm.urdf:3: <link name='upper'>") && Catch::Contains("size <= 0"));
}

TEST_CASE("SDFormat visuals are imported in the link frame, meshes warned about", "[sdf]") {
  const std::string text = R"(<sdf version="1.9"><model name="m">
  <link name="a"><pose>1 0 0 0 0 1.5707963267948966</pose>
    <inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
    <visual name="bar"><pose>0.2 0 0 0 0 0</pose><geometry><box><size>0.4 0.02 0.01</size></box></geometry></visual>
    <visual name="pin"><pose relative_to="__model__">1 0 0 0 0 0</pose>
      <geometry><cylinder><radius>0.01</radius><length>0.03</length></cylinder></geometry></visual>
    <visual name="ball"><geometry><sphere><radius>0.05</radius></sphere></geometry></visual>
    <visual name="shell"><geometry><mesh><uri>shell.dae</uri></mesh></geometry></visual>
  </link>
  <joint name="j" type="revolute"><parent>world</parent><child>a</child><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>)";
  std::vector<std::string> warnings;
  const MechanismSpec s = import_sdf(text, "m.sdf", warnings);
  const std::vector<VisualSpec> v = body_visuals(s.bodies.at(0));
  REQUIRE(v.size() == 3);
  CHECK(v[0].size == Vec3(0.4, 0.02, 0.01));
  CHECK((v[0].frame.position - Vec3(0.2, 0, 0)).norm() <= 1e-15);
  // relative to the model frame: the link's origin, its axes turned back by -90 degrees about z
  CHECK(v[1].frame.position.norm() <= 1e-15);
  CHECK((v[1].frame.orientation.toRotationMatrix().col(0) - Vec3(0, -1, 0)).norm() <= 1e-15);
  CHECK(v[1].length == 0.03);
  CHECK(v[2].radius == 0.05);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0],
             Catch::Contains("m.sdf:2: <link name='a'>") && Catch::Contains("'shell'"));
}

TEST_CASE("visuals go out to URDF and SDFormat and back to the same place", "[urdf][sdf]") {
  const Mechanism a = prepare(dressed_pendulum());
  const std::vector<Transform> at_q0 = visual_poses(a, a.q0);
  REQUIRE(at_q0.size() == 4);
  std::vector<std::string> warnings;
  // URDF link frames are the joint frames, zero unchanged: the same q puts every shape in the
  // same place. 1e-14: rpy text round trips and frame products on ~1 m lengths.
  const MechanismSpec u =
      import_urdf(export_text(a.spec, ExchangeFormat::Urdf, warnings), "exported.urdf", warnings);
  const Mechanism ub = prepare(u);
  CHECK(largest_difference(visual_poses(ub, a.q0), at_q0) <= 1e-14);
  CHECK(body_visuals(u.bodies[1])[0].shape == VisualSpec::Shape::Sphere);
  CHECK(body_visuals(u.bodies[0])[1].length == 0.05);
  // SDFormat keeps the body frames and writes the assembled state as zero: b at its q0.
  const MechanismSpec s =
      import_sdf(export_text(a.spec, ExchangeFormat::Sdf, warnings), "exported.sdf", warnings);
  const Mechanism sb = prepare(s);
  CHECK(largest_difference(visual_poses(sb, sb.q0), at_q0) <= 1e-14);
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t k = 0; k < 2; ++k) {
      const VisualSpec x = body_visuals(s.bodies[b])[k], y = body_visuals(a.spec.bodies[b])[k];
      CHECK(x.shape == y.shape);
      CHECK(x.size == y.size);
      CHECK(x.radius == y.radius);
      CHECK((x.frame.position - y.frame.position).norm() <= 1e-15);
    }
  // and through the project file: nothing lost on the way
  CHECK(parse_project(to_text(s)).spec.bodies == s.bodies);
}
