// Sensor readings (contract-additions-2 §5) along a simulated run, each against an independent
// computation: encoders and load cells against the simulate CSV columns (the same doubles), the
// world position of a ball joint from either side of the joint (the loop closed, 1e-9 m), and
// gyro and accelerometer against finite differences of three position sensors on the body
// (orientation from the points, central differences at the 1 ms step: O(h²) ≈ 1e-5, so 2e-4).
// On the RSSR sample (spatial: spherical joints, the coupler spinning in 3D).
#include <catch2/catch.hpp>
#include <fstream>

#include "core/estimation/sensor_model.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;
using nlohmann::json;

namespace {
json sensor(const std::string& name, const std::string& type, const json& fields) {
  json s = {{"name", name}, {"type", type}, {"sigma", 1e-3}};
  s.update(fields);
  return s;
}

// The RSSR with sensors on the coupler (body frame) and at both sides of ball_B.
MechanismSpec rssr_with_sensors() {
  std::ifstream in(test::sample_path("rssr.json"));
  json doc = json::parse(in);
  json ballB_parent, ballB_child;
  for (const json& j : doc["joints"])
    if (j["name"] == "ball_B")
      ballB_parent = j["parent_frame"]["position"], ballB_child = j["child_frame"]["position"];
  const json p = {0.03, 0.01, -0.02};
  doc["sensors"] = {
      sensor("enc", "encoder", {{"joint", "input"}}),
      sensor("ball", "encoder", {{"joint", "ball_A"}}),
      sensor("gyro", "gyro", {{"body", "coupler"}}),
      sensor("acc", "accelerometer", {{"body", "coupler"}, {"point", p}}),
      sensor("pa", "position", {{"body", "coupler"}, {"point", p}}),
      sensor("p0", "position", {{"body", "coupler"}, {"point", {0, 0, 0}}}),
      sensor("px", "position", {{"body", "coupler"}, {"point", {1, 0, 0}}}),
      sensor("py", "position", {{"body", "coupler"}, {"point", {0, 1, 0}}}),
      sensor("bc", "position", {{"body", "coupler"}, {"point", ballB_parent}}),
      sensor("br", "position", {{"body", "rocker"}, {"point", ballB_child}}),
      sensor("cell", "load_cell", {{"joint", "output"}, {"component", "Fy"}}),
      sensor("torque", "load_cell", {{"joint", "input"}, {"component", "Mz"}}),
  };
  return parse_project(doc.dump()).spec;
}

struct Recorded {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;  // simulate CSV rows
  std::vector<VecX> readings;             // sensor columns at the same rows
  double column(std::size_t r, const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return rows[r][static_cast<std::size_t>(it - header.begin())];
  }
};

Recorded record(const Mechanism& mech, double duration) {
  Recorded rec;
  rec.header = csv_header(mech);
  SensorModel model(mech);
  RunOptions opt = run_options_from(mech.spec);
  opt.duration = duration;
  opt.observe = [&](const Simulation& sim) {
    VecX v;
    model.read(sim, v);
    rec.readings.push_back(v);
  };
  RowSink sink;
  sink.row = [&](const Simulation&, const std::vector<double>& row) { rec.rows.push_back(row); };
  run_rows(mech, opt, sink);
  return rec;
}

int col(const SensorModel& m, const std::string& name) {
  const auto& c = m.columns();
  const auto it = std::find(c.begin(), c.end(), name);
  REQUIRE(it != c.end());
  return static_cast<int>(it - c.begin());
}

Vec3 at3(const VecX& v, int c) {
  return v.segment<3>(c);
}

// Orientation of the coupler's axes from the positions of its origin and unit points.
Mat3 axes(const VecX& v, int p0, int px, int py) {
  Mat3 R = Mat3::Zero();
  R.col(0) = at3(v, px) - at3(v, p0);
  R.col(1) = at3(v, py) - at3(v, p0);
  R.col(2) = R.col(0).cross(R.col(1));
  return R;
}
}  // namespace

