// RBDA 8.13's sparse-matrix forward dynamics against RBDA 8.5 Method 2 (an independent solve of
// the same constraint rows on the spanning tree): q̈ to 1e-9 relative and the loop-joint
// multipliers to 1e-9 of the largest, at random states (coordinates off the assembled pose, random
// velocities and forces, Baumgarte terms on), with motion drives and without; on the ladders of
// Fig. 8.4, the four-bar, slider-crank, Stewart platform, Jansen leg and every sample it applies
// to. And its cost: O(n) on the ladder, where Method 2's is not.
#include <random>
#include <tuple>

#include "core/algorithms/closed_loop_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/sparse_dynamics.hpp"
#include "core/algorithms/sparse_planar_kinematics.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/loop_method.hpp"
#include "core/sim/mechanism.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
constexpr double kAlpha = 20.0;  // the simulator's default Baumgarte gains (T_stab = 0.05 s)

std::vector<int> tree_drives(const Mechanism& m) {
  std::vector<int> v;
  for (const DriveBinding& d : m.drives)
    if (d.kind == DriveSpec::Kind::Motion && d.v >= 0) v.push_back(d.v);
  return v;
}
bool has_loop_drive(const Mechanism& m) {
  for (const DriveBinding& d : m.drives)
    if (d.kind == DriveSpec::Kind::Motion && d.v < 0) return true;
  return false;
}

// The rows of Method 2 with the tree motion drives as rows q̈_v = q̈_d (as Simulation builds G
// and g), with H, C and H's factor at (q, q̇) in data.
void method2_rows(const Mechanism& m, const VecX& q, const VecX& qd, const VecX& drive_qdd,
                  Data& data, MatX& G, VecX& g) {
  const Model& model = m.model();
  VecX delta, k;
  MatX K;
  loop_constraints(model, data, m.compiled.loops, q, qd, kAlpha, kAlpha, delta, K, k);
  const std::vector<int> dv = tree_drives(m);
  const int nk = static_cast<int>(K.rows()), nd = static_cast<int>(dv.size());
  G = MatX::Zero(nk + nd, model.nv);
  g.resize(nk + nd);
  G.topRows(nk) = K;
  g.head(nk) = k;
  for (int r = 0; r < nd; ++r) G(nk + r, dv[r]) = 1.0, g[nk + r] = drive_qdd[r];
  crba_from_kinematics(model, data);
  nonlinear_effects_from_kinematics(model, data);
  REQUIRE(ltdl_factor(model, data));
}

void method2(const Mechanism& m, const VecX& q, const VecX& qd, const VecX& tau,
             const VecX& drive_qdd, Data& data, ConstrainedDynamicsWork& cd) {
  MatX G;
  VecX g;
  method2_rows(m, q, qd, drive_qdd, data, G, g);
  constrained_forward_dynamics(m.model(), data, G, g, tau, cd);
}

// Compares both methods at `states` random states; returns false when the sparse method does not
// apply to this mechanism.
bool compare_methods(const Mechanism& m, int states, unsigned seed) {
  const auto sm = sparse_dynamics_model(m);
  if (!sm) return false;
  const Model& model = m.model();
  std::mt19937 rng(seed);
  Data d1(model), d2(model);
  SparseDynamicsWork w;
  ConstrainedDynamicsWork cd;
  for (int s = 0; s < states; ++s) {
    VecX q = m.q0;
    integrate_in_place(model, q, test::random_vector(model.nv, rng), 0.05);  // loops slightly open
    const VecX qd = test::random_vector(model.nv, rng), tau = test::random_vector(model.nv, rng);
    const VecX drive_qdd = test::random_vector(sm->tree_drives, rng);
    method2(m, q, qd, tau, drive_qdd, d2, cd);
    forward_kinematics_bias(model, d1, q, qd);
    REQUIRE(sparse_forward_dynamics_from_kinematics(model, *sm, d1, m.compiled.loops, tau, kAlpha,
                                                    kAlpha, {drive_qdd.data()}, w));
    INFO(m.spec.name << " state " << s << (sm->planar ? " (planar)" : " (spatial)"));
    CHECK_CLOSE(d1.qdd, d2.qdd, 1e-9);
    const double scale = std::max(1.0, cd.mu.cwiseAbs().maxCoeff());
    CHECK((w.mu - cd.mu).cwiseAbs().maxCoeff() <= 1e-9 * scale);
  }
  return true;
}

