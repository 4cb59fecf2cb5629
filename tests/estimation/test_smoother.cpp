// The batch smoother (issue 20) against independent references:
// - a linear-Gaussian system (a torsional oscillator: rotor on a hinge with a spring and a damper,
//   no gravity, encoder only, some rows missing) must give the Rauch-Tung-Striebel smoother's
//   means and covariances, written here from the textbook recursions with the transition matrix
//   of RK4 on [0 1; -k/I -c/I] (the simulation's integrator): 1e-9;
// - the crank torque of the motion-driven four-bar sample (Articula's exact inverse dynamics, the
//   simulate CSV's A0.tau) recovered with the drive declared unknown, from an encoder (1e-3 rad)
//   and a coupler gyro (1e-2 rad/s) at 1 kHz over 1 s: RMS error below 2 % of the peak.
#include <catch2/catch.hpp>
#include <random>
#include <sstream>

#include "core/estimation/smoother.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/sensor_logs.hpp"

using namespace articula;
using nlohmann::json;

namespace {
const double kStiff = 2.0, kDamp = 0.1, kInertia = 0.5, kSigma = 0.01, kStep = 0.01;

json oscillator() {
  return {
      {"format", "articula"},
      {"version", 1},
      {"gravity", {0, 0, 0}},
      {"bodies",
       {{{"name", "rotor"},
         {"mass", 1.0},
         {"com", {0, 0, 0}},
         {"inertia", {0.3, 0.4, kInertia, 0, 0, 0}}}}},
      {"joints",
       {{{"name", "hinge"},
         {"type", "revolute"},
         {"parent", "ground"},
         {"child", "rotor"},
         {"q0", {0.1}},
         {"qd0", {0.0}},
         {"spring", {{"stiffness", kStiff}, {"rest", 0.0}, {"damping", kDamp}}}}}},
      {"sensors", {{{"name", "enc"}, {"type", "encoder"}, {"joint", "hinge"}, {"sigma", kSigma}}}},
      {"simulation", {{"duration", 2}, {"step", kStep}, {"integrator", "rk4"}}}};
}

using M2 = Eigen::Matrix2d;
using V2 = Eigen::Vector2d;

// RK4's transition for ẋ = F x over one step h: the Taylor polynomial of e^{Fh} to fourth order.
M2 rk4_transition(double h) {
  M2 F;
  F << 0, 1, -kStiff / kInertia, -kDamp / kInertia;
  const M2 A = F * h;
  return M2::Identity() + A + A * A / 2 + A * A * A / 6 + A * A * A * A / 24;
}

struct Rts {
  std::vector<V2> x;
  std::vector<M2> P;
};

// Kalman filter then Rauch-Tung-Striebel, with the estimator's prior, process and sensor noise.
Rts rts(const MeasurementLog& log, const EstimatorOptions& o) {
  const auto N = static_cast<std::size_t>(log.t.size());
  std::vector<V2> xf(N), xp(N);
  std::vector<M2> Pf(N), Pp(N), A(N, M2::Identity());
  xp[0] = V2(0.1, 0.0);
  Pp[0] = V2(o.prior_q_sigma * o.prior_q_sigma, o.prior_qd_sigma * o.prior_qd_sigma).asDiagonal();
  for (std::size_t k = 0; k < N; ++k) {
    xf[k] = xp[k], Pf[k] = Pp[k];
    if (log.present(static_cast<Eigen::Index>(k), 0) != 0.0) {  // H = [1 0]
      const double S = Pp[k](0, 0) + kSigma * kSigma;
      const V2 K = Pp[k].col(0) / S;
      xf[k] = xp[k] + K * (log.values(static_cast<Eigen::Index>(k), 0) - xp[k][0]);
      Pf[k] = Pp[k] - K * Pp[k].row(0);
    }
    if (k + 1 == N) break;
    const double dt = log.t[static_cast<Eigen::Index>(k + 1)] - log.t[static_cast<Eigen::Index>(k)];
    const int sub = static_cast<int>(std::ceil(dt / kStep - 1e-9));
    for (int s = 0; s < sub; ++s) A[k] = rk4_transition(dt / sub) * A[k];
    M2 Q;
    Q << dt * dt * dt / 3, dt * dt / 2, dt * dt / 2, dt;
    Q *= o.accel_sigma * o.accel_sigma;
    xp[k + 1] = A[k] * xf[k];
    Pp[k + 1] = A[k] * Pf[k] * A[k].transpose() + Q;
  }
  Rts out{xf, Pf};
  for (std::size_t k = N - 1; k-- > 0;) {
    const M2 C = Pf[k] * A[k].transpose() * Pp[k + 1].inverse();
    out.x[k] = xf[k] + C * (out.x[k + 1] - xp[k + 1]);
    out.P[k] = Pf[k] + C * (out.P[k + 1] - Pp[k + 1]) * C.transpose();
  }
  return out;
}
}  // namespace