TEST_CASE("sensor readings against independent computations on the RSSR", "[sensors]") {
  const MechanismSpec spec = rssr_with_sensors();
  const Mechanism mech = prepare_project(spec);
  const SensorModel model(mech);
  REQUIRE(model.size() == 1 + 4 + 3 * 8 + 2);
  CHECK(model.columns()[0] == "enc");
  CHECK(model.columns()[1] == "ball[0]");
  const Recorded rec = record(mech, 0.3);
  REQUIRE(rec.rows.size() == 301);
  const double h = 1e-3;
  double worst_acc = 0, worst_gyro = 0, worst_closure = 0;
  for (std::size_t k = 0; k < rec.rows.size(); ++k) {
    const VecX& v = rec.readings[k];
    CHECK(v[col(model, "enc")] == rec.column(k, "input.q"));
    for (int i = 0; i < 4; ++i)
      CHECK(v[col(model, "ball[" + std::to_string(i) + "]")] ==
            rec.column(k, "ball_A.q[" + std::to_string(i) + "]"));
    CHECK(v[col(model, "cell")] == rec.column(k, "output.Fy"));
    CHECK(v[col(model, "torque")] == rec.column(k, "input.Mz"));
    worst_closure =
        std::max(worst_closure, (at3(v, col(model, "bc[0]")) - at3(v, col(model, "br[0]"))).norm());
    if (k == 0 || k + 1 == rec.rows.size()) continue;
    const VecX &a = rec.readings[k - 1], &b = rec.readings[k + 1];
    const int p0 = col(model, "p0[0]"), px = col(model, "px[0]"), py = col(model, "py[0]");
    const Mat3 R = axes(v, p0, px, py);
    const int pa = col(model, "pa[0]");
    const Vec3 acc = (at3(a, pa) - 2 * at3(v, pa) + at3(b, pa)) / (h * h) - spec.gravity;
    worst_acc = std::max(worst_acc, (R.transpose() * acc - at3(v, col(model, "acc[0]"))).norm());
    const Mat3 W = R.transpose() * (axes(b, p0, px, py) - axes(a, p0, px, py)) / (2 * h);
    const Vec3 w(0.5 * (W(2, 1) - W(1, 2)), 0.5 * (W(0, 2) - W(2, 0)), 0.5 * (W(1, 0) - W(0, 1)));
    worst_gyro = std::max(worst_gyro, (w - at3(v, col(model, "gyro[0]"))).norm());
  }
  INFO("accelerometer vs FD " << worst_acc << " m/s², gyro vs FD " << worst_gyro
                              << " rad/s, ball_B from both sides " << worst_closure << " m");
  CHECK(worst_closure < 1e-9);
  CHECK(worst_acc < 2e-4);
  CHECK(worst_gyro < 2e-4);
}

TEST_CASE("an accelerometer at rest reads gravity upwards in body axes", "[sensors]") {
  // The pendulum sample held at rest at q = 0.5 rad from the downward vertical: its x axis runs
  // along the rod at 0.5 - π/2 from the world x axis, so +g up reads 9.81 (-cos 0.5, sin 0.5, 0).
  std::ifstream in(test::sample_path("pendulum.json"));
  json doc = json::parse(in);
  doc["sensors"] =
      json::array({sensor("acc", "accelerometer", {{"body", doc["bodies"][0]["name"]}})});
  const Mechanism mech = prepare_project(parse_project(doc.dump()).spec);
  SensorModel model(mech);
  Data data(mech.model());
  const VecX q = mech.q0, qd = VecX::Zero(mech.model().nv), qdd = VecX::Zero(mech.model().nv);
  std::vector<JointState> joints(mech.spec.joints.size());
  std::vector<Force> wrench(mech.spec.joints.size(), Force::Zero());
  VecX v;
  model.read(SensorState{q, qd, qdd, joints, wrench}, v);
  REQUIRE(q[0] == Approx(0.5).margin(1e-12));
  CHECK(v[0] == Approx(-9.81 * std::cos(0.5)).margin(1e-12));
  CHECK(v[1] == Approx(9.81 * std::sin(0.5)).margin(1e-12));
  CHECK(v[2] == Approx(0.0).margin(1e-12));
}

TEST_CASE("sensor noise: sample sigma within its 99% chi-square bound", "[sensors]") {
  // n = 20000 draws of σ = 0.01: n s²/σ² ~ χ²(n), 99 % two-sided bound ≈ n ± 2.576 √(2n).
  const int n = 20000;
  SensorNoise noise(VecX::Constant(1, 0.01), 7);
  double ss = 0;
  for (int i = 0; i < n; ++i) {
    VecX x = VecX::Zero(1);
    noise.add(x);
    ss += x[0] * x[0];
  }
  const double chi2 = ss / (0.01 * 0.01);
  CHECK(std::abs(chi2 - n) < 2.576 * std::sqrt(2.0 * n));
}
