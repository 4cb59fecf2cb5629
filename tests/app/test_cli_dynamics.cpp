// `articula-cli dynamics` and `info --graph` end to end (issue 19): the factor graph's drive
// forces against an independent RNEA of the sample's state (the Puma, all joints driven: the
// actuator torques are the inverse dynamics, 1e-9), the redundant five-bar's split stated by
// `info`, contradictory laws exit 3 naming the equations, a bad --order exit 2, and the Bayes
// net written as DOT with every unknown once.
#include "core/algorithms/rnea.hpp"
#include "core/factor_graph/dynamics_report.hpp"
#include "core/io/project.hpp"
#include "tests/app/cli_support.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;
using namespace articula::test;

namespace {
std::string fg_data(const std::string& f) {
  return std::string(ARTICULA_SOURCE_DIR) + "/tests/data/factor_graph/" + f;
}
}  // namespace

TEST_CASE("CLI dynamics: the Puma's drive torques are its inverse dynamics", "[cli]") {
  Workspace ws;
  const std::string file = sample_path("puma560.json");
  const Run r = cli(ws, "dynamics '" + file + "' --at 0.25 --order aba");
  REQUIRE(r.status == 0);
  const json out = json::parse(r.out);
  CHECK(out["order"] == "aba");
  CHECK(out["redundant"] == false);
  const Mechanism m = prepare(load_project(file).spec);
  VecX q, qd, qdd(m.model().nv);
  fg::mechanism_state_at(m, 0.25, q, qd);
  for (const DriveBinding& d : m.drives) qdd[d.v] = d.eval(0.25).d2;
  Data data(m.model());
  const VecX tau = rnea(m.model(), data, q, qd, qdd);
  REQUIRE(out["drives"].size() == m.drives.size());
  for (size_t k = 0; k < m.drives.size(); ++k) {
    const double got = out["drives"][k]["force"], expected = tau[m.drives[k].v];
    CHECK(std::abs(got - expected) <= 1e-9 * std::max(1.0, std::abs(expected)));
  }
}

TEST_CASE("CLI info states the split of redundant actuators and writes the Bayes net", "[cli]") {
  Workspace ws;
  const std::string dot = (ws.dir / "net.dot").string();
  const Run r = cli(ws, "info '" + fg_data("five_bar_3motors.json") + "' --graph '" + dot + "'");
  REQUIRE(r.status == 0);
  const json info = json::parse(r.out);
  REQUIRE(info.contains("redundant_actuation"));
  CHECK(info["redundant_actuation"]["motion_drives"] == 3);
  CHECK(info["redundant_actuation"]["mobility"] == 2);
  CHECK(info["redundant_actuation"]["forces_at_start"].size() == 3);
  CHECK(info["redundant_actuation"]["split"].get<std::string>().find("minimum-norm") == 0);
  const std::string text = slurp(dot);
  CHECK(text.rfind("digraph bayes_net {", 0) == 0);
  CHECK(text.find("tau1") != std::string::npos);
  CHECK(text.find("->") != std::string::npos);
  // A sample without redundant drives has no such field.
  const Run plain = cli(ws, "info '" + sample_path("fourbar.json") + "'");
  CHECK_FALSE(json::parse(plain.out).contains("redundant_actuation"));
}

TEST_CASE("CLI dynamics: contradictory laws exit 3, a bad order exit 2", "[cli]") {
  Workspace ws;
  json doc = json::parse(slurp(fg_data("five_bar_3motors.json")));
  doc["joints"][1]["drive"]["q"] = "0.22273424781341578 - t - 0.8*t^2";
  const std::string file = ws.write("contradict.json", doc);
  const Run r = cli(ws, "dynamics '" + file + "'");
  CHECK(r.status == 3);
  CHECK(r.err.find("contradictory") != std::string::npos);
  CHECK(r.err.find("accel") != std::string::npos);
  const Run bad = cli(ws, "dynamics '" + sample_path("fourbar.json") + "' --order fastest");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("fastest") != std::string::npos);
}
