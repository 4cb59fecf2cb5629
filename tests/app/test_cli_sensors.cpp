// `simulate --sensors-out` end to end (contract-additions-2 §5): exact readings without a seed
// (the encoder is the simulate CSV's J.q, the load cell its J.Fy: the same doubles), seeded
// Gaussian noise with each sensor's σ (the same seed gives the same file; the noise's sample
// σ within its 99 % χ² bound), and misuse refused with exit 2.
#include <cmath>
#include <tuple>

#include "tests/app/cli_support.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula::test;

namespace {
json fourbar_with_sensors() {
  std::ifstream in(articula::test::sample_path("fourbar.json"));
  json doc = json::parse(in);
  doc["sensors"] = {{{"name", "enc"}, {"type", "encoder"}, {"joint", "B0"}, {"sigma", 1e-3}},
                    {{"name", "cell"},
                     {"type", "load_cell"},
                     {"joint", "A"},
                     {"component", "Fy"},
                     {"sigma", 0.05}}};
  return doc;
}
}  // namespace

TEST_CASE("CLI simulate --sensors-out: exact and seeded readings", "[cli]") {
  Workspace ws;
  const std::string file = ws.write("fb.json", fourbar_with_sensors());
  const std::string base = "simulate '" + file + "' --duration 1 --output '" +
                           (ws.dir / "sim.csv").string() + "' --sensors-out ";
  REQUIRE(cli(ws, base + "'" + (ws.dir / "exact.csv").string() + "'").status == 0);
  REQUIRE(cli(ws, base + "'" + (ws.dir / "n1.csv").string() + "' --noise-seed 3").status == 0);
  REQUIRE(cli(ws, base + "'" + (ws.dir / "n2.csv").string() + "' --noise-seed 3").status == 0);
  const Csv sim = parse_csv(slurp(ws.dir / "sim.csv"));
  const Csv exact = parse_csv(slurp(ws.dir / "exact.csv"));
  const Csv noisy = parse_csv(slurp(ws.dir / "n1.csv"));
  CHECK(exact.header == std::vector<std::string>{"t", "enc", "cell"});
  REQUIRE(exact.rows.size() == sim.rows.size());
  REQUIRE(exact.rows.size() == 1001);
  CHECK(slurp(ws.dir / "n1.csv") == slurp(ws.dir / "n2.csv"));
  double ss_enc = 0, ss_cell = 0;
  for (std::size_t r = 0; r < exact.rows.size(); ++r) {
    CHECK(exact.at(r, "t") == sim.at(r, "t"));
    CHECK(exact.at(r, "enc") == sim.at(r, "B0.q"));
    CHECK(exact.at(r, "cell") == sim.at(r, "A.Fy"));
    ss_enc += std::pow((noisy.at(r, "enc") - exact.at(r, "enc")) / 1e-3, 2);
    ss_cell += std::pow((noisy.at(r, "cell") - exact.at(r, "cell")) / 0.05, 2);
  }
  // n Σ(e/σ)² ~ χ²(n), n = 1001: 99 % two-sided bound n ± 2.576 √(2n) (normal approximation).
  const double n = 1001, bound = 2.576 * std::sqrt(2 * n);
  INFO("chi2 encoder " << ss_enc << ", load cell " << ss_cell);
  CHECK(std::abs(ss_enc - n) < bound);
  CHECK(std::abs(ss_cell - n) < bound);
}

TEST_CASE("CLI simulate --sensors-out: misuse is exit 2", "[cli]") {
  Workspace ws;
  const std::string plain = articula::test::sample_path("fourbar.json");
  const Run none = cli(ws, "simulate '" + plain + "' --duration 0.1 --sensors-out m.csv");
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Catch::Matchers::Contains("/sensors"));
  json doc = fourbar_with_sensors();
  const std::string file = ws.write("fb.json", doc);
  const Run seed_only = cli(ws, "simulate '" + file + "' --duration 0.1 --noise-seed 1");
  CHECK(seed_only.status == 2);
  CHECK_THAT(seed_only.err, Catch::Matchers::Contains("--sensors-out"));
  doc["sensors"][1]["sigma"] = 0;
  const Run zero = cli(ws, "simulate '" + ws.write("z.json", doc) + "' --duration 0.1");
  CHECK(zero.status == 2);
  CHECK_THAT(zero.err, Catch::Matchers::Contains("/sensors/1/sigma"));
}

