// Planar vectors (RBDA 2.16) against the spatial algebra they restrict, and the planar Method 2
// pipeline against the spatial one on the planar samples: δ, K, k, H, C and q̈ must agree to
// round-off, and whole simulations with and without the planar solve must coincide.
#include <numbers>
#include <random>

#include "core/algorithms/closed_loop_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/planar_dynamics.hpp"
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/spatial/cross.hpp"
#include "core/spatial/inertia.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using test::rel_err;

namespace {
// The planar coordinates [ω_z, v_x, v_y] of a spatial vector (RBDA 2.16: basis vectors 3-5).
Vec3 in_plane(const Vec6& m) {
  return {m[2], m[3], m[4]};
}
Vec6 embed(const Vec3& p) {
  Vec6 m = Vec6::Zero();
  m[2] = p[0], m[3] = p[1], m[4] = p[2];
  return m;
}
Transform embed(const PlanarTransform& X, double z) {
  return {rz(std::atan2(X.s, X.c)), Vec3(X.x, X.y, z)};
}
PlanarTransform random_planar(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-2, 2);
  const double th = 3 * u(rng);
  return {std::cos(th), std::sin(th), u(rng), u(rng)};
}

const char* const kPlanarSamples[] = {
    "fourbar.json",    "slider_crank.json", "watt_six_bar.json", "stephenson_six_bar.json",
    "jansen_leg.json", "peaucellier.json",  "rrr3_planar.json"};
}  // namespace

TEST_CASE("planar vector algebra is the spatial algebra restricted to the plane", "[planar]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const PlanarTransform A = random_planar(rng), B = random_planar(rng);
    const double za = u(rng), zb = u(rng);  // an offset along z changes nothing in the plane
    const Transform A6 = embed(A, za), B6 = embed(B, zb);
    const Vec3 m(u(rng), u(rng), u(rng)), f(u(rng), u(rng), u(rng)), w(u(rng), u(rng), u(rng));
    // Tolerances: a few operations on O(1) numbers, 1e-14 absolute.
    CHECK(rel_err(A.apply(m), in_plane(A6.apply(Motion(embed(m))))) <= 1e-14);
    CHECK(rel_err(A.inverse_apply(m), in_plane(A6.inverse_apply(Motion(embed(m))))) <= 1e-14);
    CHECK(rel_err(A.transpose_apply(f), in_plane(A6.transpose_apply(Force(embed(f))))) <= 1e-14);
    const PlanarTransform AB = A * B;
    CHECK(rel_err(AB.apply(m), in_plane((A6 * B6).apply(Motion(embed(m))))) <= 1e-14);
    CHECK(rel_err(cross_motion(w, m), in_plane(cross_motion(Motion(embed(w)), Motion(embed(m))))) <=
          1e-14);
    CHECK(rel_err(cross_force(w, f), in_plane(cross_force(Motion(embed(w)), Force(embed(f))))) <=
          1e-14);
    // Inertia: the 3x3 block of a random spatial inertia whose frame has z along the plane normal.
    RigidBodyInertia I6 = test::random_inertia(rng);
    const PlanarInertia I{I6.m, I6.h.x(), I6.h.y(), I6.Ibar(2, 2)};
    CHECK(rel_err(I * m, in_plane(I6 * Motion(embed(m)))) <= 1e-13);
    const PlanarInertia IA = transpose_apply(A, I);
    const RigidBodyInertia IA6 = transpose_apply(A6, I6);
    CHECK(rel_err(IA * m, in_plane(IA6 * Motion(embed(m)))) <= 1e-13);
  }
}

