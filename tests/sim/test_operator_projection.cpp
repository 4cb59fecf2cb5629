// The mass-weighted projection of the operator solver (core/sim/operator_projection): one
// Gauss-Newton step equals the dense least kinetic-energy step dq = H^-1 J^T (J H^-1 J^T)^-1 e
// (H from CRBA, solved densely here) to 1e-10 relative, on every sample with loops it applies to
// and on a generated ladder; a projection from a state perturbed by 1e-4 closes the loops to
// 1e-12 and leaves J q̇ = y to 1e-12, with the motion-driven coordinates held exactly; redundant
// loops (the all-revolute four-bar, Bennett) still project. Trajectories against Method 2 with
// this projection: tests/sim/test_solvers.cpp.
#include <filesystem>
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/constraints/motion_drives.hpp"
#include "core/sim/operator_projection.hpp"
#include "core/sim/projection.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
// The mechanisms checked: every sample with loops whose rows have a body-level form, a ladder.
std::vector<Mechanism> mechanisms() {
  std::vector<Mechanism> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples")) {
    if (e.path().extension() != ".json") continue;
    Mechanism m = prepare(load_project(e.path().string()).spec);
    if (m.has_loops() && ConstraintSet(m, m.drives).operator_capable()) out.push_back(std::move(m));
  }
  out.push_back(prepare(make_ladder(20)));
  out.push_back(prepare(make_bennett({})));
  return out;
}

// A state off the manifold: q0 moved by 1e-4 (driven coordinates on their laws), random q̇.
void perturbed(const Mechanism& m, std::mt19937& rng, VecX& q, VecX& qd) {
  const Model& model = m.model();
  q = m.q0;
  integrate_in_place(model, q, test::random_vector(model.nv, rng), 1e-4);
  qd = test::random_vector(model.nv, rng);
  impose_tree_motion_drives(m, m.drives, 0.0, q, qd);
}

// The dense reference: [J; E] H^-1 [J; E]^T μ = [e; 0] over J's significant rows and the
// prescribed coordinates' unit rows E, dq = H^-1 [J; E]^T μ. Empty when that system is singular.
VecX dense_step(const Mechanism& m, const VecX& q, const MatX& J, const VecX& e,
                const std::vector<int>& prescribed) {
  const Model& model = m.model();
  Data d(model);
  const MatX H = crba(model, d, q);
  std::vector<int> kept;
  significant_rows(J, 1e-24, kept);
  const int mk = static_cast<int>(kept.size()), mc = mk + static_cast<int>(prescribed.size());
  MatX G = MatX::Zero(mc, model.nv);
  VecX r = VecX::Zero(mc);
  for (int k = 0; k < mk; ++k) G.row(k) = J.row(kept[k]), r[k] = e[kept[k]];
  for (std::size_t k = 0; k < prescribed.size(); ++k) G(mk + k, prescribed[k]) = 1.0;
  const Eigen::LLT<MatX> llt(H);
  const MatX HinvGt = llt.solve(G.transpose());
  const MatX S = G * HinvGt;
  Eigen::FullPivLU<MatX> lu(S);
  lu.setThreshold(1e-10);
  if (lu.rank() < mc) return VecX();
  return HinvGt * lu.solve(r);
}
}  // namespace

TEST_CASE("mass-weighted projection step equals the dense H^-1-weighted step",
          "[sim][operator][projection]") {
  std::mt19937 rng(17);
  int compared = 0, refined = 0;
  for (const Mechanism& m : mechanisms()) {
    INFO(m.spec.name);
    const Model& model = m.model();
    Data data(model);
    ConstraintSet set(m, m.drives);
    OperatorProjection op(m, set);
    VecX q, qd;
    perturbed(m, rng, q, qd);
    // Twice: a fresh factorisation of Λ^-1, then at a state moved by another 1e-3 the kept
    // factor refined against the new rows and M (or formed afresh when that does not converge).
    for (int pass = 0; pass < 2; ++pass) {
      INFO("pass " << pass);
      if (pass == 1) integrate_in_place(model, q, test::random_vector(model.nv, rng), 1e-3);
      ConstraintContext c{m, m.drives, data};
      c.q = &q, c.qd = &qd;
      forward_kinematics(model, data, q);
      MatX J;
      VecX e, dq;
      set.position(c, J, e);
      REQUIRE(op.linearise(c, q));
      REQUIRE(op.factorise());
      op.step(J, e, dq);
      for (int v : set.prescribed_coordinates()) CHECK(dq[v] == 0.0);  // held exactly
      const VecX expected = dense_step(m, q, J, e, set.prescribed_coordinates());
      if (expected.size() == 0) continue;  // redundant rows: checked by the projection below
      // 1e-10: both solve systems of condition up to ~1e4 at 1e-16 (the refined step to 1e-13
      // of its right-hand side) and sum O(N m) terms.
      INFO("dq =\n" << dq.transpose() << "\nexpected =\n" << expected.transpose());
      CHECK((dq - expected).norm() <= 1e-10 * expected.norm());
      ++compared;
    }
    CHECK(op.factorisations() + op.refined() == 2);
    refined += static_cast<int>(op.refined());
  }
  CHECK(compared >= 30);
  // The refinement is what most second passes took (a 1e-3 move changes Λ^-1 too much for
  // the others, which formed it afresh): both kinds of step are checked above.
  CHECK(refined >= 10);
}

