#pragma once
// Shared setup of the estimation tests (issue 20): a sample project with sensors attached, and
// the measurement log its exact simulation produces with seeded sensor noise (what
// `simulate --sensors-out` writes), the truth for the estimators.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/run_setup.hpp"

namespace articula::test {

// samples/<file> with its "sensors" replaced by `sensors` (a JSON array of sensor objects).
nlohmann::json sample_with_sensors(const std::string& file, const nlohmann::json& sensors);

// The measurement CSV of `truth` simulated with `opt` (duration, sample interval): one row per
// output sample, the sensors' readings plus Gaussian noise of their σ from `seed`. `also` sees
// the simulation at every row (to record the truth beside the readings).
std::string simulated_log(const Mechanism& truth, RunOptions opt, unsigned seed,
                          const std::function<void(const Simulation&)>& also = {});

}  // namespace articula::test
