// The Stewart platform (issue 20): its top plate's pose estimated from the six leg-length
// encoders alone. The sample's legs are motion-driven (the truth, simulated); in the
// estimator's file their drives are unknown forces, so the six leg lengths are the independent
// coordinates and the plate's pose, the universal joints' angles and the tree ball joint's
// quaternion follow from the position solve (spherical joints with quaternion coordinates
// inside the loops).
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/estimation/estimate_output.hpp"
#include "core/estimation/smoother.hpp"
#include "core/estimation/smoother_problem.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/sensor_logs.hpp"

using namespace articula;
using nlohmann::json;

namespace {
constexpr double kLegEncoderSigma = 1e-4;  // m: a 0.1 mm leg-length encoder

// One length encoder per leg (legN on prismatic joint PN).
json leg_encoders() {
  json sensors = json::array();
  for (int leg = 1; leg <= 6; ++leg)
    sensors.push_back({{"name", "leg" + std::to_string(leg)},
                       {"type", "encoder"},
                       {"joint", "P" + std::to_string(leg)},
                       {"sigma", kLegEncoderSigma}});
  return sensors;
}

json stewart_with_encoders() {
  return test::sample_with_sensors("stewart_platform.json", leg_encoders());
}

// The leg encoders and a gyro and accelerometer at the top plate's origin (σ 1e-2): the issue's
// spatial benchmark's sensors.
json stewart_with_legs_and_imu() {
  json sensors = leg_encoders();
  sensors.push_back({{"name", "gyro"}, {"type", "gyro"}, {"body", "top_plate"}, {"sigma", 1e-2}});
  sensors.push_back({{"name", "acc"},
                     {"type", "accelerometer"},
                     {"body", "top_plate"},
                     {"point", {0, 0, 0}},
                     {"sigma", 1e-2}});
  return test::sample_with_sensors("stewart_platform.json", sensors);
}

// The plate's world pose at full coordinates q.
Transform plate_pose(const Mechanism& mech, const VecX& q) {
  Data data(mech.model());
  forward_kinematics(mech.model(), data, q);
  return data.X0[mech.model().body_index("top_plate")];
}
}  // namespace

TEST_CASE("estimation: the Stewart platform's plate pose from its leg encoders", "[stewart]") {
  const json truth_doc = stewart_with_encoders();
  const Mechanism truth = prepare_project(parse_project(truth_doc.dump()).spec);
  RunOptions ro = run_options_from(truth.spec);
  ro.duration = 0.5;
  ro.sample = 0.01;
  std::vector<VecX> q_true;
  const std::string csv =
      test::simulated_log(truth, ro, 9, [&](const Simulation& sim) { q_true.push_back(sim.q()); });
  json est_doc = truth_doc;
  for (json& j : est_doc["joints"])
    if (j.contains("drive")) j["drive"] = {{"type", "unknown"}};
  const Mechanism mech = prepare_project(parse_project(est_doc.dump()).spec);
  StateSpace space(mech);
  REQUIRE(space.m() == 6);
  CHECK(mech.model().nq == mech.model().nv + 1);  // one ball joint in the tree (a quaternion)
  const MeasurementLog log = parse_measurements(csv, "stewart.csv", space.sensors());
  EstimatorOptions opt;
  opt.accel_sigma = 0.1;
  opt.force_sigma = 100.0;
  const SmoothedMotion est = smooth_batch(space, log, opt);
  double worst_r = 0.0, worst_angle = 0.0, worst_leg = 0.0, worst_fk = 0.0, worst_loop = 0.0;
  Data data(mech.model());
  VecX delta, q = mech.q0;
  for (std::size_t k = 0; k < q_true.size(); ++k) {
    const Transform a = plate_pose(mech, est.q[k]), b = plate_pose(truth, q_true[k]);
    worst_r = std::max(worst_r, (a.r - b.r).norm());
    worst_angle = std::max(worst_angle, Eigen::AngleAxisd(a.E * b.E.transpose()).angle());
    const VecX x = space.state_of(q_true[k], VecX::Zero(mech.model().nv));
    for (int i = 0; i < 6; ++i)
      worst_leg = std::max(worst_leg, std::abs(est.xu[k][i] - x[i]) / std::sqrt(est.cov[k](i, i)));
    // The position solve alone (quaternion steps on the manifold) from the true leg lengths
    // finds the true pose: forward kinematics of the platform, on the truth's branch.
    VecX qd;
    space.full_state(log.t[k], x, q, qd);
    worst_fk = std::max(worst_fk, (plate_pose(mech, q).r - b.r).norm());
    forward_kinematics(mech.model(), data, est.q[k]);
    loop_position_errors(mech.model(), data, mech.compiled.loops, delta);
    worst_loop = std::max(worst_loop, delta.cwiseAbs().maxCoeff());
  }
  INFO("plate position error " << worst_r << " m, orientation " << worst_angle
                               << " rad, leg lengths within " << worst_leg << " sigma, "
                               << est.iterations << " iterations; from the true legs " << worst_fk
                               << " m; loop error " << worst_loop);
  CHECK(worst_fk < 1e-10);    // the closure tolerance, 1e-12, times the lever arms
  CHECK(worst_loop < 1e-10);  // the estimate's loops closed exactly, not by soft factors
  // Measured 3.7e-4 m and 8.7e-4 rad at worst over 51 rows: the legs' errors (σ 1e-4 m each,
  // a fraction of that after smoothing) through the platform's kinematics, which amplify them.
  CHECK(worst_r < 1e-3);
  CHECK(worst_angle < 2e-3);
  CHECK(worst_leg < 4.0);  // 306 leg values, each within 4 posterior σ
  // The estimate's CSV (articula-cli estimate): every row as many cells as the header. The rows
  // lacked the joints' 36 forces: a knot is placed only as far as its sensors read (encoders).
  std::ostringstream out;
  write_estimate(space, est, out);
  std::istringstream lines(out.str());
  std::string line;
  std::vector<std::size_t> cells;
  while (std::getline(lines, line))
    cells.push_back(static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1);
  REQUIRE(cells.size() == log.t.size() + 1);
  CHECK(std::count(cells.begin(), cells.end(), cells[0]) == static_cast<long>(cells.size()));
}

