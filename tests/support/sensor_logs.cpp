#include "tests/support/sensor_logs.hpp"

#include <fstream>
#include <sstream>

#include "core/estimation/measurement_log.hpp"
#include "core/estimation/sensor_model.hpp"
#include "tests/support/fixtures.hpp"

namespace articula::test {

nlohmann::json sample_with_sensors(const std::string& file, const nlohmann::json& sensors) {
  std::ifstream in(sample_path(file));
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["sensors"] = sensors;
  return doc;
}

std::string simulated_log(const Mechanism& truth, RunOptions opt, unsigned seed,
                          const std::function<void(const Simulation&)>& also) {
  SensorModel model(truth);
  SensorNoise noise(model.sigma(), seed);
  std::ostringstream csv;
  MeasurementWriter writer(csv, model);
  opt.observe = [&](const Simulation& sim) {
    VecX v;
    model.read(sim, v);
    noise.add(v);
    writer.row(sim.time(), v);
    if (also) also(sim);
  };
  RowSink sink;
  sink.row = [](const Simulation&, const std::vector<double>&) {};
  run_rows(truth, opt, sink);
  return csv.str();
}

}  // namespace articula::test