TEST_CASE("CLI estimate: simulate columns plus sigmas at the log's rows", "[cli]") {
  // The four-bar's crank torque declared unknown, estimated back from its own noisy sensors.
  Workspace ws;
  json truth = fourbar_with_sensors();
  truth["sensors"].push_back(
      {{"name", "gyro"}, {"type", "gyro"}, {"body", "coupler"}, {"sigma", 1e-2}});
  const std::string truth_file = ws.write("truth.json", truth);
  const std::string meas = (ws.dir / "meas.csv").string();
  REQUIRE(cli(ws, "simulate '" + truth_file + "' --duration 0.2 --sample 0.004 --output '" +
                      (ws.dir / "sim.csv").string() + "' --sensors-out '" + meas +
                      "' --noise-seed 4")
              .status == 0);
  json est = truth;
  est["joints"][0]["drive"] = {{"type", "unknown"}};
  est["joints"][0]["qd0"] = {2 * 3.14159265358979323846};
  const std::string est_file = ws.write("est.json", est);
  const Run r = cli(ws, "estimate '" + est_file + "' '" + meas + "' --output '" +
                            (ws.dir / "est.csv").string() +
                            "' --loss huber --accel-sigma 0.01 --force-sigma 0.05");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const Csv sim = parse_csv(slurp(ws.dir / "sim.csv"));
  const Csv out = parse_csv(slurp(ws.dir / "est.csv"));
  REQUIRE(out.rows.size() == sim.rows.size());
  for (const char* c : {"A0.q_sigma", "B0.qd_sigma", "A.q_sigma", "A0.tau_sigma", "loop_error"})
    CHECK(std::find(out.header.begin(), out.header.end(), c) != out.header.end());
  for (std::size_t k = 0; k < out.rows.size(); ++k) {
    CHECK(out.at(k, "t") == sim.at(k, "t"));
    CHECK(out.at(k, "loop_error") < 1e-10);  // closed exactly, not by soft factors
    // Rocker angle within 4 posterior sigmas of the truth, and sigma below the encoder's.
    CHECK(std::abs(out.at(k, "B0.q") - sim.at(k, "B0.q")) < 4 * out.at(k, "B0.q_sigma"));
    CHECK(out.at(k, "A0.q_sigma") < 1.5e-3);  // about the encoder's σ
  }
}

TEST_CASE("CLI estimate: bad logs and options are exit 2 naming line and column", "[cli]") {
  Workspace ws;
  json doc = fourbar_with_sensors();
  doc["joints"][0]["drive"] = {{"type", "unknown"}};
  const std::string file = ws.write("fb.json", doc);
  auto run = [&](const std::string& text, const std::string& extra = "") {
    std::ofstream(ws.dir / "m.csv") << text;
    return cli(ws, "estimate '" + file + "' '" + (ws.dir / "m.csv").string() + "' " + extra);
  };
  const Run unknown = run("t,enc,lidar\n0,1,2\n");
  CHECK(unknown.status == 2);
  CHECK_THAT(unknown.err, Catch::Matchers::Contains("line 1, column 'lidar'"));
  const Run back = run("t,enc\n0,1\n0.2,1\n0.1,1\n");
  CHECK(back.status == 2);
  CHECK_THAT(back.err, Catch::Matchers::Contains("line 4, column 't'"));
  const Run nan = run("t,enc\n0,1\n0.1,nan\n");
  CHECK(nan.status == 2);
  CHECK_THAT(nan.err, Catch::Matchers::Contains("line 3, column 'enc'"));
  const Run cells = run("t,enc,cell\n0,1\n");
  CHECK(cells.status == 2);
  CHECK_THAT(cells.err, Catch::Matchers::Contains("line 2"));
  const Run short_log = run("t,enc\n0,1\n0.1,1\n", "--window 5");
  CHECK(short_log.status == 2);
  CHECK_THAT(short_log.err, Catch::Matchers::Contains("window"));
  const Run loss = run("t,enc\n0,1\n0.1,1\n", "--loss l1");
  CHECK(loss.status == 2);
}