MechanismSpec passive(MechanismSpec spec) {
  for (JointSpec& j : spec.joints) j.drive.reset();
  return spec;
}
}  // namespace

TEST_CASE("Sparse-matrix method equals Method 2 on the ladders", "[sparse]") {
  for (int k : {1, 5, 20}) {
    const Mechanism m = prepare(make_ladder(k));
    REQUIRE(m.planar);
    CHECK(compare_methods(m, 5, 10 + k));
  }
}

TEST_CASE("Sparse-matrix method keeps its precision 1e4 m from the origin", "[sparse]") {
  // Absolute coordinates about the mechanism's own centre (RBDA 10.1): no loss to the distance.
  MechanismSpec spec = make_ladder(5);
  const Vec3 offset(1e4, -2e4, 0);
  for (BodySpec& b : spec.bodies) b.pose->position += offset;
  for (JointSpec& j : spec.joints)
    if (j.parent == "ground") j.parent_frame.position += offset;
  CHECK(compare_methods(prepare(spec), 5, 99));
}

TEST_CASE("Sparse-matrix method equals Method 2 on the samples, with and without drives",
          "[sparse]") {
  // Required where the method must apply: planar loops, and the Stewart platform in 3-D.
  const std::vector<std::string> required = {"fourbar.json", "slider_crank.json",
                                             "stewart_platform.json", "jansen_leg.json"};
  for (const char* file :
       {"fourbar.json", "slider_crank.json", "stewart_platform.json", "jansen_leg.json",
        "watt_six_bar.json", "stephenson_six_bar.json", "peaucellier.json", "excavator.json",
        "rssr.json", "rsur.json", "delta_robot.json", "bennett.json"}) {
    const MechanismSpec spec = load_project(test::sample_path(file)).spec;
    const Mechanism driven = prepare(spec), free = prepare(passive(spec));
    const bool must = std::find(required.begin(), required.end(), file) != required.end();
    const bool applies = compare_methods(free, 5, 3);
    INFO(file);
    if (must) CHECK(applies);
    if (!has_loop_drive(driven) && compare_methods(driven, 5, 4)) CHECK(applies);
    if (std::string(file) == "bennett.json") CHECK_FALSE(applies);  // redundant spatial loop
  }
}

TEST_CASE("Sparse-matrix method's planar assembly equals its spatial one", "[sparse][planar]") {
  // The planar right-hand sides and tree-joint rows (from 3-vectors) against the same through
  // spatial 6-vectors, at random states with random forces, external forces and drive
  // accelerations: q̈ and the multipliers to 1e-12 of their largest (round-off only; both paths
  // share the factorisation). Ladders of 2 to 100 loops, the planar samples with their drives.
  // The 100-loop ladder at these states is ill-conditioned: Method 2 and the spatial path differ
  // by 1e-10 of the largest q̈ there (measured, 8e-7 of 1e4), round-off in the assembly moves q̈
  // by up to 2e-11 of it; its bound is 1e-10, every other one 1e-12.
  std::vector<MechanismSpec> specs = {make_ladder(2), make_ladder(20), make_ladder(100)};
  for (const char* file : {"fourbar.json", "slider_crank.json", "jansen_leg.json"})
    specs.push_back(load_project(test::sample_path(file)).spec);
  for (const MechanismSpec& spec : specs) {
    const Mechanism m = prepare(spec);
    const auto sm = sparse_dynamics_model(m);
    REQUIRE(sm);
    REQUIRE(sm->planar);
    REQUIRE(sm->planar_assembly);
    SparseDynamicsModel spatial = *sm;
    spatial.planar_assembly = false;
    const Model& model = m.model();
    std::mt19937 rng(28);
    Data d1(model), d2(model);
    SparseDynamicsWork w1, w2;
    for (int s = 0; s < 4; ++s) {
      VecX q = m.q0;
      integrate_in_place(model, q, test::random_vector(model.nv, rng), 0.05);
      const VecX qd = test::random_vector(model.nv, rng), tau = test::random_vector(model.nv, rng);
      const VecX drive_qdd = test::random_vector(sm->tree_drives, rng);
      ExternalForces f_ext(model.nb + 1, Force::Zero());
      for (Force& f : f_ext) f = test::random_vector(6, rng);
      const ExternalForces* fe = s % 2 ? &f_ext : nullptr;  // with and without
      for (auto [sparse, d, w] :
           {std::tuple{sm.get(), &d1, &w1},
            std::tuple<const SparseDynamicsModel*, Data*, SparseDynamicsWork*>{&spatial, &d2,
                                                                               &w2}}) {
        forward_kinematics_bias(model, *d, q, qd);
        REQUIRE(sparse_forward_dynamics_from_kinematics(
            model, *sparse, *d, m.compiled.loops, tau, kAlpha, kAlpha, {drive_qdd.data()}, *w, fe));
      }
      INFO(spec.name << " state " << s);
      const double tol = spec.name == "ladder100" ? 1e-10 : 1e-12;
      const double qdd_scale = std::max(1.0, d2.qdd.cwiseAbs().maxCoeff());
      CHECK((d1.qdd - d2.qdd).cwiseAbs().maxCoeff() <= tol * qdd_scale);
      const double mu_scale = std::max(1.0, w2.mu.cwiseAbs().maxCoeff());
      CHECK((w1.mu - w2.mu).cwiseAbs().maxCoeff() <= tol * mu_scale);
    }
  }
}

