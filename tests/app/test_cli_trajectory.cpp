// `articula-cli trajectory-inverse` end to end (issue 19): the seed paper's four-bar whose crank
// follows θ(t) = 0.5 (1 - cos πt), given as 2,001 target rows at 1 ms. The crank torque it
// writes equals the library call's on the same samples exactly (the CSV round-trips), and the
// simulator's exact inverse dynamics (`simulate` with the law as a motion drive) to the
// tolerance below; the smoothed motion tracks the targets. Bad target files exit 2 naming the
// line and column, a project without motion drives exits 3, and nothing is written on failure.
#include <cmath>

#include "core/factor_graph/trajectory.hpp"
#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/app/cli_support.hpp"
#include "tests/support/constants.hpp"

using namespace articula;
using namespace articula::test;

namespace {

json driven_fourbar() {
  std::ifstream in(std::string(ARTICULA_SOURCE_DIR) +
                   "/tests/data/factor_graph/paper_fourbar_free.json");
  json doc = json::parse(in);
  doc["joints"][0]["drive"] = {{"type", "motion"}, {"q", "0.5*(1-cos(pi*t))"}};
  doc["simulation"] = {{"duration", 2.0}, {"step", 1e-3}, {"integrator", "rk4"}};
  return doc;
}

std::string targets(int steps, double h) {
  std::string s = "t,A\n";
  for (int k = 0; k <= steps; ++k)
    s += format_number(k * h) + "," + format_number(0.5 * (1 - std::cos(kPi * k * h))) + "\n";
  return s;
}
}  // namespace

TEST_CASE("CLI trajectory-inverse: the crank torque of the paper's four-bar", "[cli]") {
  Workspace ws;
  const std::string file = ws.write("fb.json", driven_fourbar());
  std::ofstream(ws.dir / "z.csv") << targets(2000, 1e-3);
  const std::string out = (ws.dir / "tau.csv").string();
  const Run r = cli(ws, "trajectory-inverse '" + file + "' '" + (ws.dir / "z.csv").string() +
                            "' --output '" + out + "'");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.err, Catch::Matchers::Contains("2001 rows"));
  const Csv csv = parse_csv(slurp(out));
  REQUIRE(csv.header == std::vector<std::string>{"t", "A.q", "A.qd", "A.qdd", "A.tau"});
  REQUIRE(csv.rows.size() == 2001);
  const Run sim = cli(ws, "simulate '" + file + "' --quiet");
  REQUIRE(sim.status == 0);
  const Csv exact = parse_csv(sim.out);
  REQUIRE(exact.rows.size() == 2001);
  double peak = 0.0, err = 0.0, track = 0.0;
  for (std::size_t k = 0; k < csv.rows.size(); ++k) {
    peak = std::max(peak, std::abs(exact.at(k, "A.tau")));
    err = std::max(err, std::abs(csv.at(k, "A.tau") - exact.at(k, "A.tau")));
    track = std::max(track, std::abs(csv.at(k, "A.q") - exact.at(k, "A.q")));
  }
  INFO("peak torque " << peak << " N m, max error " << err << ", tracking " << track << " rad");
  CHECK(err <= 1e-6 * peak);  // measured 6.1e-7: the trapezoidal rule's O(h²), the ends
  CHECK(track <= 1e-12);      // the targets are followed exactly (hard priors)
  // The same as the library call on the same samples and options.
  const Mechanism m = prepare(load_project(file).spec);
  MatX z(2001, 1);
  for (int k = 0; k <= 2000; ++k) z(k, 0) = 0.5 * (1 - std::cos(kPi * k * 1e-3));  // as written
  fg::SmootherOptions opt;
  opt.sigma_jerk = std::stod(r.err.substr(r.err.find("sigma_jerk ") + 11));
  const fg::TrajectoryInverseResult lib = fg::trajectory_inverse_dynamics(m, z, 1e-3, opt);
  for (std::size_t k = 0; k < csv.rows.size(); k += 100)
    CHECK(csv.at(k, "A.tau") == lib.force(static_cast<Eigen::Index>(k), 0));
}

TEST_CASE("CLI trajectory-inverse: bad targets exit 2 naming line and column", "[cli]") {
  Workspace ws;
  const std::string file = ws.write("fb.json", driven_fourbar());
  const std::string out = (ws.dir / "tau.csv").string();
  auto run = [&](const std::string& text, const std::string& project = "") {
    std::ofstream(ws.dir / "z.csv") << text;
    return cli(ws, "trajectory-inverse '" + (project.empty() ? file : project) + "' '" +
                       (ws.dir / "z.csv").string() + "' --output '" + out + "'");
  };
  const Run unknown = run("t,A,P1\n0,0,0\n");
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.err, Catch::Matchers::Contains("line 1, column 'P1'") &&
                              Catch::Matchers::Contains("the targets are: A"));
  const Run missing = run("t,A\n0,0\n0.001,\n0.002,0\n");
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Catch::Matchers::Contains("line 3, column 'A'") &&
                              Catch::Matchers::Contains("missing"));
  const Run uneven = run("t,A\n0,0\n0.001,0\n0.0025,0\n");
  CHECK(uneven.status == 2);
  CHECK_THAT(uneven.err, Catch::Matchers::Contains("line 4, column 't'") &&
                             Catch::Matchers::Contains("evenly spaced"));
  const Run late = run("t,A\n0.5,0\n0.501,0\n0.502,0\n");
  CHECK(late.status == 2);
  CHECK_THAT(late.err, Catch::Matchers::Contains("line 2, column 't'"));
  json free = driven_fourbar();
  free["joints"][0].erase("drive");
  const Run undriven = run("t,A\n0,0\n0.001,0\n0.002,0\n", ws.write("free.json", free));
  CHECK(undriven.status == 3);
  CHECK_THAT(undriven.err, Catch::Matchers::Contains("no motion-driven joint"));
  CHECK(ws.listing() == std::vector<std::string>{"fb.json", "free.json", "z.csv"});
}
