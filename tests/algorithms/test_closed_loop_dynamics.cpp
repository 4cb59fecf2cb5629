// closed_loop_forward_dynamics (RBDA 8.5 Method 2 on the sparse factor of H, with the sweeps
// limited to each column's nonzero rows and the loop Jacobian's columns rotated once per call)
// against an independent dense solve of the same system: H from CRBA (RBDA Table 6.2) factored
// by Eigen's LLT, A = K H^-1 K^T by a complete orthogonal decomposition, and C from the full
// RNEA (Table 5.1). q̈ to 1e-9 relative at random states of samples whose loop rows are
// independent (with redundant rows and slightly open loops the rows are inconsistent, and the
// pivoted factor's basic solution is not the least-squares one).
#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <random>

#include "core/algorithms/closed_loop_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/mechanism.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
constexpr double kAlpha = 20.0;

// q̈ of K q̈ = k, H q̈ + C = τ + K^T μ, all dense, from q and q̇ directly.
VecX dense_closed_loop(const Mechanism& m, const VecX& q, const VecX& qd, const VecX& tau) {
  const Model& model = m.model();
  Data data(model);
  VecX delta, k;
  MatX K;
  forward_kinematics(model, data, q, qd);
  loop_errors_and_jacobian(model, data, m.compiled.loops, delta, K);
  forward_kinematics_bias(model, data, q, qd);
  loop_bias(model, data, m.compiled.loops, k);
  k -= 2 * kAlpha * K * qd + kAlpha * kAlpha * delta;  // Eq. 8.22
  const MatX H = crba(model, data, q);
  const VecX C = nonlinear_effects(model, data, q, qd);
  const Eigen::LLT<MatX> llt(H);
  const VecX qdd0 = llt.solve(tau - C);
  const MatX Y = llt.solve(K.transpose());
  const Eigen::CompleteOrthogonalDecomposition<MatX> cod(K * Y);
  return qdd0 + Y * cod.solve(k - K * qdd0);
}
}  // namespace

TEST_CASE("Closed-loop forward dynamics matches a dense solve of the same system") {
  for (const char* file : {"stewart_platform.json", "fourbar.json", "slider_crank.json",
                           "delta_robot.json", "jansen_leg.json", "rssr.json"}) {
    const Mechanism m = prepare(load_project(test::sample_path(file)).spec);
    const Model& model = m.model();
    std::mt19937 rng(7);
    Data data(model);
    ClosedLoopWork w;
    for (int s = 0; s < 5; ++s) {
      VecX q = m.q0;
      // Coordinates off the assembled pose: the loops are slightly open.
      integrate_in_place(model, q, test::random_vector(model.nv, rng), 0.02);
      const VecX qd = test::random_vector(model.nv, rng), tau = test::random_vector(model.nv, rng);
      REQUIRE(closed_loop_forward_dynamics(model, data, m.compiled.loops, q, qd, tau, kAlpha,
                                           kAlpha, w));
      INFO(file << " state " << s);
      CHECK_CLOSE(data.qdd, dense_closed_loop(m, q, qd, tau), 1e-9);
    }
  }
}

TEST_CASE("C from the bias kinematics equals the full RNEA's on samples with a welded base") {
  for (const char* file : {"stewart_platform.json", "delta_robot.json", "excavator.json"}) {
    const Mechanism m = prepare(load_project(test::sample_path(file)).spec);
    const Model& model = m.model();
    std::mt19937 rng(3);
    Data a(model), b(model);
    const VecX q = m.q0, qd = test::random_vector(model.nv, rng);
    forward_kinematics_bias(model, a, q, qd);
    const VecX C = nonlinear_effects_from_bias_kinematics(model, a);
    INFO(file);
    CHECK_CLOSE(C, nonlinear_effects(model, b, q, qd), 1e-12);
  }
}
