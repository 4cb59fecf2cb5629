// The measurement CSV (contract-additions-2 §5): read back what the writer wrote, missing cells
// and columns left out, and every bad log refused with the line and column named.
#include <catch2/catch.hpp>
#include <sstream>

#include "core/estimation/measurement_log.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/sensor_logs.hpp"

using namespace articula;
using nlohmann::json;

namespace {
// The four-bar sample with an encoder on the crank and a gyro on the coupler.
Mechanism fourbar_with_sensors() {
  const json doc = test::sample_with_sensors(
      "fourbar.json",
      json::array({{{"name", "enc"}, {"type", "encoder"}, {"joint", "A0"}, {"sigma", 1e-3}},
                   {{"name", "gyro"}, {"type", "gyro"}, {"body", "coupler"}, {"sigma", 0.01}}}));
  return prepare_project(parse_project(doc.dump()).spec);
}

std::string error_of(const std::string& text, const SensorModel& m) {
  try {
    (void)parse_measurements(text, "meas.csv", m);
  } catch (const MeasurementError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("measurement log: written and read back, missing cells and columns", "[log]") {
  const Mechanism mech = fourbar_with_sensors();
  const SensorModel m(mech);
  REQUIRE(m.columns() == std::vector<std::string>{"enc", "gyro[0]", "gyro[1]", "gyro[2]"});
  std::ostringstream out;
  MeasurementWriter w(out, m);
  VecX v(4);
  v << 0.1, 1e-17, -2.5, 1.0 / 3.0;
  w.row(0.0, v);
  w.row(0.0125, -v);
  const MeasurementLog log = parse_measurements(out.str(), "x", m);
  REQUIRE(log.t.size() == 2);
  CHECK(log.t[1] == 0.0125);
  CHECK(log.values.row(0).transpose() == v);  // shortest round-trip numbers: the same doubles
  CHECK(log.values.row(1).transpose() == -v);
  CHECK(log.samples() == 8);

  // Columns in another order, one left out, empty cells: missing samples.
  const MeasurementLog part = parse_measurements("t,gyro[2],enc\n0.5,,0.25\n0.7,1.5,\n\n", "x", m);
  REQUIRE(part.t.size() == 2);
  CHECK(part.present(0, 0) == 1.0);
  CHECK(part.values(0, 0) == 0.25);
  CHECK(part.present(0, 3) == 0.0);
  CHECK(std::isnan(part.values(0, 3)));
  CHECK(part.values(1, 3) == 1.5);
  CHECK(part.present.col(1).sum() == 0.0);  // gyro[0] not logged
  CHECK(part.samples() == 2);
}

TEST_CASE("measurement log: bad logs named by line and column", "[log]") {
  const Mechanism mech = fourbar_with_sensors();
  const SensorModel m(mech);
  using Catch::Matchers::Contains;
  CHECK_THAT(error_of("", m), Contains("line 1") && Contains("empty file"));
  CHECK_THAT(error_of("time,enc\n0,1\n", m), Contains("column 'time'") && Contains("'t'"));
  CHECK_THAT(error_of("t,encoder\n0,1\n", m),
             Contains("line 1, column 'encoder'") && Contains("enc, gyro[0]"));
  CHECK_THAT(error_of("t,gyro\n0,1\n", m), Contains("column 'gyro'"));
  CHECK_THAT(error_of("t,enc,enc\n0,1,1\n", m), Contains("column 'enc'") && Contains("twice"));
  CHECK_THAT(error_of("t,enc\n", m), Contains("no measurements"));
  CHECK_THAT(error_of("t,enc\n0,1\n0.1,2\n0.1,3\n", m),
             Contains("line 4, column 't'") && Contains("does not increase"));
  CHECK_THAT(error_of("t,enc\n0,1\n0.2,2\n0.1,3\n", m), Contains("line 4, column 't'"));
  CHECK_THAT(error_of("t,enc\n0,1\n0.1,nan\n", m),
             Contains("line 3, column 'enc'") && Contains("not a finite number"));
  CHECK_THAT(error_of("t,enc\n0,1\n0.1,inf\n", m), Contains("line 3, column 'enc'"));
  CHECK_THAT(error_of("t,enc\n0,1x\n", m),
             Contains("line 2, column 'enc'") && Contains("not a number"));
  CHECK_THAT(error_of("t,enc\n0,1,2\n", m), Contains("line 2") && Contains("3 cells"));
  CHECK_THAT(error_of("t,enc\n0\n", m), Contains("line 2") && Contains("1 cells"));
  CHECK_THAT(error_of("t,enc\n,1\n", m), Contains("line 2, column 't'") && Contains("missing"));
}

TEST_CASE("sensors in the project file: round trip and bad entries by pointer", "[sensors]") {
  json doc = test::sample_with_sensors(
      "fourbar.json",
      json::array(
          {{{"name", "enc"}, {"type", "encoder"}, {"joint", "A0"}, {"sigma", 1e-3}, {"note", "x"}},
           {{"name", "acc"},
            {"type", "accelerometer"},
            {"body", "coupler"},
            {"point", {0.1, 0, 0}},
            {"sigma", 0.05}},
           {{"name", "cell"},
            {"type", "load_cell"},
            {"joint", "B0"},
            {"component", "Fy"},
            {"sigma", 0.2}}}));
  const MechanismSpec spec = parse_project(doc.dump()).spec;
  REQUIRE(spec.sensors.size() == 3);
  CHECK(spec.sensors[1].point == Vec3(0.1, 0, 0));
  CHECK(spec.sensors[2].component == 1);
  CHECK(spec.sensors[0].extra["note"] == "x");
  CHECK(parse_project(to_text(spec)).spec == spec);  // written back and read again: the same

  auto error_at = [&](const std::string& ptr, const json& value) {
    json bad = doc;
    bad["sensors"][json::json_pointer(ptr)] = value;
    try {
      (void)parse_project(bad.dump());
    } catch (const ProjectError& e) {
      return e.pointer;
    }
    return std::string("no error");
  };
  CHECK(error_at("/0/sigma", 0.0) == "/sensors/0/sigma");
  CHECK(error_at("/0/sigma", -1.0) == "/sensors/0/sigma");
  CHECK(error_at("/0/joint", "nope") == "/sensors/0/joint");
  CHECK(error_at("/0/type", "lidar") == "/sensors/0/type");
  CHECK(error_at("/1/body", "ground") == "/sensors/1/body");
  CHECK(error_at("/1/point", json::array({1, 2})) == "/sensors/1/point");
  CHECK(error_at("/2/component", "Fw") == "/sensors/2/component");
  CHECK(error_at("/2/name", "enc") == "/sensors/2/name");  // duplicate
  CHECK(error_at("/2/name", "a,b") == "/sensors/2/name");  // cannot head a CSV column
  CHECK(error_at("/2/name", "t") == "/sensors/2/name");
  json no_sigma = doc;
  no_sigma["sensors"][0].erase("sigma");
  CHECK_THROWS_WITH(parse_project(no_sigma.dump()), Catch::Matchers::Contains("/sensors/0"));
}
