// The Stewart platform (issue 20): its top plate's pose estimated from the six leg-length
// encoders alone. The sample's legs are motion-driven (the truth, simulated); in the
// estimator's file their drives are unknown forces, so the six leg lengths are the independent
// coordinates and the plate's pose, the universal joints' angles and the tree ball joint's
// quaternion follow from the position solve (spherical joints with quaternion coordinates
// inside the loops).
#include <catch2/catch.hpp>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/estimation/smoother.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "tests/support/sensor_logs.hpp"

using namespace articula;
using nlohmann::json;

namespace {
constexpr double kEncoderSigma = 1e-4;  // m: a 0.1 mm leg-length encoder

json stewart_with_encoders() {
  json sensors = json::array();
  for (int leg = 1; leg <= 6; ++leg)
    sensors.push_back({{"name", "leg" + std::to_string(leg)},
                       {"type", "encoder"},
                       {"joint", "P" + std::to_string(leg)},
                       {"sigma", kEncoderSigma}});
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
}