namespace {
// A random planar tree: body frames placed in the world at q = 0 with z along +-world z under
// revolute joints (flipped at random), z in the plane under prismatic ones, and any orientation
// under fixed ones; joints reversed at random; origins at random heights. Two revolute loop
// joints between bodies whose z is normal to the plane, with their out-of-plane rows marked.
struct RandomPlanar {
  Model model;
  std::vector<LoopJoint> loops;
};
RandomPlanar random_planar_mechanism(int nb, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  auto flip = [&](const Mat3& E) { return u(rng) < 0 ? Mat3(rx(std::numbers::pi) * E) : E; };
  ModelBuilder b;
  b.set_gravity(9.81 * test::random_vector(3, rng).normalized());  // its z part must not matter
  std::vector<Transform> X0(nb + 1);                               // ^iX_0 at q = 0
  std::vector<int> normal = {0};  // bodies whose z is normal to the plane (and the base)
  for (int i = 1; i <= nb; ++i) {
    const int parent = std::uniform_int_distribution<int>(0, i - 1)(rng);
    const double pick = u(rng);
    Joint j = pick < 0.2 ? Joint::revolute() : pick < 0.7 ? Joint::prismatic() : Joint::fixed();
    if (i <= 2) j = Joint::revolute();  // two loop ends besides the base
    j.reversed = j.type != JointType::Fixed && u(rng) < 0;
    Mat3 E;
    if (j.type == JointType::Revolute)
      E = flip(rz(3 * u(rng))), normal.push_back(i);
    else if (j.type == JointType::Prismatic)
      E = rz(3 * u(rng)) * ry(std::numbers::pi / 2) * rz(3 * u(rng));
    else
      E = test::random_transform(rng).E;
    X0[i] = Transform(E, Vec3(u(rng), u(rng), 0.3 * u(rng)));
    b.add_body("b" + std::to_string(i), parent, j, X0[i] * X0[parent].inverse(),
               test::random_inertia(rng));
  }
  RandomPlanar out{b.build(), {}};
  for (int k = 0; k < 2; ++k) {
    LoopJoint l;
    l.name = "loop" + std::to_string(k);
    l.joint = Joint::revolute();
    l.predecessor = normal[std::uniform_int_distribution<int>(0, normal.size() - 1)(rng)];
    do l.successor = normal[std::uniform_int_distribution<int>(1, normal.size() - 1)(rng)];
    while (l.successor == l.predecessor);
    l.X_P = Transform(flip(rz(3 * u(rng))), Vec3(u(rng), u(rng), 0.2 * u(rng)));
    l.X_S = Transform(flip(rz(3 * u(rng))), Vec3(u(rng), u(rng), 0.2 * u(rng)));
    l.row = 5 * k;
    l.zero_rows = 0b10011;  // moments about x and y, force along z (loop_jcalc's row order)
    out.loops.push_back(l);
  }
  return out;
}
}  // namespace

TEST_CASE("planar Method 2 terms equal the spatial ones on random planar mechanisms", "[planar]") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    RandomPlanar rp = random_planar_mechanism(3 + trial % 8, rng);
    const Model& model = rp.model;
    Data d3(model), dp(model);
    forward_kinematics(model, d3, VecX::Zero(model.nq));
    const auto pm = make_planar_model(model, d3, rp.loops);
    REQUIRE(pm);
    PlanarData pd(*pm);
    const VecX q = test::random_vector(model.nq, rng), qd = test::random_vector(model.nv, rng);
    VecX delta3, k3, deltap, kp;
    MatX K3, Kp;
    loop_constraints(model, d3, rp.loops, q, qd, 20, 20, delta3, K3, k3);
    crba_from_kinematics(model, d3);
    nonlinear_effects_from_bias_kinematics(model, d3, nullptr);
    planar_loop_constraints(*pm, pd, q, qd, 20, 20, deltap, Kp, kp);
    planar_crba(*pm, pd, dp.H);
    planar_bias_forces(*pm, pd, dp.C);
    // Round-off of a few passes over at most 10 bodies: 1e-12 relative.
    CHECK(rel_err(dp.H, d3.H) <= 1e-12);
    CHECK(rel_err(dp.C, d3.C) <= 1e-12);
    CHECK(rel_err(Kp, K3) <= 1e-12);
    // δ's out-of-plane rows are the loop frames' fixed offsets (heights differ here), which the
    // spatial k carries through its Baumgarte term on rows whose K is zero: compare the rest.
    for (const LoopJoint& l : rp.loops)
      for (int c = 0; c < 5; ++c)
        if (!(l.zero_rows >> c & 1u)) {
          const int r = l.row + c;
          CHECK(std::abs(deltap[r] - delta3[r]) <= 1e-12 * std::max(1.0, std::abs(delta3[r])));
          CHECK(std::abs(kp[r] - k3[r]) <= 1e-12 * std::max(1.0, k3.cwiseAbs().maxCoeff()));
        }
  }
}

