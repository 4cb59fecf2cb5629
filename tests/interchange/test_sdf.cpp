// SDFormat import and export with closed chains: hand-written loops simulate after import with
// the loops closed; samples go out to SDF and back with the same dynamics, loops and couplings.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "interchange/convert.hpp"
#include "interchange/sdf.hpp"
#include "tests/interchange/dynamics_compare.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;
using namespace articula::test;

namespace {
std::string data_file(const std::string& name) {
  return std::string(ARTICULA_SOURCE_DIR) + "/tests/data/interchange/" + name;
}

MechanismSpec passive(MechanismSpec spec) {  // drives off: the mechanism moves under gravity
  for (JointSpec& j : spec.joints) j.drive.reset();
  return spec;
}

// Simulates 0.5 s (RK4, 1 ms) and returns the largest loop error on the way.
double simulated_loop_error(const Mechanism& mech) {
  Simulation sim(mech);
  double worst = sim.loop_error();
  for (int n = 0; n < 500; ++n) {
    sim.step(1e-3, Integrator::RK4);
    worst = std::max(worst, sim.loop_error());
  }
  return worst;
}

Mechanism through_sdf(const MechanismSpec& spec, std::vector<std::string>& warnings) {
  const std::string text = export_text(spec, ExchangeFormat::Sdf, warnings);
  return prepare(import_sdf(text, "exported.sdf", warnings));
}
}  // namespace

TEST_CASE("a Drake-style four-bar SDF imports as a closed loop and simulates", "[sdf]") {
  const Imported in = import_mechanism(data_file("four_bar.sdf"));
  CHECK(in.warnings.empty());
  const Mechanism mech = prepare(in.spec);
  REQUIRE(mech.compiled.loops.size() == 1);
  CHECK(mech.compiled.loops[0].name == "B");  // the joint whose child was already reached
  CHECK(mech.mobility.mobility == 1);
  CHECK(mech.spec.gravity == Vec3(0, 0, -9.81));
  CHECK(mech.assembly.residual <= 1e-12);
  CHECK(simulated_loop_error(mech) <= 1e-12);
}

TEST_CASE("a five-bar SDF world imports with two degrees of freedom and its gravity", "[sdf]") {
  const Mechanism mech = prepare(import_mechanism(data_file("five_bar.sdf")).spec);
  CHECK(mech.compiled.loops.size() == 1);
  CHECK(mech.mobility.mobility == 2);
  CHECK(mech.spec.gravity == Vec3(0, -9.81, 0));
  CHECK(simulated_loop_error(mech) <= 1e-12);
}

TEST_CASE("samples go to SDF and back with the same dynamics, loops and couplings", "[sdf]") {
  for (const char* name :
       {"fourbar", "slider_crank", "stewart_platform", "bennett", "rssr", "delta_robot",
        "geared_crank_rocker", "puma560", "watt_six_bar", "jansen_leg", "double_pendulum"}) {
    INFO(name);
    const Mechanism a = prepare(load_project(sample_path(std::string(name) + ".json")).spec);
    std::vector<std::string> warnings;
    const Mechanism b = through_sdf(a.spec, warnings);
    CHECK(b.compiled.loops.size() == a.compiled.loops.size());
    CHECK(b.spec.couplings.size() == a.spec.couplings.size());
    CHECK(b.mobility.mobility == a.mobility.mobility);
    CHECK(b.assembly.residual <= 1e-12);
    const DynamicsDifference d = compare_dynamics(a, b, shifted_by(a));
    CHECK(d.tree_joints > 0);
    CHECK(d.H <= 1e-12);
    CHECK(d.tau <= 1e-12);
  }
}

TEST_CASE("import, save as JSON, export, import gives the same mechanism", "[sdf]") {
  for (const char* name : {"four_bar.sdf", "five_bar.sdf"}) {
    INFO(name);
    const Mechanism first = prepare(import_mechanism(data_file(name)).spec);
    const MechanismSpec saved = parse_project(to_text(first.spec)).spec;
    std::vector<std::string> warnings;
    const Mechanism second = through_sdf(saved, warnings);
    CHECK(second.compiled.loops.size() == first.compiled.loops.size());
    const DynamicsDifference d = compare_dynamics(first, second, same_coordinates);
    CHECK(d.H <= 1e-12);
    CHECK(d.tau <= 1e-12);
  }
}

TEST_CASE("the Stewart platform through SDF keeps six degrees of freedom and its loops closed",
          "[sdf]") {
  const Mechanism a = prepare(passive(load_project(sample_path("stewart_platform.json")).spec));
  std::vector<std::string> warnings;
  const Mechanism b = through_sdf(a.spec, warnings);
  CHECK(b.mobility.mobility == 6);
  CHECK(b.compiled.loops.size() == 5);
  CHECK(simulated_loop_error(b) <= 1e-12);
  // the comparison itself notices the moved zero of the coordinates (0 = the assembled pose)
  CHECK(compare_dynamics(a, b, same_coordinates).H > 1e-3);
  CHECK(compare_dynamics(a, b, shifted_by(a)).H <= 1e-12);
}

TEST_CASE("a gear coupling goes to SDF as a gearbox and back with its ratio", "[sdf]") {
  const Mechanism a = prepare(load_project(sample_path("geared_crank_rocker.json")).spec);
  std::vector<std::string> warnings;
  const std::string text = export_text(a.spec, ExchangeFormat::Sdf, warnings);
  CHECK(text.find("type='gearbox'") != std::string::npos);
  const MechanismSpec b = import_sdf(text, "geared.sdf", warnings);
  REQUIRE(b.couplings.size() == 1);
  CHECK(b.couplings[0].joints == a.spec.couplings[0].joints);
  CHECK(b.couplings[0].ratio == Approx(a.spec.couplings[0].ratio).epsilon(1e-15));
}
