// Limits and contacts through articula-cli (contract-additions-2 §2): the CSV columns after the
// existing ones, --events at the located times, a bad restitution exit 2 at its pointer, a
// mechanism starting inside a plane exit 3 naming the contact.
#include <cmath>

#include "tests/app/cli_support.hpp"

using namespace articula::test;

namespace {
const std::string kSamples = ARTICULA_SOURCE_DIR "/samples/";

json sample(const std::string& file) {
  std::ifstream in(kSamples + file);
  return json::parse(in);
}
}  // namespace

TEST_CASE("cli: contact columns and --events", "[app][cli][contacts]") {
  Workspace ws;
  const std::string events = (ws.dir / "events.csv").string();
  const Run sim = cli(
      ws, "simulate '" + kSamples + "bouncing_ball.json' --duration 1 --events '" + events + "'");
  REQUIRE(sim.status == 0);
  const Csv csv = parse_csv(sim.out);
  const auto at = [&](const std::string& c) {
    return std::find(csv.header.begin(), csv.header.end(), c) - csv.header.begin();
  };
  CHECK(at("floor.fn") > at("input_power"));
  CHECK(at("floor.gap") == at("floor.fn") + 2);
  CHECK(at("impact_loss") == static_cast<long>(csv.header.size()) - 1);
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    CHECK(csv.at(r, "floor.gap") >= -1e-9);  // never inside the floor
    CHECK(std::abs(csv.at(r, "energy_residual")) <= 1e-9);
  }
  std::istringstream ev(slurp(events));
  std::string header, first;
  REQUIRE(std::getline(ev, header));
  CHECK(header == "t,name,kind,impulse");
  REQUIRE(std::getline(ev, first));
  // Free fall over 0.95 m: t = sqrt(2 h / g), located, not rounded to the 1 ms step.
  CHECK(std::abs(std::stod(first.substr(0, first.find(','))) - std::sqrt(2 * 0.95 / 9.81)) < 1e-9);
  CHECK(first.find(",floor,impact,") != std::string::npos);
}

TEST_CASE("cli: bad limits and contacts", "[app][cli][contacts]") {
  Workspace ws;
  json bad = sample("door_stop.json");
  bad["joints"][0]["limits"]["restitution"] = 1.5;
  const Run r1 = cli(ws, "simulate '" + ws.write("bad.json", bad) + "' --duration 0.1");
  CHECK(r1.status == 2);
  CHECK(r1.err.find("/joints/0/limits/restitution") != std::string::npos);
  json inside = sample("bouncing_ball.json");
  inside["joints"][0]["q0"] = {0.01};
  inside["bodies"][0].erase("pose");
  const Run r2 = cli(ws, "simulate '" + ws.write("inside.json", inside) + "' --duration 0.1");
  CHECK(r2.status == 3);
  CHECK(r2.err.find("contact 'floor'") != std::string::npos);
}
