// URDF import (liburdfdom) and export: the iiwa14 against the benchmark's model, tree samples out
// and back, mimic joints as couplings, loops refused by name.
#include <catch2/catch.hpp>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "interchange/convert.hpp"
#include "interchange/urdf.hpp"
#include "tests/interchange/dynamics_compare.hpp"
#include "tests/support/fixtures.hpp"
#ifdef ARTICULA_TEST_BENCH_MODELS
#include "bench/bench_models.hpp"
#endif

using namespace articula;
using namespace articula::test;

namespace {
const std::string kData = std::string(ARTICULA_SOURCE_DIR) + "/tests/data/interchange/";

// URDF has no gravity (readers take -9.81 along z): the original's is put back to compare.
Mechanism through_urdf(const MechanismSpec& spec, std::vector<std::string>& warnings) {
  const std::string text = export_text(spec, ExchangeFormat::Urdf, warnings);
  MechanismSpec back = import_urdf(text, "exported.urdf", warnings);
  back.gravity = spec.gravity;
  return prepare(back);
}
}  // namespace

TEST_CASE("the iiwa14 URDF imports with its limits, damping and root fixed to ground", "[urdf]") {
  const Imported in = import_mechanism(kData + "iiwa14.urdf");
  REQUIRE(in.warnings.size() == 1);  // the root link is fixed to ground
  CHECK(in.warnings[0].find("iiwa_link_0") != std::string::npos);
  const MechanismSpec& s = in.spec;
  CHECK(s.bodies.size() == 8);
  CHECK(s.joints.size() == 8);
  CHECK(s.gravity == Vec3(0, 0, -9.81));
  const JointSpec& j1 = s.joints[s.joint_index("iiwa_joint_1")];
  REQUIRE(j1.limits);
  CHECK(*j1.limits->lower == -2.96705972839);
  CHECK(*j1.limits->upper == 2.96705972839);
  REQUIRE(j1.friction);
  CHECK(j1.friction->viscous == 0.5);
}

#ifdef ARTICULA_TEST_BENCH_MODELS
TEST_CASE("the iiwa14 URDF has the benchmark model's mass matrix", "[urdf]") {
  const Mechanism mech = prepare(import_mechanism(kData + "iiwa14.urdf").spec);
  const Model bench = bench::make_iiwa14();
  std::mt19937 rng(11);
  for (int trial = 0; trial < 5; ++trial) {
    const VecX q = random_configuration(bench, rng);
    VecX qi = VecX::Zero(mech.model().nq);
    for (int k = 0; k < 7; ++k)
      qi[mech.compiled.q_index(mech.spec.joint_index("iiwa_joint_" + std::to_string(k + 1)))] =
          q[k];
    Data db(bench), di(mech.model());
    const MatX Hb = crba(bench, db, q);
    const MatX Hi = crba(mech.model(), di, qi);
    REQUIRE(Hi.rows() == 7);
    CHECK((Hb - Hi).cwiseAbs().maxCoeff() <= 1e-12 * Hb.cwiseAbs().maxCoeff());
  }
}
#endif

TEST_CASE("tree samples go to URDF and back with the same dynamics", "[urdf]") {
  for (const char* name : {"puma560", "double_pendulum", "pendulum"}) {
    INFO(name);
    const Mechanism a = prepare(load_project(sample_path(std::string(name) + ".json")).spec);
    std::vector<std::string> warnings;
    const Mechanism b = through_urdf(a.spec, warnings);
    const DynamicsDifference d = compare_dynamics(a, b, same_coordinates);
    CHECK(d.tree_joints == static_cast<int>(a.spec.joints.size()));
    CHECK(d.H <= 1e-12);
    CHECK(d.tau <= 1e-12);
  }
  // import -> JSON -> export -> import
  const Mechanism first = prepare(import_mechanism(kData + "iiwa14.urdf").spec);
  std::vector<std::string> warnings;
  const Mechanism second = through_urdf(parse_project(to_text(first.spec)).spec, warnings);
  const DynamicsDifference d = compare_dynamics(first, second, same_coordinates);
  CHECK(d.H <= 1e-12);
  CHECK(d.tau <= 1e-12);
  CHECK(second.spec.joints[second.spec.joint_index("iiwa_joint_4")].limits ==
        first.spec.joints[first.spec.joint_index("iiwa_joint_4")].limits);
}

