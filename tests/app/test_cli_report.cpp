// `articula-cli report` end to end (contract-additions-2 §4): the contract's keys, the drive's
// peak and RMS torque against the CSV that `simulate` writes for the same run (peak exact, RMS
// by the trapezoid of τ² over the rows, 1e-12), --sample thinning the samples as for simulate,
// and bad --point values exit 2 naming the point, leaving no output file.
#include <cmath>

#include "tests/app/cli_support.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula::test;

TEST_CASE("CLI report: contract keys, peak and RMS torque against the CSV", "[cli]") {
  Workspace ws;
  const std::string file = articula::test::sample_path("slider_crank.json");
  const std::string out = (ws.dir / "report.json").string();
  const Run r = cli(ws, "report '" + file + "' --duration 0.5 --point pin=conrod@0.2,0,0 " +
                            "--point mid=conrod@0.1,0,0 --output '" + out + "'");
  REQUIRE(r.status == 0);
  const json rep = json::parse(slurp(out));
  const Run sim = cli(ws, "simulate '" + file + "' --duration 0.5");
  REQUIRE(sim.status == 0);
  const Csv csv = parse_csv(sim.out);
  const json& d = rep["drives"]["crank_pin"];
  for (const char* key :
       {"peak_force", "rms_force", "peak_power", "positive_work", "negative_work"})
    CHECK(d[key].is_number());
  REQUIRE(d["reflected_inertia"]["t"].size() == csv.rows.size());
  REQUIRE(d["reflected_inertia"]["value"].size() == csv.rows.size());
  double peak = 0.0, f2 = 0.0, peak_power = 0.0;
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    const double f = csv.at(i, "crank_pin.tau");
    peak = std::max(peak, std::abs(f));
    peak_power = std::max(peak_power, std::abs(f * csv.at(i, "crank_pin.qd")));
    if (i > 0) {
      const double f0 = csv.at(i - 1, "crank_pin.tau");
      f2 += 0.5 * (csv.at(i, "t") - csv.at(i - 1, "t")) * (f * f + f0 * f0);
    }
  }
  CHECK(d["peak_force"].get<double>() == peak);
  CHECK(d["peak_power"].get<double>() == peak_power);
  CHECK(std::abs(d["rms_force"].get<double>() - std::sqrt(f2 / 0.5)) <= 1e-12 * peak);
  // The wrist pin rides on the guide: its path stays on the x axis; its apparent mass has the
  // slider's direction only (y and z are constrained), the rod's middle moves in the plane.
  const json& pin = rep["points"]["pin"];
  REQUIRE(pin["path"].size() == csv.rows.size());
  for (const json& p : pin["path"]) CHECK(std::abs(p[1].get<double>()) <= 1e-9);
  CHECK(pin["apparent_mass"].size() == 9);
  CHECK(pin["constrained_directions"].size() == 2);
  CHECK(pin["apparent_mass"][0].get<double>() > 0.5);  // at least the slider's 0.5 kg
  CHECK(rep["points"]["mid"]["constrained_directions"].size() == 2);  // 1 DoF: one direction
  CHECK(rep["loops"].empty());  // a prismatic joint in the cycle: not four-bar-like
}

TEST_CASE("CLI report: --sample thins the samples; the four-bar's transmission angle", "[cli]") {
  Workspace ws;
  const Run r = cli(ws, "report '" + articula::test::sample_path("fourbar.json") +
                            "' --duration 1 --sample 0.01");
  REQUIRE(r.status == 0);
  const json rep = json::parse(r.out);
  REQUIRE(rep["t"].size() == 101);
  CHECK(std::abs(rep["t"][50].get<double>() - 0.5) <= 1e-12);
  const json& mu = rep["loops"]["B"]["transmission_angle"]["value"];
  REQUIRE(mu.size() == 101);
  for (const json& v : mu) CHECK((v.get<double>() > 0.0 && v.get<double>() < M_PI));
}

TEST_CASE("CLI report: bad points exit 2 naming the point, nothing written", "[cli]") {
  Workspace ws;
  const std::string file = articula::test::sample_path("fourbar.json");
  for (const char* bad :
       {"tip=coupler@1,2", "tip=wheel@0,0,0", "tipcoupler@0,0,0", "tip=coupler@a,0,0"}) {
    INFO(bad);
    const Run r = cli(ws, "report '" + file + "' --duration 0.01 --point '" + bad + "' --output '" +
                              (ws.dir / "r.json").string() + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find(std::string("--point ") + bad + ":") != std::string::npos);
    CHECK(ws.listing().empty());
  }
}
