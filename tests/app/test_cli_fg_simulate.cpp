// `articula-cli fg-simulate` end to end (issue 19): the CSV of the fixed-lag factor-graph
// simulation of the paper's four-bar equals the library call with the same options to the last
// bit (the CLI prints round-trip numbers), its coordinate columns are named as `simulate` names
// them, the defaults come from the file, and refusals exit 3 (2 for bad options) writing nothing.
#include <algorithm>

#include "core/factor_graph/fixed_lag_forward.hpp"
#include "core/io/project.hpp"
#include "tests/app/cli_support.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;
using namespace articula::test;

namespace {
const std::string kFourbar =
    std::string(ARTICULA_SOURCE_DIR) + "/tests/data/factor_graph/paper_fourbar_free.json";

fg::FixedLagResult library_run(const Mechanism& m, double step, double duration, int window,
                               double sigma) {
  fg::FixedLagOptions opt;
  opt.step = step, opt.duration = duration, opt.window = window;
  opt.sigma_position = opt.sigma_velocity = opt.sigma_dynamics = opt.sigma_integration = sigma;
  return fg::fixed_lag_forward(m, opt);
}

// Every row's tree coordinates and rates, and t, equal the library's doubles exactly.
void check_equals_library(const Csv& csv, const Mechanism& m, const fg::FixedLagResult& r) {
  REQUIRE(csv.rows.size() == static_cast<std::size_t>(r.t.size()));
  double max_loop = 0;
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    CHECK(csv.at(i, "t") == r.t[i]);
    for (std::size_t j = 0; j < m.spec.joints.size(); ++j) {
      if (m.compiled.joint_map[j].loop) continue;
      const int v = m.compiled.q_index(static_cast<int>(j));  // 1-DoF revolutes: q = v index
      const std::string& name = m.spec.joints[j].name;
      CHECK(csv.at(i, name + ".q") == r.q(i, v));
      CHECK(csv.at(i, name + ".qd") == r.qd(i, v));
    }
    CHECK(csv.at(i, "loop_error") == r.loop_error[i]);  // bit-equal: the library's per row
    max_loop = std::max(max_loop, csv.at(i, "loop_error"));
  }
  CHECK(max_loop == r.max_loop_error);
}
}  // namespace

TEST_CASE("CLI fg-simulate: the paper's four-bar equals the library call", "[cli][fixed_lag]") {
  Workspace ws;
  const std::string out = (ws.dir / "fl.csv").string();
  const Run r =
      cli(ws, "fg-simulate '" + kFourbar + "' --duration 0.2 --quiet --output '" + out + "'");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());  // --quiet
  CHECK(r.out.empty());  // the CSV went to the file
  const Csv csv = parse_csv(slurp(out));
  // The loop joint (P2) has no columns: its coordinate is not an unknown of the solver.
  const std::vector<std::string> expected{"t",    "A.q",   "P1.q", "B.q",
                                          "A.qd", "P1.qd", "B.qd", "loop_error"};
  CHECK(csv.header == expected);
  // `simulate` names the same columns the same way.
  const Run sim = cli(ws, "simulate '" + kFourbar + "' --duration 0.01 --quiet");
  REQUIRE(sim.status == 0);
  const Csv sim_csv = parse_csv(sim.out);
  for (const std::string& c : csv.header)
    CHECK(std::count(sim_csv.header.begin(), sim_csv.header.end(), c) == 1);
  const Mechanism m = prepare(load_project(kFourbar).spec);
  const fg::FixedLagResult lib = library_run(m, 1e-3, 0.2, 2, 1e-3);
  REQUIRE(csv.rows.size() == 201);  // N + 1 rows
  CHECK(csv.at(200, "t") == 0.2);
  check_equals_library(csv, m, lib);
  CHECK(lib.max_loop_error < 1e-6);  // m: the run closes its loop (as test_fixed_lag)
  // The window and sigma options reach the solver; the summary line tells what it did.
  const Run w = cli(ws, "fg-simulate '" + kFourbar + "' --duration 0.05 --window 5 --sigma 1e-4");
  REQUIRE(w.status == 0);
  const fg::FixedLagResult lib5 = library_run(m, 1e-3, 0.05, 5, 1e-4);
  check_equals_library(parse_csv(w.out), m, lib5);
  CHECK(w.err.find("50 steps, window 5, " + std::to_string(lib5.iterations) + " LM iterations") !=
        std::string::npos);
}

TEST_CASE("CLI fg-simulate takes its step and duration from the file", "[cli][fixed_lag]") {
  Workspace ws;
  json doc = json::parse(slurp(kFourbar));
  doc["simulation"] = {{"duration", 0.05}, {"step", 0.002}, {"integrator", "rk4"}};
  const std::string file = ws.write("short.json", doc);
  const Run r = cli(ws, "fg-simulate '" + file + "' --quiet");
  REQUIRE(r.status == 0);
  const Mechanism m = prepare(load_project(file).spec);
  check_equals_library(parse_csv(r.out), m, library_run(m, 0.002, 0.05, 2, 1e-3));
  const Run over = cli(ws, "fg-simulate '" + file + "' --quiet --step 0.01");
  REQUIRE(over.status == 0);
  check_equals_library(parse_csv(over.out), m, library_run(m, 0.01, 0.05, 2, 1e-3));
}

TEST_CASE("CLI fg-simulate refuses what the solver does not model, writing nothing",
          "[cli][fixed_lag]") {
  Workspace ws;
  const std::string out = (ws.dir / "fl.csv").string();
  // The sample four-bar's crank is driven: exit 3 with the library's reason.
  const Run driven =
      cli(ws, "fg-simulate '" + sample_path("fourbar.json") + "' --output '" + out + "'");
  CHECK(driven.status == 3);
  CHECK(driven.err.find("free motion under gravity only") != std::string::npos);
  CHECK(driven.err.find("has a drive") != std::string::npos);
  CHECK(driven.out.empty());
  CHECK(ws.listing().empty());  // no output file, no temporary left behind
  // Bad option values are invalid input (exit 2), named.
  for (const char* bad : {"--window 0", "--sigma 0", "--step -1", "--duration -1"}) {
    const Run b = cli(ws, "fg-simulate '" + kFourbar + "' " + bad + " --output '" + out + "'");
    INFO(bad << ": " << b.err);
    CHECK(b.status == 2);
    CHECK(b.err.find(std::string(bad).substr(2, 4)) != std::string::npos);
    CHECK(ws.listing().empty());
  }
}
