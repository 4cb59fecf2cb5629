// End-to-end runs of articula-cli (project-format-v1, "Headless CLI"): info JSON, simulate CSV
// against an independent RNEA/ABA model, options, exit statuses and exact number round trips.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/io/project.hpp"
#include "core/sim/integrators.hpp"
#include "core/sim/simulation.hpp"
#include "tests/app/cli_support.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using namespace articula::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Double pendulum in the x-y plane: J1 at (0, 0.1) on ground, J2 at 0.5 along link 1 with its
// frame turned 0.3 rad about z. Optional motion drive on J1 and spring-damper on J2.
constexpr double kM1 = 1.2, kM2 = 0.8, kTurn = 0.3, kK = 5.0, kRest = 0.2, kC = 0.1;
json pendulum(bool drive, bool spring) {
  const json identity = {{"position", {0, 0, 0}}, {"quaternion", {1, 0, 0, 0}}};
  json j1 = {{"name", "J1"},
             {"type", "revolute"},
             {"parent", "ground"},
             {"child", "l1"},
             {"parent_frame", {{"position", {0, 0.1, 0}}, {"quaternion", {1, 0, 0, 0}}}},
             {"child_frame", identity},
             {"q0", {0.4}},
             {"qd0", {0.7}}};
  json j2 = {{"name", "J2"},
             {"type", "revolute"},
             {"parent", "l1"},
             {"child", "l2"},
             {"parent_frame",
              {{"position", {0.5, 0, 0}},
               {"quaternion", {std::cos(kTurn / 2), 0, 0, std::sin(kTurn / 2)}}}},
             {"child_frame", identity},
             {"q0", {0.3}},
             {"qd0", {-0.5}}};
  if (drive) j1["drive"] = {{"type", "motion"}, {"q", "0.4 + sin(3*t)"}};
  if (spring) j2["spring"] = {{"stiffness", kK}, {"rest", kRest}, {"damping", kC}};
  return {{"format", "articula"},
          {"version", 1},
          {"name", "double pendulum"},
          {"gravity", {0, -9.81, 0}},
          {"bodies",
           {{{"name", "l1"},
             {"mass", kM1},
             {"com", {0.25, 0.01, 0}},
             {"inertia", {0.001, 0.03, 0.031, 0, 0, 0}}},
            {{"name", "l2"},
             {"mass", kM2},
             {"com", {0.2, 0, 0}},
             {"inertia", {0.0005, 0.012, 0.0125, 0, 0, 0}}}}},
          {"joints", {j1, j2}},
          {"simulation", {{"duration", 0.5}, {"step", 0.001}, {"integrator", "rk4"}}}};
}

// The same pendulum built directly, not through compile().
Model pendulum_model() {
  ModelBuilder b;
  b.set_gravity(Vec3(0, -9.81, 0));
  b.add_body("l1", 0, Joint::revolute(), Transform::xlt(Vec3(0, 0.1, 0)),
             RigidBodyInertia::from_mass_com(kM1, Vec3(0.25, 0.01, 0),
                                             Vec3(0.001, 0.03, 0.031).asDiagonal()));
  b.add_body("l2", 1, Joint::revolute(),
             Transform::from_pose(rz(kTurn).transpose(), Vec3(0.5, 0, 0)),
             RigidBodyInertia::from_mass_com(kM2, Vec3(0.2, 0, 0),
                                             Vec3(0.0005, 0.012, 0.0125).asDiagonal()));
  return b.build();
}
double spring_torque(double q, double qd) {
  return -kK * (q - kRest) - kC * qd;
}

// Four-bar: crank a, coupler b, rocker c, ground d; the sketch's poses are only a starting guess.
json four_bar(double a, double b, double c, double d) {
  auto body = [](const char* name, double L, double x, double y, double angle) {
    return json{{"name", name},
                {"mass", 1.0},
                {"com", {L / 2, 0, 0}},
                {"inertia", {1e-4, L * L / 12, L * L / 12, 0, 0, 0}},
                {"pose",
                 {{"position", {x, y, 0}},
                  {"quaternion", {std::cos(angle / 2), 0, 0, std::sin(angle / 2)}}}}};
  };
  auto pin = [](const char* name, const char* p, const char* ch, double xp, double xc) {
    return json{{"name", name},
                {"type", "revolute"},
                {"parent", p},
                {"child", ch},
                {"parent_frame", {{"position", {xp, 0, 0}}, {"quaternion", {1, 0, 0, 0}}}},
                {"child_frame", {{"position", {xc, 0, 0}}, {"quaternion", {1, 0, 0, 0}}}}};
  };
  return {
      {"format", "articula"},
      {"version", 1},
      {"name", "four-bar"},
      {"bodies",
       {body("crank", a, 0, 0, 1.0), body("coupler", b, a * std::cos(1.0), a * std::sin(1.0), 0.3),
        body("rocker", c, d, 0, 1.9)}},
      {"joints",
       {pin("A", "ground", "crank", 0, 0), pin("B", "crank", "coupler", a, 0),
        pin("C", "coupler", "rocker", b, c), pin("D", "ground", "rocker", d, 0)}}};
}

