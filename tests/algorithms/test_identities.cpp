// Identities between independent algorithms on random branching trees with every joint type:
// RNEA vs CRBA, ABA vs the sparse LTDL solve vs a dense solve, hybrid dynamics vs both.
#include <Eigen/Cholesky>
#include <numbers>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/hybrid_dynamics.hpp"
#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/model/configuration.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using test::random_vector;

namespace {

struct Case {
  Model model;
  VecX q, qd;
};

std::vector<Case> random_cases() {
  std::vector<Case> cases;
  std::mt19937 rng(31);
  for (int nb : {1, 2, 5, 9, 12, 20, 40}) {
    for (int rep = 0; rep < 3; ++rep) {
      Case c{test::random_tree(nb, rng), {}, {}};
      c.q = random_configuration(c.model, rng);
      c.qd = random_vector(c.model.nv, rng);
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

ExternalForces random_forces(const Model& m, std::mt19937& rng) {
  ExternalForces f(m.nb + 1, Force::Zero());
  for (int i = 1; i <= m.nb; ++i) f[i] = random_vector(6, rng);
  return f;
}
}  // namespace

TEST_CASE("RNEA(q, qd, qdd) = H qdd + C from CRBA", "[rnea][crba]") {
  std::mt19937 rng(32);
  for (const Case& c : random_cases()) {
    Data d(c.model);
    const VecX qdd = random_vector(c.model.nv, rng);
    const VecX tau = rnea(c.model, d, c.q, c.qd, qdd);
    const VecX C = nonlinear_effects(c.model, d, c.q, c.qd);
    const MatX H = crba(c.model, d, c.q);
    CHECK_CLOSE(VecX(H * qdd + C), tau, 1e-10);  // relative, 1e-10
    CHECK_CLOSE(H, MatX(H.transpose()), 1e-14);
  }
}

TEST_CASE("ABA = sparse LTDL solve = dense solve", "[aba][ltdl]") {
  std::mt19937 rng(33);
  for (const Case& c : random_cases()) {
    Data d(c.model);
    const VecX tau = random_vector(c.model.nv, rng);
    const VecX qdd_aba = aba(c.model, d, c.q, c.qd, tau);
    const MatX H = crba(c.model, d, c.q);
    const VecX C = nonlinear_effects(c.model, d, c.q, c.qd);
    REQUIRE(ltdl_factor(c.model, d));
    VecX qdd_ltdl = tau - C;
    ltdl_solve(c.model, d, qdd_ltdl);
    const VecX qdd_dense = H.llt().solve(tau - C);
    CHECK_CLOSE(qdd_aba, qdd_dense, 1e-9);  // relative, 1e-9
    CHECK_CLOSE(qdd_ltdl, qdd_dense, 1e-9);
  }
}

TEST_CASE("ABA on frames turned by multiples of 90 degrees (signed permutations)", "[aba]") {
  // The robot-description case: every X_T a signed permutation (snapped exact by ModelBuilder),
  // revolute joints about z, which ABA takes through its permutation path; checked against the
  // dense solve of CRBA and RNEA, which do not special-case these frames.
  std::mt19937 rng(35);
  const double quarter[4] = {0.0, kPi / 2, kPi, -kPi / 2};
  std::uniform_int_distribution<int> turn(0, 3);
  for (int rep = 0; rep < 10; ++rep) {
    ModelBuilder b;
    b.set_gravity(Vec3(0, 0, -9.81));
    for (int i = 1; i <= 12; ++i) {
      const Mat3 E = rx(quarter[turn(rng)]) * ry(quarter[turn(rng)]) * rz(quarter[turn(rng)]);
      const int parent = rep % 2 ? i - 1 : std::uniform_int_distribution<int>(0, i - 1)(rng);
      b.add_body("b" + std::to_string(i), parent, Joint::revolute(),
                 Transform(E, random_vector(3, rng)), test::random_inertia(rng));
    }
    const Model m = b.build();
    for (int i = 1; i <= m.nb; ++i) REQUIRE(m.X_tree_axes[i].valid);
    Data d(m);
    const VecX q = random_configuration(m, rng), qd = random_vector(m.nv, rng);
    const VecX tau = random_vector(m.nv, rng);
    const VecX qdd = aba(m, d, q, qd, tau);
    const MatX H = crba(m, d, q);
    const VecX C = nonlinear_effects(m, d, q, qd);
    CHECK_CLOSE(qdd, VecX(H.llt().solve(tau - C)), 1e-9);  // relative, 1e-9
  }
}

TEST_CASE("LTDL reproduces H = L^T D L without fill-in, and sparse H x is exact", "[ltdl]") {
  std::mt19937 rng(34);
  for (const Case& c : random_cases()) {
    Data d(c.model);
    const MatX H = crba(c.model, d, c.q);
    REQUIRE(ltdl_factor(c.model, d));
    const int n = c.model.nv;
    MatX L = MatX::Identity(n, n), D = MatX::Zero(n, n);
    for (int k = 0; k < n; ++k) {
      D(k, k) = d.LD(k, k);
      for (int i = c.model.lambda_v[k]; i >= 0; i = c.model.lambda_v[i])
        L(k, i) = d.LD(i, k);  // L^T above the diagonal
    }
    CHECK_CLOSE(MatX(L.transpose() * D * L), H, 1e-12);
    // Entries off the ancestor chains are branch-induced zeros of H.
    for (int k = 0; k < n; ++k) {
      std::vector<bool> anc(n, false);
      for (int i = c.model.lambda_v[k]; i >= 0; i = c.model.lambda_v[i]) anc[i] = true;
      for (int i = 0; i < k; ++i)
        if (!anc[i]) CHECK(H(k, i) == 0.0);
    }
    const VecX x = random_vector(n, rng);
    VecX y;
    sparse_multiply(H, c.model.lambda_v, x, y);
    CHECK_CLOSE(y, VecX(H * x), 1e-13);
  }
}

TEST_CASE("Hybrid dynamics agrees with ABA and RNEA", "[hybrid]") {
  std::mt19937 rng(35);
  for (const Case& c : random_cases()) {
    const Model& m = c.model;
    Data d(m), ref(m);
    const VecX tau = random_vector(m.nv, rng), qdd = random_vector(m.nv, rng);
    // All forward: ABA.
    hybrid_dynamics(m, d, c.q, c.qd, qdd, tau, std::vector<bool>(m.nb + 1, true));
    CHECK_CLOSE(d.qdd, aba(m, ref, c.q, c.qd, tau), 1e-9);
    // All inverse: RNEA.
    hybrid_dynamics(m, d, c.q, c.qd, qdd, tau, std::vector<bool>(m.nb + 1, false));
    CHECK_CLOSE(d.tau, rnea(m, ref, c.q, c.qd, qdd), 1e-9);
    CHECK(d.qdd == qdd);
    // Mixed: given accelerations are kept, given forces are kept, and (q̈, τ) satisfy the
    // equation of motion: RNEA(q, qd, q̈_out) = τ_out.
    std::vector<bool> fd(m.nb + 1);
    for (int i = 1; i <= m.nb; ++i) fd[i] = rng() % 2;
    hybrid_dynamics(m, d, c.q, c.qd, qdd, tau, fd);
    for (int i = 1; i <= m.nb; ++i) {
      const int vi = m.v_index[i], nv = m.joints[i].nv();
      if (fd[i])
        CHECK(d.tau.segment(vi, nv) == tau.segment(vi, nv));
      else
        CHECK(d.qdd.segment(vi, nv) == qdd.segment(vi, nv));
    }
    const VecX qdd_out = d.qdd, tau_out = d.tau;
    CHECK_CLOSE(rnea(m, ref, c.q, c.qd, qdd_out), tau_out, 1e-9);
  }
}

TEST_CASE("External forces act through the transposed Jacobian", "[rnea][aba][jacobian]") {
  std::mt19937 rng(36);
  for (const Case& c : random_cases()) {
    const Model& m = c.model;
    Data d(m);
    const ExternalForces f = random_forces(m, rng);
    const VecX qdd = random_vector(m.nv, rng);
    const VecX tau_f = rnea(m, d, c.q, c.qd, qdd, &f);
    const VecX tau_0 = rnea(m, d, c.q, c.qd, qdd);
    // τ(f) - τ(0) = -Σ J_i^T f_i, J_i the base-coordinate Jacobian of body i.
    forward_kinematics(m, d, c.q);
    VecX expected = VecX::Zero(m.nv);
    MatX J;
    for (int i = 1; i <= m.nb; ++i) {
      base_jacobian(m, d, i, J);
      expected -= J.transpose() * f[i];
    }
    CHECK_CLOSE(VecX(tau_f - tau_0), expected, 1e-10);
    // ABA with the same forces inverts RNEA.
    CHECK_CLOSE(aba(m, d, c.q, c.qd, tau_f, &f), qdd, 1e-9);
  }
}