TEST_CASE("CLI identify: several logs share the parameters; a bad one is named", "[cli]") {
  // The pendulum with friction at its pivot, logged twice (released at rest at 0.5 rad, and
  // thrown from -0.2 rad at 2.5 rad/s), its Coulomb level 50 % high in the identified file.
  Workspace ws;
  std::ifstream in(articula::test::sample_path("pendulum.json"));
  json doc = json::parse(in);
  doc["joints"][0]["friction"] = {{"coulomb", 3.5}, {"viscous", 0.5}};
  doc["sensors"] = {{{"name", "enc"}, {"type", "encoder"}, {"joint", "pivot"}, {"sigma", 5e-3}},
                    {{"name", "gyro"}, {"type", "gyro"}, {"body", "pendulum"}, {"sigma", 1e-2}}};
  json thrown = doc;
  thrown["joints"][0]["q0"] = {-0.2};
  thrown["joints"][0]["qd0"] = {2.5};
  const std::string a = (ws.dir / "a.csv").string(), b = (ws.dir / "b.csv").string();
  for (const auto& [file, log, seed] :
       {std::tuple{ws.write("a.json", doc), a, 1}, std::tuple{ws.write("b.json", thrown), b, 2}})
    REQUIRE(cli(ws, "simulate '" + file + "' --duration 3 --sample 0.01 --quiet --output '" +
                        (ws.dir / "sim.csv").string() + "' --sensors-out '" + log +
                        "' --noise-seed " + std::to_string(seed))
                .status == 0);
  json wrong = doc;
  wrong["joints"][0]["friction"]["coulomb"] = 5.25;
  const std::string file = ws.write("wrong.json", wrong);
  const std::string param = " --param /joints/0/friction/coulomb --accel-sigma 0.01";
  const Run one = cli(ws, "identify '" + file + "' '" + a + "'" + param);
  const Run two = cli(ws, "identify '" + file + "' '" + a + "' '" + b + "'" + param);
  INFO(one.err << two.err);
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  const json p1 = json::parse(one.out)["/joints/0/friction/coulomb"];
  const json p2 = json::parse(two.out)["/joints/0/friction/coulomb"];
  INFO("one log " << p1.dump() << ", two logs " << p2.dump());
  CHECK(p2["sigma"].get<double>() < 0.8 * p1["sigma"].get<double>());  // two logs: ~1/√2
  CHECK(std::abs(p2["value"].get<double>() - 3.5) < 2 * p2["sigma"].get<double>());
  std::ofstream(ws.dir / "bad.csv") << "t,enc\n0,0.5\n0.01,x\n";
  const Run bad = cli(
      ws, "identify '" + file + "' '" + a + "' '" + (ws.dir / "bad.csv").string() + "'" + param);
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Catch::Matchers::Contains("bad.csv") &&
                          Catch::Matchers::Contains("line 3, column 'enc'"));
  std::ofstream(ws.dir / "short.csv") << "t,enc\n0,0.5\n";
  const Run short_log = cli(
      ws, "identify '" + file + "' '" + a + "' '" + (ws.dir / "short.csv").string() + "'" + param);
  CHECK(short_log.status == 2);
  CHECK_THAT(short_log.err, Catch::Matchers::Contains("short.csv"));
}