TEST_CASE("Sparse-matrix method on planar kinematics equals it on spatial kinematics",
          "[sparse][planar]") {
  // sparse_planar_forward_dynamics (planar_kinematics, planar inertias and loop rows) against
  // sparse_forward_dynamics_from_kinematics after spatial forward kinematics, at random states
  // with random joint forces and drive accelerations: q̈ and the multipliers to 1e-12 of their
  // largest (round-off only: the same matrix, the same factorisation). The 100-loop ladder is
  // ill-conditioned (see the planar-assembly test above): 1e-10 there. Samples with loop-joint
  // drives are taken without drives (the planar path leaves those to the spatial one).
  std::vector<MechanismSpec> specs = {make_ladder(2), make_ladder(20), make_ladder(100)};
  for (const char* file : {"fourbar.json", "slider_crank.json", "jansen_leg.json"})
    specs.push_back(load_project(test::sample_path(file)).spec);
  int driven = 0;  // mechanisms with tree motion drives: their rows s / |s|^2 are compared too
  for (const MechanismSpec& spec : specs) {
    const Mechanism m = prepare(has_loop_drive(prepare(spec)) ? passive(spec) : spec);
    const auto sm = sparse_dynamics_model(m);
    REQUIRE(sm);
    REQUIRE(m.planar_dynamics);
    driven += sm->tree_drives > 0;
    const PlanarModel& pm = *m.planar_dynamics;
    REQUIRE(sparse_planar_applies(*sm, pm, m.compiled.loops));
    const Model& model = m.model();
    std::mt19937 rng(29);
    Data d1(model), d2(model);
    PlanarData pd(pm);
    SparseDynamicsWork w1, w2;
    for (int s = 0; s < 4; ++s) {
      VecX q = m.q0;
      integrate_in_place(model, q, test::random_vector(model.nv, rng), 0.05);
      const VecX qd = test::random_vector(model.nv, rng), tau = test::random_vector(model.nv, rng);
      const VecX drive_qdd = test::random_vector(sm->tree_drives, rng);
      REQUIRE(sparse_planar_forward_dynamics(*sm, pm, pd, d1, m.compiled.loops, q, qd, tau, kAlpha,
                                             kAlpha, drive_qdd.data(), w1));
      forward_kinematics_bias(model, d2, q, qd);
      REQUIRE(sparse_forward_dynamics_from_kinematics(model, *sm, d2, m.compiled.loops, tau, kAlpha,
                                                      kAlpha, {drive_qdd.data()}, w2));
      INFO(spec.name << " state " << s << ", " << sm->tree_drives << " tree drives");
      const double tol = spec.name == "ladder100" ? 1e-10 : 1e-12;
      const double qdd_scale = std::max(1.0, d2.qdd.cwiseAbs().maxCoeff());
      CHECK((d1.qdd - d2.qdd).cwiseAbs().maxCoeff() <= tol * qdd_scale);
      const double mu_scale = std::max(1.0, w2.mu.cwiseAbs().maxCoeff());
      CHECK((w1.mu - w2.mu).cwiseAbs().maxCoeff() <= tol * mu_scale);
    }
  }
  CHECK(driven > 0);
}