TEST_CASE("URDF mimic joints are couplings, and couplings are written as mimic", "[urdf]") {
  const std::string text = R"(<robot name="gripper">
  <link name="world"/>
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="ja" type="continuous"><parent link="world"/><child link="a"/><axis xyz="0 1 0"/></joint>
  <joint name="jb" type="prismatic"><parent link="world"/><child link="b"/><origin xyz="1 0 0"/>
    <axis xyz="1 0 0"/><limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>
    <mimic joint="ja" multiplier="-0.25" offset="0.1"/></joint>
</robot>)";
  std::vector<std::string> warnings;
  const MechanismSpec s = import_urdf(text, "gripper.urdf", warnings);
  REQUIRE(s.couplings.size() == 1);
  CHECK(s.couplings[0].joints == std::array<std::string, 2>{"ja", "jb"});
  CHECK(s.couplings[0].ratio == -0.25);
  CHECK(s.joints[s.joint_index("jb")].q0 == std::vector<double>{0.1});
  const Mechanism m = prepare(s);
  CHECK(m.mobility.mobility == 1);
  const std::string out = to_urdf(m, warnings);
  CHECK(out.find("<mimic joint='ja' multiplier='-0.25' offset='0.1'/>") != std::string::npos);
}

TEST_CASE("URDF export refuses loops and joints URDF cannot hold, by name", "[urdf]") {
  std::vector<std::string> warnings;
  const Mechanism fourbar = prepare(load_project(sample_path("fourbar.json")).spec);
  CHECK_THROWS_WITH(to_urdf(fourbar, warnings),
                    Catch::Contains("loop joints 'B'") && Catch::Contains("SDFormat"));
  const Mechanism rssr = prepare(load_project(sample_path("rssr.json")).spec);
  CHECK_THROWS_WITH(to_urdf(rssr, warnings), Catch::Contains("URDF cannot hold closed loops"));
}

TEST_CASE("URDF floating and planar joints: six and three freedoms, free fall in closed form",
          "[urdf]") {
  // A block on a floating joint and one on a planar joint whose normal is y (URDF: the joint
  // moves in the plane perpendicular to its axis), both under the readers' gravity, -9.81 z.
  const std::string text = R"(<robot name="free">
  <link name="world"/>
  <link name="a"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="fa" type="floating"><parent link="world"/><child link="a"/><origin xyz="0 0 1"/></joint>
  <joint name="pb" type="planar"><parent link="world"/><child link="b"/><origin xyz="1 0.5 2"/>
    <axis xyz="0 1 0"/></joint>
</robot>)";
  std::vector<std::string> warnings;
  MechanismSpec s = import_urdf(text, "free.urdf", warnings);
  s.gravity = Vec3(0, 0, -9.81);
  const Mechanism m = prepare(s);
  CHECK(m.mobility.mobility == 9);  // 6 + 3
  CHECK(m.model().joints[m.model().body_index("a")].nv() == 6);
  CHECK(m.model().joints[m.model().body_index("b")].nv() == 3);
  Simulation sim(m);
  for (int k = 0; k < 500; ++k) sim.step(1e-3, Integrator::RK4);
  Data d(m.model());
  forward_kinematics(m.model(), d, sim.q());
  const double drop = 0.5 * 9.81 * 0.5 * 0.5;  // ½ g t² at t = 0.5 s
  // RK4 integrates a constant acceleration exactly: round-off only.
  CHECK((body_position(d, m.model().body_index("a")) - Vec3(0, 0, 1 - drop)).norm() <= 1e-12);
  CHECK((body_position(d, m.model().body_index("b")) - Vec3(1, 0.5, 2 - drop)).norm() <= 1e-12);
}