TEST_CASE("estimation: the Stewart platform's fixed-lag smoother reuses linearisations",
          "[stewart]") {
  // Leg encoders and a plate gyro and accelerometer at 1 kHz, the legs' forces unknown: the
  // issue's spatial benchmark. A knot's linearisation is reused while its estimate moves less
  // than EstimatorOptions::relinearise, u measured by the change it makes in the next knot's
  // state (newtons of leg force move micrometres over 1 ms). With u in its own units times the
  // row interval (as before), 19 of the window's 20 knots were linearised again at every row.
  const json truth_doc = stewart_with_legs_and_imu();
  const Mechanism truth = prepare_project(parse_project(truth_doc.dump()).spec);
  RunOptions ro = run_options_from(truth.spec);
  ro.duration = 0.06;  // 61 rows at the file's step, 1 ms
  const std::string csv = test::simulated_log(truth, ro, 5);
  json est_doc = truth_doc;
  for (json& j : est_doc["joints"])
    if (j.contains("drive")) j["drive"] = {{"type", "unknown"}};
  const Mechanism mech = prepare_project(parse_project(est_doc.dump()).spec);
  StateSpace space(mech);
  const MeasurementLog log = parse_measurements(csv, "stewart.csv", space.sensors());
  REQUIRE(log.t.size() == 61);
  EstimatorOptions opt;
  opt.accel_sigma = 0.1;
  opt.force_sigma = 100.0;
  const SmoothedMotion fast = smooth_fixed_lag(space, log, opt, 10);
  opt.relinearise = 0.0;
  const SmoothedMotion exact = smooth_fixed_lag(space, log, opt, 10);
  double worst = 0;
  for (std::size_t k = 0; k < exact.xu.size(); ++k) {
    const VecX sd = exact.cov[k].diagonal().cwiseSqrt();
    worst = std::max(worst, ((fast.xu[k] - exact.xu[k]).cwiseQuotient(sd)).cwiseAbs().maxCoeff());
    CHECK((fast.cov[k] - exact.cov[k]).norm() < 0.01 * exact.cov[k].norm());
  }
  INFO("largest difference " << worst << " posterior sigma; " << fast.linearisations
                             << " linearisations for " << log.t.size() << " rows (exact "
                             << exact.linearisations << ")");
  CHECK(worst < 0.01);  // far below the estimate's own uncertainty
  // About one new linearisation per row (the newest knot's), not the window's.
  CHECK(fast.linearisations < 1.5 * static_cast<double>(log.t.size()));
}

