// Redundant actuation: more motion drives than degrees of freedom. With consistent laws the
// actuator forces are undetermined; the factor graph's minimum-torque priors must give exactly
// the (weighted) minimum-norm split, i.e. the pseudo-inverse closed form
//   τ_d = W^{1/2} (Nᵀ S_d W^{1/2})⁺ Nᵀ (H q̈ + C − τ_applied),   W = diag(σ²),
// with N a null-space basis of the loop Jacobian K (SVD), H from CRBA and C from RNEA: an
// independent computation (1e-10 relative). Every given acceleration holds exactly and the
// free ones follow the loops (1e-12). Contradictory laws are diagnosed with the equations named.
#include <Eigen/SVD>
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/factor_graph/mechanism_dynamics.hpp"
#include "core/io/project.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using namespace articula::fg;

namespace {
std::string data_path(const std::string& f) {
  return std::string(ARTICULA_SOURCE_DIR) + "/tests/data/factor_graph/" + f;
}

MatX null_space(const MatX& K) {
  Eigen::JacobiSVD<MatX> svd(K, Eigen::ComputeFullV);
  const VecX& s = svd.singularValues();
  int rank = 0;
  while (rank < s.size() && s[rank] > 1e-9 * std::max(1.0, s[0])) ++rank;
  return svd.matrixV().rightCols(K.cols() - rank);
}

// The weighted minimum-norm actuator forces on coordinates `dv` (σ per drive).
VecX pseudo_inverse_split(const Model& model, const std::vector<LoopJoint>& loops, const VecX& q,
                          const VecX& qd, const VecX& qdd, const VecX& tau_applied,
                          const std::vector<int>& dv, const VecX& sigma) {
  Data d(model);
  VecX delta, k;
  MatX K;
  loop_constraints(model, d, loops, q, qd, 0, 0, delta, K, k);
  const MatX N = null_space(K);
  const MatX H = crba(model, d, q);
  const VecX C = nonlinear_effects(model, d, q, qd);
  MatX S = MatX::Zero(model.nv, static_cast<int>(dv.size()));
  for (size_t j = 0; j < dv.size(); ++j) S(dv[j], static_cast<int>(j)) = 1.0;
  const MatX A = N.transpose() * S * sigma.asDiagonal();
  const VecX b = N.transpose() * (H * qdd + C - tau_applied);
  return sigma.asDiagonal() * A.completeOrthogonalDecomposition().solve(b);
}
}  // namespace

TEST_CASE("Five-bar with three motors: the minimum-norm split, every law followed",
          "[factor_graph]") {
  const Mechanism m = prepare(load_project(data_path("five_bar_3motors.json")).spec);
  REQUIRE(m.mobility.mobility == 2);
  const double t = 0.3, th = 0.5 + t + 0.5 * t * t, thd = 1 + t;
  const double phi2 = 0.7227342478134158, phi3 = 2.4188584057763776;
  // The exact motion: cranks parallel at θ, couplers translating.
  const double joint_q[] = {th, phi2 - th, th, phi3 - th, phi3 - phi2};
  const double joint_qd[] = {thd, -thd, thd, -thd, 0}, joint_qdd[] = {1, -1, 1, -1, 0};
  VecX q(m.model().nq), qd(m.model().nv), qdd(m.model().nv);
  for (int j = 0; j < 5; ++j) {
    if (m.compiled.joint_map[j].loop) continue;
    q[m.compiled.q_index(j)] = joint_q[j];
    qd[m.compiled.v_index(j)] = joint_qd[j];
    qdd[m.compiled.v_index(j)] = joint_qdd[j];
  }
  for (EliminationOrder o : kAllOrders) {
    MechanismDynamicsOptions opt;
    opt.order = o;
    const MechanismDynamicsResult r = mechanism_dynamics(m, t, q, qd, opt);
    INFO("order " << order_name(o));
    CHECK(r.redundant);
    CHECK_CLOSE(r.qdd, qdd, 1e-12);  // every law, and the free joints with the loop
    std::vector<int> dv;
    VecX force(3);
    for (size_t k = 0; k < m.drives.size(); ++k) {
      REQUIRE(m.drives[k].v >= 0);  // this file's spanning tree keeps the motors as tree joints
      dv.push_back(m.drives[k].v);
      force[static_cast<int>(k)] = r.drive_force[k];
    }
    const VecX expected = pseudo_inverse_split(m.model(), m.compiled.loops, q, qd, qdd,
                                               VecX::Zero(m.model().nv), dv, VecX::Ones(3));
    CHECK_CLOSE(force, expected, 1e-10);
  }
}