TEST_CASE("Sparse-matrix method is O(n) on the ladder, where Method 2 is not", "[sparse]") {
  auto per_loop = [](int k) {
    const Mechanism m = prepare(make_ladder(k));
    const auto sm = sparse_dynamics_model(m);
    REQUIRE(sm);
    return std::pair{sm->flops / k,
                     method2_cost(m.model(), constraint_rows(m.compiled.loops), 2 * k) / k};
  };
  const auto [s5, m5] = per_loop(5);
  const auto [s80, m80] = per_loop(80);
  INFO("sparse operations per loop " << s5 << " -> " << s80 << ", Method 2 (instructions) " << m5
                                     << " -> " << m80);
  CHECK(s80 <= 1.2 * s5);  // bounded fill: the minimum-degree order finds a fixed bandwidth
  CHECK(m80 >= 10 * m5);
  // The selection follows the prediction: the long ladder is solved by the sparse method.
  CHECK(prepare(make_ladder(80)).sparse);
}

TEST_CASE("Method 2 re-solved for another force with its factors kept equals a full solve",
          "[sparse][resolve]") {
  // The slipping contacts' friction re-solves at the same state (simulation_friction.cpp): the
  // kept factors must give exactly what a full solve gives (0 difference, bit for bit), on the
  // general path (the walker's 36 loops, the ladder's 5) and the few-row path (the four-bar: its
  // 3 in-plane rows).
  const MechanismSpec walker = load_project(test::sample_path("strandbeest_walker.json")).spec;
  const MechanismSpec fourbar = load_project(test::sample_path("fourbar.json")).spec;
  for (const auto& [spec, path] : {std::pair{walker, ConstrainedDynamicsWork::Path::Sparse},
                                   std::pair{make_ladder(5), ConstrainedDynamicsWork::Path::Sparse},
                                   std::pair{fourbar, ConstrainedDynamicsWork::Path::Few}}) {
    const Mechanism m = prepare(spec);
    const Model& model = m.model();
    std::mt19937 rng(7);
    const VecX drive_qdd = VecX::Zero(static_cast<int>(tree_drives(m).size()));
    for (int trial = 0; trial < 3; ++trial) {
      VecX q = m.q0;
      integrate_in_place(model, q, test::random_vector(model.nv, rng), 0.01);
      const VecX qd = test::random_vector(model.nv, rng);
      const VecX tau1 = test::random_vector(model.nv, rng);
      const VecX tau2 = test::random_vector(model.nv, rng);
      Data full(model), kept(model);
      ConstrainedDynamicsWork wf, wk;
      wk.keep_rows = true;
      method2(m, q, qd, tau2, drive_qdd, full, wf);
      MatX G;
      VecX g;
      method2_rows(m, q, qd, drive_qdd, kept, G, g);
      constrained_forward_dynamics(model, kept, G, g, tau1, wk);
      INFO(spec.name << " rows " << wk.rows.size());
      CHECK(wk.path == path);
      // The multipliers alone (a slipping contact's normal force): bit for bit the full solve's.
      REQUIRE(constrained_resolve_multipliers(model, kept, G, g, tau2, wk));
      CHECK((wk.mu - wf.mu).cwiseAbs().maxCoeff() == 0.0);
      REQUIRE(constrained_resolve(model, kept, G, g, tau2, wk));
      CHECK((kept.qdd - full.qdd).cwiseAbs().maxCoeff() == 0.0);
      CHECK((wk.mu - wf.mu).cwiseAbs().maxCoeff() == 0.0);
      CHECK(wk.residual == wf.residual);
      wf.minimum_norm = true;  // its factorisation is not kept: refused, nothing done
      method2(m, q, qd, tau1, drive_qdd, full, wf);
      CHECK_FALSE(constrained_resolve(model, full, G, g, tau2, wf));
      CHECK_FALSE(constrained_resolve_multipliers(model, full, G, g, tau2, wf));
    }
  }
}