TEST_CASE("batch smoother equals the RTS smoother on a linear-Gaussian oscillator",
          "[estimation]") {
  const Mechanism mech = prepare_project(parse_project(oscillator().dump()).spec);
  StateSpace space(mech);
  REQUIRE(space.m() == 1);
  // Rows every 20 ms (two simulation steps), some left empty, times not on a uniform grid.
  std::ostringstream csv;
  csv << "t,enc\n";
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0.0, kSigma);
  double t = 0.0;
  for (int k = 0; k < 80; ++k) {
    csv << t << ',';
    if (k % 7 != 3) csv << 0.1 * std::cos(2.0 * t) + noise(rng);
    csv << '\n';
    t += k % 5 == 2 ? 0.03 : 0.02;
  }
  const MeasurementLog log = parse_measurements(csv.str(), "osc.csv", space.sensors());
  EstimatorOptions opt;
  opt.accel_sigma = 0.5;
  const SmoothedMotion est = smooth_batch(space, log, opt);
  const Rts ref = rts(log, opt);
  double worst_x = 0, worst_P = 0;
  for (std::size_t k = 0; k < ref.x.size(); ++k) {
    worst_x = std::max(worst_x, (est.xu[k] - ref.x[k]).cwiseAbs().maxCoeff());
    worst_P = std::max(worst_P, (est.cov[k] - ref.P[k]).cwiseAbs().maxCoeff() / ref.P[k].norm());
  }
  INFO("iterations " << est.iterations << ", worst mean " << worst_x << ", worst cov " << worst_P);
  CHECK(worst_x < 1e-9);
  CHECK(worst_P < 1e-9);
}

TEST_CASE("fixed-lag smoother: exact marginalisation on the linear oscillator", "[estimation]") {
  // Linear-Gaussian: the last window's rows equal the batch smoother over the whole log, and a
  // row leaving the window equals the batch smoother over the log up to the window's end (1e-9).
  const Mechanism mech = prepare_project(parse_project(oscillator().dump()).spec);
  StateSpace space(mech);
  std::ostringstream csv;
  csv << "t,enc\n";
  std::mt19937 rng(9);
  std::normal_distribution<double> noise(0.0, kSigma);
  for (int k = 0; k < 40; ++k)
    csv << 0.02 * k << ',' << 0.1 * std::cos(0.04 * k) + noise(rng) << '\n';
  const MeasurementLog log = parse_measurements(csv.str(), "osc.csv", space.sensors());
  EstimatorOptions opt;
  opt.accel_sigma = 0.5;
  const int W = 10;
  const SmoothedMotion lag = smooth_fixed_lag(space, log, opt, W);
  const SmoothedMotion batch = smooth_batch(space, log, opt);
  double worst_tail = 0, worst_cov = 0;
  for (int k = 40 - W; k < 40; ++k) {
    worst_tail = std::max(worst_tail, (lag.xu[k] - batch.xu[k]).cwiseAbs().maxCoeff());
    worst_cov = std::max(worst_cov, (lag.cov[k] - batch.cov[k]).norm() / batch.cov[k].norm());
  }
  // Row 5 left the window when row 5 + W arrived: the batch over rows 0 .. 5 + W - 1.
  MeasurementLog head = log;
  head.t = log.t.head(5 + W);
  head.values = log.values.topRows(5 + W);
  head.present = log.present.topRows(5 + W);
  const SmoothedMotion part = smooth_batch(space, head, opt);
  const double worst_left = (lag.xu[5] - part.xu[5]).cwiseAbs().maxCoeff();
  INFO("last window " << worst_tail << " (cov " << worst_cov << "), row 5 " << worst_left);
  CHECK(worst_tail < 1e-9);
  CHECK(worst_cov < 1e-9);
  CHECK(worst_left < 1e-9);
  CHECK((lag.cov[5] - part.cov[5]).norm() < 1e-9 * part.cov[5].norm());
}

