// Consistency of the smoother's covariance (issue 20): Monte Carlo runs of the seed's four-bar
// (the sample, its crank drive removed so the linkage swings freely under gravity) with encoder
// noise only. The truth is Articula's exact simulation from the file's initial state; each run
// draws its own encoder noise from a fixed seed.
//
// The check: the normalised estimation error squared ε = eᵀ P⁻¹ e of the state x = (θ, θ̇) (the
// independent coordinate, d = 2), P the estimator's own posterior covariance. If the estimator
// is consistent, ε ~ χ²(d) in every run, so over N independent runs N ε̄ ~ χ²(N d), and ε̄ lies
// inside [χ²_{0.025}(N d), χ²_{0.975}(N d)] / N with probability 0.95 (Bar-Shalom, Li and
// Kirubarajan, "Estimation with applications to tracking and navigation", §5.4). It is checked
// at one knot per run (the middle of the log, and separately the last knot): knots of one run
// are correlated, so pooling them would not be χ².
//
// N = 50 runs as the issue asks, each a short log (0.1 s at 1 kHz, 100 rows) so the test takes a
// few seconds in Release. The truth has no process noise, so the estimator models almost none
// (σ_a = 1e-3 rad/s² per √Hz, negligible against the encoder over 0.1 s); the prior on the
// first knot is broad (σ 1 rad, 10 rad/s) around the file's initial state.
#include <catch2/catch.hpp>

#include "core/estimation/smoother.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/sensor_logs.hpp"

using namespace articula;
using nlohmann::json;

namespace {
const double kEncoderSigma = 1e-3;  // rad
const int kRuns = 50, kDim = 2;
// χ²(100) quantiles 0.025 and 0.975 (R: qchisq(c(0.025, 0.975), 100)).
const double kChi2Low = 74.2219, kChi2High = 129.5612;

json passive_fourbar() {
  json doc = test::sample_with_sensors(
      "fourbar.json",
      json::array(
          {{{"name", "enc"}, {"type", "encoder"}, {"joint", "A0"}, {"sigma", kEncoderSigma}}}));
  doc["joints"][0].erase("drive");
  return doc;
}

struct RunStats {
  double nees_mid = 0, nees_last = 0;  // summed over runs
  double crank_ss = 0;                 // squared crank-angle errors over runs and knots
  int crank_n = 0;
};
}  // namespace

TEST_CASE("consistency: NEES of the four-bar's state inside the 95 % chi-square bounds",
          "[estimation]") {
  const Mechanism mech = prepare_project(parse_project(passive_fourbar().dump()).spec);
  StateSpace space(mech);
  REQUIRE(space.m() == 1);
  const int crank = mech.compiled.v_index(0);
  RunOptions ro = run_options_from(mech.spec);
  ro.duration = 0.099;  // 100 rows at the file's 1 ms step
  EstimatorOptions opt;
  opt.accel_sigma = 1e-3;
  RunStats st;
  int iterations = 0;
  for (int run = 0; run < kRuns; ++run) {
    std::vector<VecX> truth_x, truth_q;
    const std::string csv =
        test::simulated_log(mech, ro, 1000u + static_cast<unsigned>(run), [&](const Simulation& s) {
          truth_x.push_back(space.state_of(s.q(), s.qd()));
          truth_q.push_back(s.q());
        });
    const MeasurementLog log = parse_measurements(csv, "fourbar.csv", space.sensors());
    const SmoothedMotion est = smooth_batch(space, log, opt);
    REQUIRE(est.xu.size() == truth_x.size());
    iterations += est.iterations;
    auto nees = [&](const SmoothedMotion& m, std::size_t k) {
      const VecX e = m.xu[k] - truth_x[k];
      return e.dot(m.cov[k].ldlt().solve(e));
    };
    st.nees_mid += nees(est, truth_x.size() / 2);
    st.nees_last += nees(est, truth_x.size() - 1);
    for (std::size_t k = 0; k < truth_q.size(); ++k) {
      const double err = est.q[k][crank] - truth_q[k][crank];
      st.crank_ss += err * err;
      ++st.crank_n;
    }
  }
  const double mid = st.nees_mid / kRuns, last = st.nees_last / kRuns;
  const double crank_rms = std::sqrt(st.crank_ss / st.crank_n);
  INFO("mean NEES (d = " << kDim << ") at the middle knot " << mid << ", at the last " << last
                         << "; bounds [" << kChi2Low / kRuns << ", " << kChi2High / kRuns
                         << "]; crank angle RMS error " << crank_rms << " rad (encoder sigma "
                         << kEncoderSigma << "); " << iterations << " Gauss-Newton iterations");
  CHECK(mid > kChi2Low / kRuns);
  CHECK(mid < kChi2High / kRuns);
  CHECK(last > kChi2Low / kRuns);
  CHECK(last < kChi2High / kRuns);
  // 100 readings of a motion with two free parameters: the error is σ/√50 or so, well below σ.
  CHECK(crank_rms < 0.3 * kEncoderSigma);
}

TEST_CASE("fixed-lag smoother: reused linearisations agree with exact Gauss-Newton",
          "[estimation]") {
  // The same log smoothed with the default relinearisation threshold and with none (every knot
  // relinearised at every iteration): the estimates differ by far less than their posterior σ
  // (1 %), and so do their covariances.
  const Mechanism mech = prepare_project(parse_project(passive_fourbar().dump()).spec);
  StateSpace space(mech);
  RunOptions ro = run_options_from(mech.spec);
  ro.duration = 0.099;
  const MeasurementLog log =
      parse_measurements(test::simulated_log(mech, ro, 77u), "fourbar.csv", space.sensors());
  EstimatorOptions opt;
  opt.accel_sigma = 1e-3;
  const SmoothedMotion fast = smooth_fixed_lag(space, log, opt, 20);
  opt.relinearise = 0.0;
  const SmoothedMotion exact = smooth_fixed_lag(space, log, opt, 20);
  double worst = 0;
  for (std::size_t k = 0; k < exact.xu.size(); ++k) {
    const VecX sd = exact.cov[k].diagonal().cwiseSqrt();
    worst = std::max(worst, ((fast.xu[k] - exact.xu[k]).cwiseQuotient(sd)).cwiseAbs().maxCoeff());
    CHECK((fast.cov[k] - exact.cov[k]).norm() < 0.01 * exact.cov[k].norm());
  }
  INFO("largest difference " << worst << " posterior sigma; iterations " << fast.iterations
                             << " (exact " << exact.iterations << ")");
  CHECK(worst < 0.01);
}
