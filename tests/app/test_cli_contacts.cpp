// Limits and contacts through articula-cli (contract-additions-2 §2): the CSV columns after the
// existing ones, --events at the located times, a bad restitution exit 2 at its pointer, a
// mechanism starting inside a plane exit 3 naming the contact.
#include <cmath>

#include "tests/app/cli_support.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/json_docs.hpp"

using namespace articula::test;

namespace {}  // namespace

TEST_CASE("cli: contact columns and --events", "[app][cli][contacts]") {
  Workspace ws;
  const std::string events = (ws.dir / "events.csv").string();
  const Run sim = cli(ws, "simulate '" + articula::test::sample_path("bouncing_ball.json") +
                              "' --duration 1 --events '" + events + "'");
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
  json bad = sample_json("door_stop.json");
  bad["joints"][0]["limits"]["restitution"] = 1.5;
  const Run r1 = cli(ws, "simulate '" + ws.write("bad.json", bad) + "' --duration 0.1");
  CHECK(r1.status == 2);
  CHECK(r1.err.find("/joints/0/limits/restitution") != std::string::npos);
  json inside = sample_json("bouncing_ball.json");
  inside["joints"][0]["q0"] = {0.01};
  inside["bodies"][0].erase("pose");
  const Run r2 = cli(ws, "simulate '" + ws.write("inside.json", inside) + "' --duration 0.1");
  CHECK(r2.status == 3);
  CHECK(r2.err.find("contact 'floor'") != std::string::npos);
}

TEST_CASE("cli: the Strandbeest walker walks with its 36 loops closed", "[app][cli][contacts]") {
  // 74 bodies, 12 feet on the ground with friction; feet land three at a time on a chassis that
  // has two motions to lift them (the simultaneous impacts of contact/impact, Lemke's method).
  Workspace ws;
  const std::string events = (ws.dir / "events.csv").string();
  const Run sim = cli(ws, "simulate '" + articula::test::sample_path("strandbeest_walker.json") +
                              "' --duration 1 --sample 0.01 --events '" + events + "'");
  REQUIRE(sim.status == 0);
  const Csv csv = parse_csv(sim.out);
  REQUIRE(csv.rows.size() == 101);
  std::vector<std::string> gaps;
  for (const std::string& c : csv.header)
    if (c.size() > 4 && c.substr(c.size() - 4) == ".gap") gaps.push_back(c);
  REQUIRE(gaps.size() == 12);
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    INFO("t = " << csv.at(r, "t"));
    CHECK(csv.at(r, "loop_error") <= 1e-12);  // the projection's tolerance, through every impact
    for (const std::string& g : gaps) CHECK(csv.at(r, g) >= -1e-9);  // no foot in the ground
  }
  // Stance feet move back at about 0.21 m per crank radian (the foot path's flat part, 0.57 m
  // over 155 degrees) at pi rad/s: 0.66 m/s, so the chassis (planar joint: angle, x, y) goes
  // 0.67 m forward in the first second (measured); 0.5 m leaves room for the landing at t = 0.
  const double x = csv.at(csv.rows.size() - 1, "body.q[1]") - csv.at(0, "body.q[1]");
  CHECK(x > 0.5);
  CHECK(std::abs(csv.at(csv.rows.size() - 1, "body.q[0]")) < 0.05);  // it stays level (rad)
  std::istringstream ev(slurp(events));
  std::string line;
  int impacts = 0, lines = 0;
  while (std::getline(ev, line)) impacts += line.find(",impact,") != std::string::npos, ++lines;
  CHECK(impacts >= 12);  // 49 impacts of 8 feet in the first second (measured)
  CHECK(lines < 1000);   // no Zeno cascade: 111 events in all (measured)
}