TEST_CASE("progress callback: every iteration reported, false cancels", "[estimation]") {
  // The app's Estimate shows this and cancels through it; the result must not change.
  const Mechanism mech = prepare_project(parse_project(oscillator().dump()).spec);
  StateSpace space(mech);
  std::ostringstream csv;
  csv << "t,enc\n";
  for (int k = 0; k < 20; ++k) csv << 0.02 * k << ',' << 0.1 * std::cos(0.04 * k) << '\n';
  const MeasurementLog log = parse_measurements(csv.str(), "osc.csv", space.sensors());
  EstimatorOptions opt;
  const SmoothedMotion plain = smooth_fixed_lag(space, log, opt, 5);
  std::vector<std::pair<int, double>> calls;
  opt.progress = [&](int it, double rows) {
    calls.emplace_back(it, rows);
    return true;
  };
  const SmoothedMotion watched = smooth_fixed_lag(space, log, opt, 5);
  REQUIRE(static_cast<int>(calls.size()) == plain.iterations);  // once per iteration
  CHECK(calls.back().first == plain.iterations);
  CHECK(calls.front().second == Approx(1.0 / 20));  // the first row alone
  CHECK(calls.back().second == 1.0);
  for (std::size_t k = 0; k < plain.xu.size(); ++k) CHECK(watched.xu[k] == plain.xu[k]);
  int batch_calls = 0;
  opt.progress = [&](int it, double rows) {
    ++batch_calls;
    CHECK(rows == 1.0);  // the batch takes every row at once
    return it < 1;       // stop after the first iteration
  };
  CHECK_THROWS_AS(smooth_batch(space, log, opt), EstimationCancelled);
  CHECK(batch_calls == 1);
}

namespace {
// The four-bar sample with an encoder on the crank and a gyro on the coupler; `unknown`
// replaces the crank's motion drive by an unknown one.
json fourbar(bool unknown) {
  json doc = test::sample_with_sensors(
      "fourbar.json",
      json::array({{{"name", "enc"}, {"type", "encoder"}, {"joint", "A0"}, {"sigma", 1e-3}},
                   {{"name", "gyro"}, {"type", "gyro"}, {"body", "coupler"}, {"sigma", 1e-2}}}));
  if (unknown) {
    doc["joints"][0]["drive"] = {{"type", "unknown"}};
    doc["joints"][0]["qd0"] = {2 * 3.14159265358979323846};
  }
  return doc;
}

// Simulated readings with seeded noise every `every` steps, and the truth's crank torque.
std::string fourbar_log(double duration, int every, unsigned seed, std::vector<double>& torque) {
  const Mechanism truth = prepare_project(parse_project(fourbar(false).dump()).spec);
  RunOptions opt = run_options_from(truth.spec);
  opt.duration = duration;
  opt.sample = every * opt.step;
  return test::simulated_log(truth, opt, seed, [&](const Simulation& sim) {
    torque.push_back(sim.joint_states()[0].tau[0]);
  });
}
}  // namespace

TEST_CASE("unknown crank torque of the driven four-bar from encoder and gyro", "[estimation]") {
  std::vector<double> torque;
  const std::string csv = fourbar_log(1.0, 2, 11, torque);  // 500 Hz over one crank turn
  const Mechanism mech = prepare_project(parse_project(fourbar(true).dump()).spec);
  StateSpace space(mech);
  REQUIRE(space.m() == 1);
  REQUIRE(space.nu() == 1);
  const MeasurementLog log = parse_measurements(csv, "fourbar.csv", space.sensors());
  EstimatorOptions opt;
  opt.accel_sigma = 0.01;
  opt.force_sigma = 0.05;  // N m per √s: the torque changes by ~0.25 N m over a quarter turn
  const SmoothedMotion est = smooth_batch(space, log, opt);
  double ss = 0, peak = 0, inside = 0;
  for (std::size_t k = 0; k < torque.size(); ++k) {
    const double err = est.xu[k][2] - torque[k];
    ss += err * err;
    peak = std::max(peak, std::abs(torque[k]));
    inside += std::abs(err) <= 3 * std::sqrt(est.cov[k](2, 2));
  }
  const double rms = std::sqrt(ss / static_cast<double>(torque.size()));
  INFO("iterations " << est.iterations << ", torque RMS error " << rms << " N m of peak " << peak
                     << " (" << 100 * rms / peak << " %), within 3 sigma: " << inside << " of "
                     << torque.size());
  CHECK(rms < 0.02 * peak);
  CHECK(inside > 0.95 * static_cast<double>(torque.size()));
}