TEST_CASE("planar Method 2 equals the spatial one on the planar samples", "[planar]") {
  std::mt19937 rng(3);
  for (const char* file : kPlanarSamples) {
    INFO(file);
    const Mechanism mech = prepare(load_project(test::sample_path(file)).spec);
    REQUIRE(mech.planar_dynamics);
    const PlanarModel& pm = *mech.planar_dynamics;
    const Model& model = mech.model();
    const auto& loops = mech.compiled.loops;
    PlanarData pd(pm);
    Data d3(model), dp(model);
    ClosedLoopWork w3, wp;
    for (int trial = 0; trial < 20; ++trial) {
      // Off the constraint manifold on purpose: δ, K, k, H and C are defined everywhere.
      const VecX q = mech.q0 + 0.3 * test::random_vector(model.nq, rng);
      const VecX qd = test::random_vector(model.nv, rng), tau = test::random_vector(model.nv, rng);
      REQUIRE(closed_loop_forward_dynamics(model, d3, loops, q, qd, tau, 20, 20, w3));
      REQUIRE(planar_closed_loop_forward_dynamics(model, pm, pd, dp, q, qd, tau, 20, 20, wp));
      // Round-off of a few passes over the bodies: 1e-12 relative; q̈ through the solves 1e-9.
      CHECK(rel_err(wp.delta, w3.delta) <= 1e-12);
      CHECK(rel_err(wp.K, w3.K) <= 1e-12);
      CHECK(rel_err(wp.k, w3.k) <= 1e-12);
      CHECK(rel_err(dp.H, d3.H) <= 1e-12);
      CHECK(rel_err(dp.C, d3.C) <= 1e-12);
      CHECK(rel_err(dp.qdd, d3.qdd) <= 1e-9);
      // Positions only (the projection's linearisation).
      VecX delta;
      MatX K;
      planar_kinematics(pm, pd, q, nullptr);
      planar_loop_errors_and_jacobian(pm, pd, delta, K);
      CHECK(rel_err(delta, w3.delta) <= 1e-12);
      CHECK(rel_err(K, w3.K) <= 1e-12);
    }
  }
}

TEST_CASE("simulations with and without the planar solve coincide", "[planar][sim]") {
  for (const char* file : {"fourbar.json", "slider_crank.json", "jansen_leg.json"}) {
    INFO(file);
    const Mechanism mech = prepare(load_project(test::sample_path(file)).spec);
    SimulationOptions spatial;
    spatial.planar_algebra = false;
    Simulation a(mech), b(mech, spatial);
    for (int k = 0; k < 500; ++k) {
      a.step(1e-3, Integrator::RK4);
      b.step(1e-3, Integrator::RK4);
    }
    // 0.5 s of chaotic-free motion: round-off differences stay at round-off (1e-9 relative).
    CHECK(rel_err(a.q(), b.q()) <= 1e-9);
    CHECK(rel_err(a.qd(), b.qd()) <= 1e-9);
    a.evaluate();
    CHECK(a.loop_error() <= 1e-12);
  }
}

TEST_CASE("planar solve is refused where it does not apply", "[planar]") {
  std::mt19937 rng(5);
  RandomPlanar rp = random_planar_mechanism(6, rng);
  Data d(rp.model);
  forward_kinematics(rp.model, d, VecX::Zero(rp.model.nq));
  REQUIRE(make_planar_model(rp.model, d, rp.loops));
  std::vector<LoopJoint> spherical = rp.loops;  // a loop joint type it does not handle
  spherical[1].joint = Joint::spherical();
  spherical[1].zero_rows = 0;
  CHECK_FALSE(make_planar_model(rp.model, d, spherical));
  std::vector<LoopJoint> tilted = rp.loops;  // a loop row not in the plane
  tilted[0].zero_rows = 0;
  CHECK_FALSE(make_planar_model(rp.model, d, tilted));

  for (const char* file : {"stewart_platform.json", "bennett.json", "rssr.json"}) {
    INFO(file);
    const Mechanism mech = prepare(load_project(test::sample_path(file)).spec);
    CHECK_FALSE(mech.planar_dynamics);
  }
}
