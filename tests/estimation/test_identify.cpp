// Identification (issue 20): the pendulum sample's mass, 50 % off in the file, identified from
// its own encoder and pivot load cell with 1 % noise (σ = 1 % of the swing's amplitude and of
// the rod's tension) together with the motion: within 1 % of the truth and within 2σ.
#include <catch2/catch.hpp>

#include "core/estimation/parameters.hpp"
#include "core/estimation/smoother.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/sensor_logs.hpp"

using namespace articula;
using nlohmann::json;

namespace {
json identify_pendulum() {
  return test::sample_with_sensors(
      "pendulum.json",
      json::array({{{"name", "enc"}, {"type", "encoder"}, {"joint", "pivot"}, {"sigma", 5e-3}},
                   {{"name", "cell"},
                    {"type", "load_cell"},
                    {"joint", "pivot"},
                    {"component", "Fx"},
                    {"sigma", 0.45}}}));
}

// Readings every 10 ms over 2 s (two swings), with seeded noise.
std::string identify_pendulum_log(const json& doc, unsigned seed) {
  const Mechanism truth = prepare_project(parse_project(doc.dump()).spec);
  RunOptions opt = run_options_from(truth.spec);
  opt.duration = 2.0;
  opt.sample = 0.01;
  return test::simulated_log(truth, opt, seed);
}
}  // namespace

TEST_CASE("identify: a payload mass 50 % off from 1 % sensor noise", "[identify]") {
  const json truth = identify_pendulum();
  const double mass = truth["bodies"][0]["mass"];
  const std::string csv = identify_pendulum_log(truth, 21);
  json wrong = truth;
  wrong["bodies"][0]["mass"] = 1.5 * mass;
  ParameterModel params(parse_project(wrong.dump()).spec, {"/bodies/0/mass"});
  CHECK(params.initial()[0] == 1.5 * mass);
  const MeasurementLog log =
      parse_measurements(csv, "pendulum.csv", params.at(params.initial()).sensors());
  EstimatorOptions opt;
  opt.accel_sigma = 0.01;
  const Identified id = identify(params, log, opt);
  const double sigma = std::sqrt(id.cov(0, 0));
  INFO("mass " << id.values[0] << " (truth " << mass << ", error "
               << 100 * (id.values[0] - mass) / mass << " %), sigma " << sigma << ", "
               << id.motion.iterations << " iterations");
  CHECK(std::abs(id.values[0] - mass) < 0.01 * mass);
  CHECK(std::abs(id.values[0] - mass) < 2 * sigma);
  CHECK(sigma < 0.01 * mass);
  const json out = parameters_json(params, id.values, id.cov);
  CHECK(out["/bodies/0/mass"]["value"] == id.values[0]);
}

TEST_CASE("identify: parameters that are not numbers of the file are named", "[identify]") {
  const MechanismSpec spec = parse_project(identify_pendulum().dump()).spec;
  auto pointer_of = [&](const std::string& p) {
    try {
      ParameterModel m(spec, {p});
    } catch (const ProjectError& e) {
      return e.pointer;
    }
    return std::string("no error");
  };
  CHECK(pointer_of("/bodies/3/mass") == "/bodies/3/mass");
  CHECK(pointer_of("/bodies/0/name") == "/bodies/0/name");
  CHECK(pointer_of("bodies") == "bodies");
}