std::vector<std::string> prefix(const std::vector<std::string>& v, std::size_t n) {
  return {v.begin(), v.begin() + std::min(n, v.size())};
}

// |a - b| <= tol · max(1, |b|), as CHECK_CLOSE does for vectors.
bool close(double a, double b, double tol) {
  return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

}  // namespace

TEST_CASE("cli info on a tree and on a four-bar", "[app][cli]") {
  Workspace ws;
  auto check_info = [&](const std::string& name, const json& doc, const json& expected) {
    const Run r = cli(ws, "info '" + ws.write(name, doc) + "'");
    REQUIRE(r.status == 0);
    const json info = json::parse(r.out);
    for (const auto& [key, value] : expected.items()) {
      INFO(name << ": " << key);
      CHECK(info.at(key) == value);
    }
  };
  check_info("pendulum.json", pendulum(true, true),
             {{"bodies", 2},
              {"joints", 2},
              {"tree_joints", {"J1", "J2"}},
              {"loop_joints", json::array()},
              {"coordinates", 2},
              {"mobility", 2},
              {"redundant_constraints", 0},
              {"drives", 1},
              {"loop_method", "none"}});
  check_info("fourbar.json", four_bar(0.1, 0.35, 0.3, 0.4),
             {{"bodies", 3},
              {"joints", 4},
              {"tree_joints", {"A", "B", "D"}},
              {"loop_joints", {"C"}},
              {"coordinates", 3},
              {"mobility", 1},
              {"redundant_constraints", 3},
              {"drives", 0},
              {"loop_method", "spanning tree, Method 2 (RBDA 8.5)"}});

  // A spherical joint: coordinates counts position coordinates (4 for the quaternion).
  json sph = pendulum(false, false);
  sph["joints"].erase(1);
  sph["bodies"].erase(1);
  sph["joints"][0]["type"] = "spherical";
  sph["joints"][0].erase("q0");
  sph["joints"][0].erase("qd0");
  check_info("sph.json", sph,
             {{"coordinates", 4}, {"mobility", 3}, {"loop_joints", json::array()}});
  const Run r = cli(ws, "simulate '" + ws.dir.string() + "/sph.json' --duration 0.01 --step 0.005");
  REQUIRE(r.status == 0);
  const Csv csv = parse_csv(r.out);
  std::vector<std::string> header{"t"};
  for (const auto& [what, n] : {std::pair{"q", 4}, {"qd", 3}, {"qdd", 3}, {"tau", 3}})
    for (int k = 0; k < n; ++k)
      header.push_back(std::string("J1.") + what + "[" + std::to_string(k) + "]");
  for (const char* w : {"Fx", "Fy", "Fz", "Mx", "My", "Mz"})
    header.push_back(std::string("J1.") + w);
  CHECK(prefix(csv.header, header.size()) == header);
  CHECK(csv.rows.size() == 3);  // t = 0, 0.005, 0.01
}