TEST_CASE("mass-weighted projection closes perturbed loops and holds driven coordinates",
          "[sim][operator][projection]") {
  std::mt19937 rng(29);
  int projected = 0;
  for (const Mechanism& m : mechanisms()) {
    INFO(m.spec.name);
    const Model& model = m.model();
    Data data(model);
    ConstraintSet set(m, m.drives);
    ManifoldProjection proj(m, set, nullptr, nullptr, true);
    VecX q, qd;
    perturbed(m, rng, q, qd);
    const VecX q_in = q, qd_in = qd;
    proj.project(m.drives, data, 0.0, 1e-10, q, qd);
    CHECK(proj.mass_weighted_now());
    for (int v : set.prescribed_coordinates()) {  // held bit for bit
      CHECK(q[v] == q_in[v]);
      CHECK(qd[v] == qd_in[v]);
    }
    ConstraintContext c{m, m.drives, data};
    c.q = &q, c.qd = &qd;
    forward_kinematics(model, data, q);
    MatX J;
    VecX e, y;
    set.position(c, J, e);
    set.velocity_targets(c, y);
    // 1e-12: the iteration stops at 1e-2 of the 1e-10 tolerance; q̇ is O(1), so J q̇ = y holds
    // to round-off (1e-15) after the one linear correction at the final q.
    if (e.size()) CHECK(e.cwiseAbs().maxCoeff() <= 1e-12);
    if (e.size()) CHECK((J * qd - y).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((q - q_in).norm() > 1e-8);  // the perturbation was there to remove
    ++projected;
  }
  CHECK(projected >= 16);
}

TEST_CASE("mass-weighted projection reads errors and J x without forming J",
          "[sim][operator][projection]") {
  std::mt19937 rng(41);
  int checked = 0;
  for (const Mechanism& m : mechanisms()) {
    INFO(m.spec.name);
    const Model& model = m.model();
    Data data(model);
    ConstraintSet set(m, m.drives);
    OperatorProjection op(m, set);
    VecX q, qd;
    perturbed(m, rng, q, qd);
    ConstraintContext c{m, m.drives, data};
    c.q = &q, c.qd = &qd;
    forward_kinematics(model, data, q);
    MatX J;
    VecX e, e_only, Jx;
    set.position(c, J, e);
    set.position_errors(c, e_only);
    CHECK(e_only == e);  // the same terms in the same order: bit for bit
    REQUIRE(op.linearise(c, q));
    const VecX x = test::random_vector(model.nv, rng);
    op.rows_times(x, Jx);
    // 1e-13 of |J|_inf |x|_inf: two sums of the same O(N) terms in different orders.
    const double scale = J.cwiseAbs().rowwise().sum().maxCoeff() * x.cwiseAbs().maxCoeff();
    CHECK((Jx - J * x).cwiseAbs().maxCoeff() <= 1e-13 * scale);
    ++checked;
  }
  CHECK(checked >= 16);
}

// A 100-body hanging ladder (two 45-link rails, 10 rungs), with long chains whose Λ^-1 is
// ill-conditioned: over twenty small moves the kept factor serves most steps by refinement (a
// random move of 1e-5 per coordinate changes Λ^-1 more than the ladder's smooth 1 ms step
// does, so a refactorisation or two is allowed), and every step solves G dq = r to 1e-10 of a
// residual of the size RK4 leaves (1e-14, in the range of G).
TEST_CASE("mass-weighted projection keeps its factor on long chains",
          "[sim][operator][projection]") {
  const Mechanism m = prepare(make_hanging_ladder(45, 10));
  const Model& model = m.model();
  Data data(model);
  ConstraintSet set(m, m.drives);
  OperatorProjection op(m, set);
  std::mt19937 rng(5);
  VecX q = m.q0, qd = VecX::Zero(model.nv), dq, Gdq;
  ConstraintContext c{m, m.drives, data};
  c.q = &q, c.qd = &qd;
  MatX J;
  VecX e;
  for (int step = 0; step < 20; ++step) {
    INFO("step " << step);
    integrate_in_place(model, q, test::random_vector(model.nv, rng), 1e-5);
    forward_kinematics(model, data, q);
    REQUIRE(op.linearise(c, q));
    REQUIRE(op.factorise());
    set.position(c, J, e);
    const VecX r = 1e-14 * (J * test::random_vector(model.nv, rng));
    if (step == 0 || !op.refine_step(r, dq)) op.step(J, r, dq);  // the fresh factor otherwise
    op.rows_times(dq, Gdq);
    // 1e-10 of |r|: the floor accepted (kFloorTolerance), on the rows kept (the out-of-plane
    // rows of the planar loops are zero in J and left out).
    set.position(c, J, e);
    std::vector<int> kept;
    significant_rows(J, 1e-24, kept);
    for (int k : kept) CHECK(std::abs(Gdq[k] - r[k]) <= 1e-10 * r.cwiseAbs().maxCoeff());
  }
  CHECK(op.factorisations() + op.refined() == 20);
  CHECK(op.refined() >= 15);
}
