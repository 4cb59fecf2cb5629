// Every dynamics factor's analytic Jacobians against central finite differences of its residual
// (step 1e-6, agreement 1e-7 relative to the Jacobian's size: the differences' truncation error
// is O(h²) ≈ 1e-12 times the second derivatives, round-off O(eps/h) ≈ 1e-10), at random values
// of every variable, for random joints, transforms and inertias.
#include <random>

#include "core/factor_graph/dynamics_factors.hpp"
#include "core/model/joint.hpp"
#include "core/spatial/cross.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using namespace articula::fg;

namespace {
// Central differences of f's residual with respect to each of its variables.
void check_jacobians(const Factor& f, std::vector<VecX> x) {
  VecX r0, rp, rm;
  std::vector<MatX> J;
  f.evaluate(x, r0, &J);
  REQUIRE(J.size() == f.vars().size());
  REQUIRE(r0.size() == f.rows());
  const double h = 1e-6;
  for (size_t k = 0; k < f.vars().size(); ++k) {
    const int v = f.vars()[k];
    MatX fd(f.rows(), x[v].size());
    for (int c = 0; c < x[v].size(); ++c) {
      const double keep = x[v][c];
      x[v][c] = keep + h;
      f.evaluate(x, rp, nullptr);
      x[v][c] = keep - h;
      f.evaluate(x, rm, nullptr);
      x[v][c] = keep;
      fd.col(c) = (rp - rm) / (2 * h);
    }
    INFO(f.name() << ", variable " << k);
    CHECK_CLOSE(J[k], fd, 1e-7);
  }
}

struct Fixture {
  std::mt19937 rng{1905};
  std::vector<VecX> x;
  int add(int dim) {
    x.push_back(test::random_vector(dim, rng));
    return static_cast<int>(x.size()) - 1;
  }
  JointCalc joint() {
    const Joint j = test::random_joint(rng, false);
    VecX q(j.nq()), qd = test::random_vector(j.nv(), rng);
    joint_neutral(j, q.data());
    VecX dq = test::random_vector(j.nv(), rng);
    VecX q1(j.nq());
    joint_integrate(j, q.data(), dq.data(), 1.0, q1.data());
    JointCalc jc;
    jcalc(j, q1.data(), qd.data(), jc);
    return jc;
  }
};
}  // namespace

TEST_CASE("Twist, acceleration and torque factors: analytic Jacobians", "[factor_graph]") {
  Fixture fx;
  for (int trial = 0; trial < 20; ++trial) {
    const JointCalc jc = fx.joint();
    const int nv = static_cast<int>(jc.S.cols());
    const Transform X = test::random_transform(fx.rng);
    const int Vi = fx.add(6), Vp = fx.add(6), qd = fx.add(nv), Ai = fx.add(6), Ap = fx.add(6);
    const int qdd = fx.add(nv), tau = fx.add(nv), Fi = fx.add(6);
    check_jacobians(TwistFactor(1, Vi, Vp, qd, X, jc.S), fx.x);
    check_jacobians(TwistFactor(1, Vi, -1, qd, X, jc.S), fx.x);
    check_jacobians(AccelFactor(1, Ai, Ap, qdd, Vi, X, jc.S, jc.vJ, jc.cJ), fx.x);
    check_jacobians(AccelFactor(1, Ai, -1, qdd, Vi, X, jc.S, jc.vJ, jc.cJ), fx.x);
    check_jacobians(TorqueFactor(1, tau, Fi, jc.S), fx.x);
  }
}

TEST_CASE("Wrench factor with children and loop forces: analytic Jacobians", "[factor_graph]") {
  Fixture fx;
  for (int trial = 0; trial < 20; ++trial) {
    const int Fi = fx.add(6), Ai = fx.add(6), Vi = fx.add(6), F1 = fx.add(6), F2 = fx.add(6);
    const int lam = fx.add(4), tl = fx.add(1);
    const std::vector<Transform> Xc = {test::random_transform(fx.rng),
                                       test::random_transform(fx.rng)};
    std::vector<LoopContribution> loops = {{lam, MatX::Random(6, 4)}, {tl, MatX::Random(6, 1)}};
    const Motion g = test::random_vector(6, fx.rng);
    const Force fe = test::random_vector(6, fx.rng);
    check_jacobians(
        WrenchFactor(1, Fi, Ai, Vi, {F1, F2}, Xc, loops, test::random_inertia(fx.rng), g, fe),
        fx.x);
  }
}

TEST_CASE("Loop acceleration and prior factors: analytic Jacobians", "[factor_graph]") {
  Fixture fx;
  for (int trial = 0; trial < 20; ++trial) {
    const int As = fx.add(6), Ap = fx.add(6), qddL = fx.add(1), lam = fx.add(5);
    const MatX W = MatX::Random(6, 4);
    const Transform XS = test::random_transform(fx.rng), XP = test::random_transform(fx.rng);
    const VecX bias = test::random_vector(4, fx.rng);
    check_jacobians(LoopAccelFactor(0, As, Ap, qddL, W, XS, XP, bias), fx.x);
    check_jacobians(LoopAccelFactor(0, As, -1, -1, W, XS, XP, bias), fx.x);
    check_jacobians(PriorFactor(lam, {0, 3, 4}, VecX::Zero(3), 0.0, "planar"), fx.x);
    check_jacobians(PriorFactor(lam, {1}, VecX::Ones(1), 2.0, "prior"), fx.x);
  }
}

TEST_CASE("bar_force is the Jacobian of the force cross product", "[factor_graph]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    const Motion v = test::random_vector(6, rng);
    const Force h = test::random_vector(6, rng);
    CHECK_CLOSE(Force(bar_force(h) * v), Force(crf(v) * h), 1e-14);
  }
}