TEST_CASE("cli simulate: a motion-driven double pendulum against independent RNEA and ABA",
          "[app][cli]") {
  Workspace ws;
  const std::string file = ws.write("p.json", pendulum(true, true));
  const std::string out = (ws.dir / "out.csv").string();
  const Run r = cli(ws, "simulate '" + file + "' --output '" + out + "'");
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());  // CSV went to the file
  const Csv csv = parse_csv(slurp(out));
  const std::vector<std::string> header{"t",     "J1.q",   "J1.qd",  "J1.qdd", "J1.tau", "J1.Fx",
                                        "J1.Fy", "J1.Fz",  "J1.Mx",  "J1.My",  "J1.Mz",  "J2.q",
                                        "J2.qd", "J2.qdd", "J2.tau", "J2.Fx",  "J2.Fy",  "J2.Fz",
                                        "J2.Mx", "J2.My",  "J2.Mz"};
  CHECK(prefix(csv.header, header.size()) == header);  // the contract's columns, in order
  for (std::size_t c = header.size(); c < csv.header.size(); ++c)  // extensions may follow
    CHECK(std::find(header.begin(), header.end(), csv.header[c]) == header.end());
  REQUIRE(csv.rows.size() == 501);  // t = 0 plus one row per step of 0.001 over 0.5 s
  CHECK(csv.text.front()[0] == "0");
  CHECK(csv.rows.back()[0] == 0.5);  // exactly the end time
  // Initial state: J1 from its drive law at t = 0, J2 from q0/qd0 (exactly as written).
  CHECK(csv.at(0, "J1.q") == 0.4);
  CHECK(csv.at(0, "J1.qd") == 3.0);
  CHECK(csv.at(0, "J2.q") == 0.3);
  CHECK(csv.at(0, "J2.qd") == -0.5);

  const Model model = pendulum_model();
  Data data(model);
  for (std::size_t n = 0; n < csv.rows.size(); ++n) {
    const double t = csv.at(n, "t");
    INFO("row " << n << ", t = " << t);
    // The driven coordinate follows 0.4 + sin 3t exactly (bit for bit), with exact derivatives;
    // q̈ = -9 sin 3t to 1e-15 because the forward-mode product 3·3 may round in another order.
    CHECK(csv.at(n, "J1.q") == 0.4 + std::sin(3 * t));
    CHECK(csv.at(n, "J1.qd") == 3 * std::cos(3 * t));
    CHECK(close(csv.at(n, "J1.qdd"), -9 * std::sin(3 * t), 1e-15));
    VecX q(2), qd(2), qdd(2);
    q << csv.at(n, "J1.q"), csv.at(n, "J2.q");
    qd << csv.at(n, "J1.qd"), csv.at(n, "J2.qd");
    qdd << csv.at(n, "J1.qdd"), csv.at(n, "J2.qdd");
    const VecX tau = rnea(model, data, q, qd, qdd);
    // 1e-9 relative: the CLI's own RNEA on a compiled model differs only by rounding (~1e-15).
    CHECK(close(csv.at(n, "J1.tau"), tau[0], 1e-9));
    CHECK(close(csv.at(n, "J2.tau"), tau[1], 1e-9));
    CHECK(close(csv.at(n, "J2.tau"), spring_torque(q[1], qd[1]), 1e-9));  // J2's only applied force
    // Wrenches: child frames coincide with the body frames here, so they are RNEA's f_i.
    const char* names[6] = {"Fx", "Fy", "Fz", "Mx", "My", "Mz"};
    const int comp[6] = {3, 4, 5, 0, 1, 2};
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 6; ++k)
        CHECK(close(csv.at(n, "J" + std::to_string(j + 1) + "." + names[k]), data.f[j + 1][comp[k]],
                    1e-9));
  }
  // J2.qdd at t = 0 is the forward dynamics of the initial state under the drive torque and spring.
  VecX q0(2), qd0(2), tau0(2);
  q0 << 0.4, 0.3;
  qd0 << 3.0, -0.5;
  tau0 << csv.at(0, "J1.tau"), spring_torque(0.3, -0.5);
  const VecX qdd0 = aba(model, data, q0, qd0, tau0);
  CHECK(std::abs(qdd0[0] - 0.0) <= 1e-9);  // -9 sin 0: the drive torque is consistent
  CHECK(close(csv.at(0, "J2.qdd"), qdd0[1], 1e-9));
  CHECK(std::abs(csv.at(0, "J1.tau")) > 0.1);  // a real torque, not a zero column
}