// The estimator places a knot (Simulation::restore to the acceleration stage) and steps from it;
// the step's first RK4 stage reuses the placement's accelerations and power. Checked bit for
// bit (==) against the same step after a placement that computed none (Motion stage), on the
// Stewart platform with its legs' forces set (the estimator's file, drives unknown).
TEST_CASE("estimation: a step after an acceleration placement equals the plain step", "[stewart]") {
  json doc = stewart_with_encoders();
  for (json& j : doc["joints"])
    if (j.contains("drive")) j["drive"] = {{"type", "unknown"}};
  const Mechanism mech = prepare_project(parse_project(doc.dump()).spec);
  StateSpace space(mech);
  REQUIRE(space.nu() == 6);
  VecX xu = VecX::Zero(space.nb());
  xu.head(space.nx()) = space.state_of(mech.q0, mech.qd0);
  xu[space.m()] = 0.05;                                                      // a leg extending
  for (int k = 0; k < space.nu(); ++k) xu[space.nx() + k] = 40.0 + 7.0 * k;  // N
  VecX q = mech.q0;
  const Simulation& placed = space.place(0.0, xu, q);  // Acceleration stage: the IMU-free file
  const VecX q0 = placed.q(), qd0 = placed.qd();
  Simulation reused(mech), plain(mech);
  for (int k = 0; k < space.nu(); ++k) {
    reused.set_drive_value(space.unknown_joints()[k], xu[space.nx() + k]);
    plain.set_drive_value(space.unknown_joints()[k], xu[space.nx() + k]);
  }
  reused.set_step_projection(false);
  plain.set_step_projection(false);
  // evaluate() right after the placement may take its solve too: the same forces, bit for bit.
  reused.restore(0.0, q0, qd0, 0.0, 0.0, Simulation::Stage::Acceleration);
  plain.restore(0.0, q0, qd0, 0.0, 0.0, Simulation::Stage::Motion);
  reused.evaluate();
  plain.evaluate();
  CHECK(reused.qdd() == plain.qdd());
  CHECK(reused.tau() == plain.tau());
  CHECK(reused.wrench() == plain.wrench());  // every joint's 6-vector
  reused.restore(0.0, q0, qd0, 0.0, 0.0, Simulation::Stage::Acceleration);
  plain.restore(0.0, q0, qd0, 0.0, 0.0, Simulation::Stage::Motion);
  for (int step = 0; step < 2; ++step) {  // the second step: nothing left to reuse
    reused.step(1e-3, Integrator::RK4);
    plain.step(1e-3, Integrator::RK4);
    CHECK(reused.q() == plain.q());
    CHECK(reused.qd() == plain.qd());
  }
  reused.evaluate();
  plain.evaluate();
  CHECK(reused.energy().work == plain.energy().work);  // the first stage's power too
}

// A knot's Jacobian is taken by forward differences in every column (smoother_problem.cpp),
// θ's included, though the position solve bends h and f in θ: checked here against central
// differences of the same step on the Stewart platform (leg encoders, plate gyro and
// accelerometer, the legs' forces unknown), at a placed state of its log.
TEST_CASE("estimation: forward-difference knot Jacobians agree with central differences",
          "[stewart]") {
  json doc = stewart_with_legs_and_imu();
  const Mechanism truth = prepare_project(parse_project(doc.dump()).spec);
  RunOptions ro = run_options_from(truth.spec);
  ro.duration = 0.004;
  const std::string csv = test::simulated_log(truth, ro, 3);
  for (json& j : doc["joints"])
    if (j.contains("drive")) j["drive"] = {{"type", "unknown"}};
  const Mechanism mech = prepare_project(parse_project(doc.dump()).spec);
  StateSpace space(mech);
  const MeasurementLog log = parse_measurements(csv, "stewart.csv", space.sensors());
  EstimatorOptions opt;
  const auto rows = static_cast<int>(log.t.size());
  smoother::Problem p{&space, log,     opt,    0,       rows, VecX(), MatX(),
                      {},     nullptr, VecX(), nullptr, {},   0};
  p.q.assign(log.t.size(), mech.q0);
  VecX xu = VecX::Zero(space.nb());
  xu.head(space.nx()) = space.state_of(mech.q0, mech.qd0);
  xu[space.m()] = 0.05;  // a leg extending, the others still
  for (int k = 0; k < space.nu(); ++k) xu[space.nx() + k] = 40.0 + 7.0 * k;  // N
  const smoother::KnotModel km = smoother::linearise(p, 0, xu, true);
  REQUIRE(km.f.size() == space.nx());
  double worst = 0.0;
  for (int j = 0; j < space.nb(); ++j) {
    const double d = 1e-5 * (1.0 + std::abs(xu[j]));
    VecX x = xu, hp, fp, hm, fm;
    const VecX q_here = p.q[0];
    x[j] = xu[j] + d;
    smoother::knot_values(p, 0, x, hp, fp, true);
    p.q[0] = q_here;
    x[j] = xu[j] - d;
    smoother::knot_values(p, 0, x, hm, fm, true);
    p.q[0] = q_here;
    const VecX ch = (hp - hm) / (2 * d), cf = (fp - fm) / (2 * d);
    const double scale = std::max({1.0, ch.cwiseAbs().maxCoeff(), cf.cwiseAbs().maxCoeff()});
    worst = std::max({worst, (km.Jh.col(j) - ch).cwiseAbs().maxCoeff() / scale,
                      (km.Jf.col(j) - cf).cwiseAbs().maxCoeff() / scale});
  }
  INFO("worst column difference " << worst << " of the column's largest entry");
  // Forward differences' truncation error d/2 f'' (d = 1e-5): measured 3.3e-5 of the column's
  // largest entry (at least 1).
  CHECK(worst < 1e-4);
}