TEST_CASE("Five-bar with three motors: contradictory laws are named", "[factor_graph]") {
  MechanismSpec spec = load_project(data_path("five_bar_3motors.json")).spec;
  for (JointSpec& j : spec.joints)  // same position and rate at t = 0, wrong acceleration
    if (j.name == "B") j.drive->expression = "0.22273424781341578 - t - 0.8*t^2";
  const Mechanism m = prepare(spec);
  const VecX q = m.q0, qd = m.qd0;
  try {
    mechanism_dynamics(m, 0.0, q, qd);
    FAIL("no contradiction found");
  } catch (const EliminationError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("contradictory") != std::string::npos);
    CHECK(e.residual > 1e-3);
    CHECK_FALSE(e.factors.empty());
  }
}

TEST_CASE("3-RRR with four motors: weighted minimum-norm split at random states",
          "[factor_graph]") {
  const Mechanism m = prepare(load_project(test::sample_path("rrr3_planar.json")).spec);
  const Model& model = m.model();
  std::mt19937 rng(4);
  Data d(model);
  VecX delta, k;
  MatX K;
  loop_constraints(model, d, m.compiled.loops, m.q0, VecX::Zero(model.nv), 0, 0, delta, K, k);
  const MatX N0 = null_space(K);
  std::vector<int> drive_v;
  for (const DriveBinding& b : m.drives) drive_v.push_back(b.v);
  for (int v = 0; v < model.nv && drive_v.size() < 4; ++v)  // a fourth motor on a passive joint
    if (std::find(drive_v.begin(), drive_v.end(), v) == drive_v.end()) drive_v.push_back(v);
  for (const VecX& sigma : {VecX(VecX::Ones(4)), VecX((VecX(4) << 1, 2, 0.5, 1).finished())}) {
    const VecX qd = N0 * test::random_vector(static_cast<int>(N0.cols()), rng);
    loop_constraints(model, d, m.compiled.loops, m.q0, qd, 0, 0, delta, K, k);
    // Consistent accelerations: K q̈ = k plus a random motion of the free coordinates.
    const VecX qdd =
        K.completeOrthogonalDecomposition().solve(k) + null_space(K) * test::random_vector(3, rng);
    InstantInput in;
    in.q = m.q0, in.qd = qd, in.qdd = qdd, in.tau = VecX::Zero(model.nv);
    in.qdd_given.assign(model.nb + 1, false);
    in.torque_sigma.assign(model.nb + 1, 0.0);
    for (int j = 0; j < 4; ++j) {
      in.qdd_given[model.v_body[drive_v[j]]] = true;
      in.torque_sigma[model.v_body[drive_v[j]]] = sigma[j];
    }
    const VecX expected = pseudo_inverse_split(model, m.compiled.loops, m.q0, qd, qdd,
                                               VecX::Zero(model.nv), drive_v, sigma);
    for (EliminationOrder o : kAllOrders) {
      InstantDynamicsGraph g(model, m.compiled.loops, d, in);
      const InstantResult r = g.solve(o);
      VecX got(4);
      for (int j = 0; j < 4; ++j) got[j] = r.tau[drive_v[j]];
      INFO("order " << order_name(o) << ", sigma " << sigma.transpose());
      CHECK_CLOSE(got, expected, 1e-10);
      CHECK_CLOSE(r.qdd, qdd, 1e-12);
    }
  }
}