TEST_CASE("cli simulate: a passive tree follows rk4_step/euler_step with ABA", "[app][cli]") {
  Workspace ws;
  const std::string file = ws.write("p.json", pendulum(false, true));
  const Model model = pendulum_model();
  Data data(model);
  const AccelerationFn f = [&](double, const VecX& q, const VecX& v, VecX& qdd) {
    VecX tau(2);
    tau << 0.0, spring_torque(q[1], v[1]);
    qdd = aba(model, data, q, v, tau);
  };
  std::map<std::string, Csv> runs;
  for (const char* integrator : {"rk4", "euler"}) {
    const Run r = cli(ws, "simulate '" + file + "' --integrator " + integrator);
    REQUIRE(r.status == 0);
    const Csv csv = parse_csv(r.out);
    REQUIRE(csv.rows.size() == 501);
    IntegratorWorkspace iw(model);
    VecX q(2), v(2);
    q << 0.4, 0.3;
    v << 0.7, -0.5;
    double t = 0.0;
    for (std::size_t n = 0; n < csv.rows.size(); ++n) {
      INFO(integrator << " row " << n);
      if (n > 0) {
        const double h = csv.at(n, "t") - t;
        CHECK(std::abs(h - 0.001) <= 1e-15);
        (std::string(integrator) == "rk4" ? rk4_step : euler_step)(model, f, t, h, q, v, iw);
        t = csv.at(n, "t");
      }
      // 1e-12: both sides integrate the same equations with the same steps; only the
      // dynamics algorithm's rounding differs (hybrid dynamics vs ABA).
      CHECK(close(csv.at(n, "J1.q"), q[0], 1e-12));
      CHECK(close(csv.at(n, "J2.q"), q[1], 1e-12));
      CHECK(close(csv.at(n, "J1.qd"), v[0], 1e-12));
      CHECK(close(csv.at(n, "J2.qd"), v[1], 1e-12));
      VecX qdd;
      f(t, q, v, qdd);
      CHECK(close(csv.at(n, "J2.qdd"), qdd[1], 1e-12));
      // No drive and no spring on J1: J.tau is exactly zero.
      CHECK(std::abs(csv.at(n, "J1.tau")) <= 1e-12);
    }
    runs[integrator] = csv;
  }
  // The integrators differ (first vs fourth order): by far more than rounding at t = 0.5.
  CHECK(std::abs(runs["rk4"].rows.back()[1] - runs["euler"].rows.back()[1]) > 1e-5);
}

TEST_CASE("cli simulate: --sample, --duration and --step", "[app][cli]") {
  Workspace ws;
  const std::string file = ws.write("p.json", pendulum(true, true));
  const Csv full = parse_csv(cli(ws, "simulate '" + file + "'").out);
  REQUIRE(full.rows.size() == 501);

  const Run sampled = cli(ws, "simulate '" + file + "' --sample 0.1");
  REQUIRE(sampled.status == 0);
  const Csv s = parse_csv(sampled.out);
  REQUIRE(s.rows.size() == 6);  // t = 0, 0.1, ..., 0.5
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(std::abs(s.rows[k][0] - 0.1 * k) <= 1e-12);  // n·h accumulated: rounding only
    CHECK(s.text[k] == full.text[100 * k]);            // the very same rows as the full run
  }
  CHECK(s.rows.back()[0] == 0.5);

  // 0.105 s in steps of 0.01: ten full steps and a last short one ending exactly at 0.105.
  const Run d = cli(ws, "simulate '" + file + "' --duration 0.105 --step 0.01");
  REQUIRE(d.status == 0);
  const Csv c = parse_csv(d.out);
  REQUIRE(c.rows.size() == 12);
  CHECK(std::abs(c.rows[10][0] - 0.1) <= 1e-15);
  CHECK(c.rows.back()[0] == 0.105);
  CHECK(c.at(11, "J1.q") == 0.4 + std::sin(3 * 0.105));  // drive evaluated at the exact end time

  const Run z = cli(ws, "simulate '" + file + "' --duration 0.002");
  REQUIRE(z.status == 0);
  CHECK(parse_csv(z.out).rows.size() == 3);  // the file's step 0.001 is kept
}

TEST_CASE("cli simulate: numbers read back exactly and match the in-process simulation",
          "[app][cli]") {
  Workspace ws;
  const std::string file = ws.write("p.json", pendulum(true, true));
  const Run r = cli(ws, "simulate '" + file + "' --duration 0.05");
  REQUIRE(r.status == 0);
  const Csv csv = parse_csv(r.out);
  REQUIRE(csv.rows.size() == 51);
  for (std::size_t n = 0; n < csv.rows.size(); ++n)
    for (std::size_t c = 0; c < csv.header.size(); ++c) {
      // strtod then shortest re-formatting gives back the very token: nothing was rounded away.
      char buf[32];
      const auto res = std::to_chars(buf, buf + sizeof buf, csv.rows[n][c]);
      CHECK(std::string(buf, res.ptr) == csv.text[n][c]);
    }
  // The same run in-process, stepped as the contract says (one step per row, last at the end).
  const Mechanism mech = prepare(load_project(file).spec);
  Simulation sim(mech);
  sim.evaluate();
  const int steps = 50;
  for (int n = 0; n <= steps; ++n) {
    if (n > 0) {
      sim.step((n == steps ? 0.05 : n * 0.001) - sim.time(), Integrator::RK4);
      sim.evaluate();
    }
    INFO("row " << n);
    REQUIRE(csv.rows[n][0] == sim.time());
    std::size_t col = 1;
    for (const auto& js : sim.joint_states()) {
      auto same = [&](const auto& x) {  // q holds up to 7 values, the rest up to 6: two types
        for (int k = 0; k < x.size(); ++k) CHECK(csv.rows[n][col++] == x[k]);  // bit for bit
      };
      same(js.q), same(js.qd), same(js.qdd), same(js.tau);
      col += 6;
    }
    for (std::size_t j = 0; j < 2; ++j)
      for (int k = 0; k < 6; ++k)
        CHECK(csv.rows[n][1 + 10 * j + 4 + k] == sim.wrench()[j][(k + 3) % 6]);
  }
}

