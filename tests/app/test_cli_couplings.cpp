// Couplings and the solver choice through articula-cli (contract-additions-2 §1, §3): info counts
// them, the CSV has <coupling>.tau after the existing columns, a bad coupling is exit 2 at its
// pointer, an over-determining one exit 3 by name, a solver that does not apply exit 3 with why.
#include "tests/app/cli_support.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/json_docs.hpp"

using namespace articula::test;

namespace {}  // namespace

TEST_CASE("cli: couplings in info and in the CSV", "[app][cli][couplings]") {
  Workspace ws;
  const Run info =
      cli(ws, "info '" + articula::test::sample_path("geared_crank_rocker.json") + "'");
  REQUIRE(info.status == 0);
  const json j = json::parse(info.out);
  CHECK(j.at("couplings") == 1);
  CHECK(j.at("mobility") == 1);
  CHECK(j.at("gruebler") == 1);  // 3·4 − 2·5 − 1 coupling
  const Run sim = cli(ws, "simulate '" + articula::test::sample_path("geared_crank_rocker.json") +
                              "' --duration 0.2");
  REQUIRE(sim.status == 0);
  const Csv csv = parse_csv(sim.out);
  // New columns go after the existing ones: G1.tau follows the energy columns.
  const auto at = [&](const std::string& c) {
    return std::find(csv.header.begin(), csv.header.end(), c) - csv.header.begin();
  };
  CHECK(at("G1.tau") == static_cast<long>(csv.header.size()) - 1);
  CHECK(at("G1.tau") > at("input_power"));
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    // The ratio holds (q_A0 - 0.3 = -0.5 q_M), and the pinion turns at constant speed, so the
    // motor only balances the mesh's torque on it, -ratio G1.tau: M.tau = ratio G1.tau.
    CHECK(std::abs(csv.at(r, "A0.q") - 0.3 + 0.5 * csv.at(r, "M.q")) <= 1e-9);
    CHECK(std::abs(csv.at(r, "M.tau") + 0.5 * csv.at(r, "G1.tau")) <= 1e-12);
  }
}

TEST_CASE("cli: bad and over-determining couplings", "[app][cli][couplings][errors]") {
  Workspace ws;
  json bad = sample_json("geared_crank_rocker.json");
  bad["couplings"][0]["joints"][1] = "nowhere";
  Run r = cli(ws, "simulate '" + ws.write("bad.json", bad) + "'");
  CHECK(r.status == 2);
  CHECK(r.err.find("/couplings/0/joints/1") != std::string::npos);
  CHECK(r.err.find("unknown joint 'nowhere'") != std::string::npos);
  // A second gear from the rocker pivot to the motor locks the 1-DOF linkage.
  json locked = sample_json("geared_crank_rocker.json");
  locked["couplings"].push_back(
      {{"name", "G2"}, {"type", "gear"}, {"joints", {"M", "B0"}}, {"ratio", -1.0}});
  r = cli(ws, "simulate '" + ws.write("locked.json", locked) + "'");
  CHECK(r.status == 3);
  CHECK(r.err.find("'G2'") != std::string::npos);
  CHECK(r.err.find("over-determines") != std::string::npos);
}

TEST_CASE("cli: --solver runs each applicable solver, refuses the others", "[app][cli][solvers]") {
  Workspace ws;
  const std::string fourbar = articula::test::sample_path("fourbar.json");
  const Run m2 = cli(ws, "simulate '" + fourbar + "' --duration 0.3 --solver method2");
  const Run sp = cli(ws, "simulate '" + fourbar + "' --duration 0.3 --solver sparse");
  REQUIRE(m2.status == 0);
  REQUIRE(sp.status == 0);
  const Csv a = parse_csv(m2.out), b = parse_csv(sp.out);
  REQUIRE(a.header == b.header);
  for (std::size_t r = 0; r < a.rows.size(); ++r)
    for (std::size_t c = 0; c < a.header.size(); ++c)
      CHECK(std::abs(a.rows[r][c] - b.rows[r][c]) <= 1e-8 * std::max(1.0, std::abs(b.rows[r][c])));
  const Run geared =
      cli(ws, "simulate '" + articula::test::sample_path("geared_crank_rocker.json") +
                  "' --duration 0.1 --solver sparse");
  CHECK(geared.status == 3);
  CHECK(geared.err.find("couplings") != std::string::npos);
  const Run unknown = cli(ws, "simulate '" + fourbar + "' --solver fastest");
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("/simulation/solver") != std::string::npos);
  // Constraint embedding (minimal coordinates, no projection): the same CSV to 1e-8.
  const Run em = cli(ws, "simulate '" + fourbar + "' --duration 0.3 --solver embedding");
  REQUIRE(em.status == 0);
  const Csv e = parse_csv(em.out);
  REQUIRE(e.header == a.header);
  for (std::size_t r = 0; r < a.rows.size(); ++r)
    for (std::size_t c = 0; c < a.header.size(); ++c)
      CHECK(std::abs(e.rows[r][c] - a.rows[r][c]) <= 1e-8 * std::max(1.0, std::abs(a.rows[r][c])));
  json in_file = sample_json("fourbar.json");
  in_file["simulation"]["solver"] = "operator";
  // The spatial operator algebra, chosen in the file: the same CSV to 1e-8.
  const Run op = cli(ws, "simulate '" + ws.write("operator.json", in_file) + "' --duration 0.3");
  REQUIRE(op.status == 0);
  const Csv o = parse_csv(op.out);
  REQUIRE(o.header == a.header);
  for (std::size_t r = 0; r < a.rows.size(); ++r)
    for (std::size_t c = 0; c < a.header.size(); ++c)
      CHECK(std::abs(o.rows[r][c] - a.rows[r][c]) <= 1e-8 * std::max(1.0, std::abs(a.rows[r][c])));
}