TEST_CASE("cli: invalid files exit 2 naming the field, and write no output", "[app][cli][errors]") {
  Workspace ws;
  const std::string out = (ws.dir / "out.csv").string();
  json bad_type = pendulum(true, true), bad_mass = pendulum(true, true),
       bad_expr = pendulum(true, true), bad_body = pendulum(true, true);
  bad_type["joints"][1]["type"] = "hinge";
  bad_mass["bodies"][0]["mass"] = -1.0;
  bad_expr["joints"][0]["drive"]["q"] = "0.4 + sinn(3*t)";
  bad_body["joints"][1]["child"] = "l3";
  const std::pair<json, std::string> cases[] = {{bad_type, "/joints/1/type"},
                                                {bad_mass, "/bodies/0/mass"},
                                                {bad_expr, "/joints/0/drive/q"},
                                                {bad_body, "/joints/1/child"}};
  for (const auto& [doc, pointer] : cases) {
    INFO(pointer);
    const std::string file = ws.write("bad.json", doc);
    const Run r = cli(ws, "simulate '" + file + "' --output '" + out + "'");
    CHECK(r.status == 2);
    CHECK(r.err.find(pointer) != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    CHECK(ws.listing() == std::vector<std::string>{"bad.json"});  // no temporary left behind
    CHECK(cli(ws, "info '" + file + "'").status == 2);
  }
  // An unknown integrator on the command line is invalid input too.
  const std::string good = ws.write("good.json", pendulum(true, true));
  const Run r = cli(ws, "simulate '" + good + "' --integrator verlet --output '" + out + "'");
  CHECK(r.status == 2);
  CHECK(r.err.find("/simulation/integrator") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("cli: a four-bar that cannot close exits 3", "[app][cli][errors]") {
  Workspace ws;
  const std::string out = (ws.dir / "out.csv").string();
  const std::string file =
      ws.write("bad_fourbar.json", four_bar(1.0, 0.3, 0.3, 0.2));  // a > b + c + d
  const Run r = cli(ws, "simulate '" + file + "' --output '" + out + "'");
  CHECK(r.status == 3);
  CHECK(r.err.find("'C'") != std::string::npos);
  CHECK(r.err.find("residual") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  CHECK(ws.listing() == std::vector<std::string>{"bad_fourbar.json"});
  CHECK(cli(ws, "info '" + file + "'").status == 3);
}

// Contract: "J.tau = generalized force produced at the joint by its drive and spring". A joint
// with neither produces none: exactly zero, not the rounding of an inverse-dynamics pass.
TEST_CASE("cli: a joint without drive or spring reports J.tau = 0 exactly", "[app][cli]") {
  Workspace ws;
  const Run r =
      cli(ws, "simulate '" + ws.write("p.json", pendulum(false, false)) + "' --duration 0.01");
  REQUIRE(r.status == 0);
  const Csv csv = parse_csv(r.out);
  for (std::size_t n = 0; n < csv.rows.size(); ++n) {
    INFO("row " << n);
    CHECK(csv.at(n, "J1.tau") == 0.0);
    CHECK(csv.at(n, "J2.tau") == 0.0);
  }
}

TEST_CASE("cli: sketched links kept under /sketch/floating are not simulated, with a warning",
          "[app][cli]") {
  Workspace ws;
  json doc = pendulum(true, false);
  const Run plain = cli(ws, "simulate '" + ws.write("plain.json", doc) + "' --duration 0.01");
  REQUIRE(plain.status == 0);
  doc["sketch"]["floating"] = {
      {"bodies",
       {{{"name", "loose"}, {"mass", 1}, {"com", {0, 0, 0}}, {"inertia", {1, 1, 1, 0, 0, 0}}}}},
      {"joints", json::array()}};
  const Run r = cli(ws, "simulate '" + ws.write("sketch.json", doc) + "' --duration 0.01");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.err,
             Catch::Contains("/sketch/floating: 1 sketched link(s) not connected to ground"));
  CHECK(r.out == plain.out);  // the grounded mechanism, exactly as without the sketch
}
