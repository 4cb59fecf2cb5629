// Constraint embedding (issue 18, Jain Part II): the aggregated tree, the embedded dynamics
// against RBDA 8.5 Method 2 (q̈ and constraint forces at random states, 1e-9), simulation in
// minimal coordinates against Method 2's projected simulation on every sample it applies to
// (1 s, 1e-8), energy of a passive four-bar over 10 s, a change of independent coordinates, and
// position solves that start from stale factors.
#include <filesystem>
#include <functional>
#include <random>

#include "core/algorithms/energy.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/embedding/aggregation.hpp"
#include "core/sim/embedding/partition.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
std::vector<std::string> samples_with_loops() {
  std::vector<std::string> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples"))
    if (e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The spec with its motion drives removed: the mechanism then moves under gravity and springs,
// so the embedding has independent coordinates to integrate.
MechanismSpec passive(MechanismSpec spec) {
  for (JointSpec& j : spec.joints)
    if (j.drive && j.drive->kind == DriveSpec::Kind::Motion) j.drive.reset();
  return spec;
}

// Two copies of a spec side by side (bodies and joints renamed): two separate aggregated nodes.
MechanismSpec doubled(const MechanismSpec& spec) {
  MechanismSpec out = spec;
  auto rename = [](const std::string& s) { return s == "ground" ? s : s + "_2"; };
  for (BodySpec b : spec.bodies) b.name = rename(b.name), out.bodies.push_back(b);
  for (JointSpec j : spec.joints) {
    j.name = rename(j.name), j.parent = rename(j.parent), j.child = rename(j.child);
    out.joints.push_back(j);
  }
  return out;
}

// Calls f(path, driven, mechanism) for every sample with loops or couplings and no contacts (the
// embedding refuses contacts, with the reason), as in its file (driven) and without its motion
// drives (passive), under INFO naming the case.
void for_each_loop_case(const std::function<void(const std::string&, bool, const Mechanism&)>& f) {
  for (const std::string& path : samples_with_loops()) {
    for (bool driven : {true, false}) {
      INFO(path << (driven ? " (driven)" : " (passive)"));
      const MechanismSpec spec = load_project(path).spec;
      if (!spec.contacts.empty()) continue;
      const Mechanism m = prepare(driven ? spec : passive(spec));
      if (!m.has_loops() && m.couplings.empty()) continue;
      f(path, driven, m);
    }
  }
}
}  // namespace

TEST_CASE("Aggregation: cut-edges sharing bodies share a node, closures to ground included",
          "[sim][embedding]") {
  const Mechanism fourbar = prepare(load_project(test::sample_path("fourbar.json")).spec);
  const EmbeddingTree t = aggregate(fourbar);
  REQUIRE(t.nodes.size() == 1);  // the loop closes to ground: crank, coupler and rocker
  CHECK(t.nodes[0].bodies.size() == 3);
  CHECK(t.nodes[0].parent_body == 0);
  CHECK(t.nodes[0].loops == std::vector<int>{0});
  CHECK(t.tree_nodes == 1);
  const Mechanism two = prepare(doubled(load_project(test::sample_path("fourbar.json")).spec));
  CHECK(aggregate(two).nodes.size() == 2);  // separate loops: separate nodes
  CHECK(aggregate(two).tree_nodes == 2);
  for (const std::string& path : samples_with_loops()) {
    INFO(path);
    const Mechanism m = prepare(load_project(path).spec);
    const Model& model = m.model();
    const EmbeddingTree a = aggregate(m);
    int members = 0;
    for (std::size_t k = 0; k < a.nodes.size(); ++k) {
      const EmbeddingNode& n = a.nodes[k];
      members += static_cast<int>(n.bodies.size());
      for (int b : n.bodies) {  // a sub-tree hanging from parent_body
        CHECK(a.node_of_body[b] == static_cast<int>(k));
        const int p = model.parent[b];
        CHECK((p == n.parent_body || (p > 0 && a.node_of_body[p] == static_cast<int>(k))));
      }
    }
    CHECK(a.tree_nodes == model.nb - members + static_cast<int>(a.nodes.size()));
    for (std::size_t l = 0; l < m.compiled.loops.size(); ++l) {  // every loop inside one node
      const LoopJoint& lj = m.compiled.loops[l];
      const int node = a.node_of_body[lj.successor] >= 0 ? a.node_of_body[lj.successor]
                                                         : a.node_of_body[lj.predecessor];
      REQUIRE(node >= 0);
      const std::vector<int>& loops = a.nodes[node].loops;
      CHECK(std::count(loops.begin(), loops.end(), static_cast<int>(l)) == 1);
      for (int end : {lj.predecessor, lj.successor})
        CHECK((end == a.nodes[node].parent_body || a.node_of_body[end] == node ||
               model.parent[end] < 0));
    }
  }
}

TEST_CASE("Embedded dynamics equal Method 2 at random states", "[sim][embedding]") {
  std::mt19937 rng(18);
  int compared = 0;
  for_each_loop_case([&](const std::string&, bool, const Mechanism& m) {
    ConstraintSet cs(m, m.drives);
    Data d(m.model());
    const SolverEnv env{m, d, cs, m.drives, 0.0};  // no Baumgarte terms: the same rows
    std::unique_ptr<DynamicsSolver> emb;
    try {
      emb = make_solver(env, SolverChoice::Embedding, false, false);
    } catch (const SetupError& e) {  // rssr: the coupler's spin lives in a quaternion
      CHECK(std::string(e.what()).find("spherical") != std::string::npos);
      return;
    }
    auto m2 = make_solver(env, SolverChoice::Method2, false, false);
    for (int k = 0; k < 5; ++k) {  // any velocity: both solve the same G q̈ = g
      const VecX v = test::random_vector(m.model().nv, rng);
      const VecX tau = test::random_vector(m.model().nv, rng);
      const SolverInput in{0.1 * k, m.q0, v, tau};
      const VecX a = emb->accelerations(in);
      const VecX force_e = cs.G().transpose() * emb->multipliers();
      const VecX b = m2->accelerations(in);
      const VecX force_m = cs.G().transpose() * m2->multipliers();
      CHECK_CLOSE(a, b, 1e-9);
      CHECK_CLOSE(force_e, force_m, 1e-9);  // G^T μ: unique even with redundant rows
      ++compared;
    }
  });
  CHECK(compared >= 5 * 20);
}

namespace {
struct Run {
  VecX q, qd, qdd, tau;
  std::vector<Force> wrench;
  double work = 0.0, loop_error = 0.0;
  int rechosen = 0;
};

Run simulate(const Mechanism& m, SolverChoice choice, double duration, double h,
             Integrator integrator) {
  SimulationOptions o;
  o.solver = choice;
  o.planar_algebra = false;
  Simulation sim(m, o);
  Run r;
  const int steps = static_cast<int>(duration / h + 0.5);
  for (int k = 0; k < steps; ++k) {
    sim.step(h, integrator);
    if (k % 50 == 0) sim.evaluate(), r.loop_error = std::max(r.loop_error, sim.loop_error());
  }
  sim.evaluate();
  r.q = sim.q(), r.qd = sim.qd(), r.qdd = sim.qdd(), r.tau = sim.tau(), r.wrench = sim.wrench();
  r.work = sim.energy().work;
  r.loop_error = std::max(r.loop_error, sim.loop_error());
  if (sim.embedding()) r.rechosen = sim.embedding()->rechosen();
  return r;
}
}  // namespace

TEST_CASE("Simulation in minimal coordinates follows Method 2 on every sample",
          "[sim][embedding]") {
  int compared = 0;
  for_each_loop_case([&](const std::string& path, bool driven, const Mechanism& m) {
    // Driven: 1 s. Passive, several of them are chaotic (the 3-RRR, the delta robot, the
    // Stewart platform falling freely) or pass singular configurations of their loops (the
    // Peaucellier cell near t = 0.2 s, where no choice of independent coordinate has
    // rcond(Y1) above 3e-5): two discretisations separate there whatever their accuracy, so
    // they are compared over 0.15 s (as test_solvers.cpp does for the ladder), at 0.25 ms so
    // that the integration error of either stays below the tolerance (the 3-RRR's reaches
    // 1e-7 at 1 ms by then).
    const double duration = driven ? 1.0 : 0.15, h = driven ? 1e-3 : 2.5e-4;
    Run e;
    try {
      e = simulate(m, SolverChoice::Embedding, duration, h, Integrator::RK4);
    } catch (const SetupError& err) {
      INFO(err.what());
      CHECK(path.find("rssr") != std::string::npos);  // the one sample it does not apply to
      return;
    }
    const Run r = simulate(m, SolverChoice::Method2, duration, h, Integrator::RK4);
    // Two discretisations of the same motion (minimal coordinates against projected tree
    // coordinates), both RK4 at the same step: they differ by the integration error only.
    CHECK_CLOSE(e.q, r.q, 1e-8);
    CHECK_CLOSE(e.qd, r.qd, 1e-8);
    CHECK_CLOSE(e.tau, r.tau, 1e-8);
    for (std::size_t j = 0; j < e.wrench.size(); ++j) CHECK_CLOSE(e.wrench[j], r.wrench[j], 1e-8);
    CHECK(e.loop_error <= 1e-12);  // the residual of the position solves
    ++compared;
  });
  CHECK(compared >= 24);
}

namespace {
struct Swing {
  double swing = 0.0, drift = 0.0, loop = 0.0;
};
Swing swing_10s(const Mechanism& m, SolverChoice choice) {
  SimulationOptions o;
  o.solver = choice;
  Simulation sim(m, o);
  sim.evaluate();
  const double e0 = sim.energy().kinetic + sim.energy().potential;
  Swing s;
  for (int k = 0; k < 10000; ++k) {
    sim.step(1e-3, Integrator::RK4);
    if (k % 10 != 9) continue;
    sim.evaluate();
    s.swing = std::max(s.swing, sim.energy().kinetic);
    s.drift = std::max(s.drift, std::abs(sim.energy().kinetic + sim.energy().potential - e0));
    s.loop = std::max(s.loop, sim.loop_error());
  }
  return s;
}
}  // namespace

TEST_CASE("A passive four-bar keeps its energy in minimal coordinates", "[sim][embedding]") {
  const Mechanism m = prepare(passive(load_project(test::sample_path("fourbar.json")).spec));
  const Swing e = swing_10s(m, SolverChoice::Embedding);
  const Swing r = swing_10s(m, SolverChoice::Method2);
  INFO("embedding: drift " << e.drift << " of swing energy " << e.swing << ", loop error " << e.loop
                           << "; Method 2 with projection: drift " << r.drift);
  // RK4 at 1 ms over 10 s: the drift is RK4's own energy error in the minimal coordinate
  // (measured 1.0e-9 J of 0.17 J, 6e-9), a twentieth of Method 2's with projection (2.2e-8 J).
  CHECK(e.swing > 0.1);
  CHECK(e.drift <= 1e-8 * e.swing);
  CHECK(e.drift <= 0.2 * r.drift);
  CHECK(e.loop <= 1e-12);
}

TEST_CASE("A change of independent coordinates leaves the motion continuous", "[sim][embedding]") {
  // The sample crank-rocker, undriven, its crank started at 3 rad with 60 rad/s (40 rad/s once
  // the assembly has made the velocities consistent) so that it turns several times: the crank
  // is chosen independent at first, and as the linkage turns Y1 degrades until the choice is
  // made again (here once, at the relative threshold of partition.cpp).
  MechanismSpec spec = passive(load_project(test::sample_path("fourbar.json")).spec);
  spec.joints[0].q0 = std::vector<double>{3.0};
  spec.joints[0].qd0 = std::vector<double>{60.0};
  const Mechanism m = prepare(spec);
  SimulationOptions o;
  o.solver = SolverChoice::Embedding;
  Simulation e(m, o);
  o.solver = SolverChoice::Method2;
  Simulation r(m, o);
  const int crank = m.compiled.q_index(0);
  double worst = 0.0, at = -1.0;
  // 0.3 s at 0.125 ms. The two differ by their integration errors only, which fall as h⁴
  // (over 1 s: 2.0e-8 at 0.25 ms, 1.4e-9 at 0.125 ms): a jump at the change would not.
  for (int k = 0; k < 2400; ++k) {
    e.step(1.25e-4, Integrator::RK4);
    r.step(1.25e-4, Integrator::RK4);
    worst = std::max({worst, test::rel_err(e.q(), r.q()), test::rel_err(e.qd(), r.qd())});
    if (at < 0 && e.embedding()->rechosen() > 0) at = e.time();
  }
  INFO("choice re-made at t = " << at << " (" << e.embedding()->rechosen()
                                << " times), crank turned " << e.q()[crank] - m.q0[crank]
                                << " rad, worst difference from Method 2 " << worst);
  CHECK(e.q()[crank] - m.q0[crank] > 2 * 3.14159);  // a turn or more
  CHECK(e.embedding()->rechosen() >= 1);
  CHECK(worst <= 1e-9);  // through the change: no jump (Method 2 has no choice to make)
}

namespace {
// The driven Stewart platform (every degree of freedom prescribed: no independent coordinates)
// over 0.2 s, the first leg's law given an extra 10 (t - 0.1)² at 0.1 s (position and velocity
// continuous, the acceleration jumps by 20 m/s²), then a restore to 0.1 s and a replay.
struct DriveChange {
  VecX q, tau, replay_q;
  double work = 0.0, replay_work = 0.0;  // by the drives, from t = 0 and from the restore
};
DriveChange change_leg_law(const Mechanism& m, const std::string& law, SolverChoice choice) {
  SimulationOptions o;
  o.solver = choice;
  Simulation sim(m, o);
  const int leg = m.drives.front().user_joint;
  VecX q1, qd1;
  for (int k = 0; k < 200; ++k) {
    if (k == 100) q1 = sim.q(), qd1 = sim.qd();
    if (k == 100) sim.set_drive_expression(leg, law + " + 10*(t - 0.1)^2");
    sim.step(1e-3, Integrator::RK4);
  }
  sim.evaluate();
  DriveChange r{sim.q(), sim.tau(), {}, sim.energy().work};
  sim.restore(0.1, q1, qd1, 0.0, 0.0);
  for (int k = 0; k < 100; ++k) sim.step(1e-3, Integrator::RK4);
  sim.evaluate();
  r.replay_q = sim.q();
  r.replay_work = sim.energy().work;
  return r;
}
}  // namespace

TEST_CASE("Remembered stages follow drive changes and restores", "[sim][embedding]") {
  // In minimal coordinates a stage's closed state and accelerations are remembered by
  // (t, independent coordinates) (embedding/stage_cache.hpp); with no independent coordinates
  // the key is t alone, so a law changed between steps must forget them: the step after the
  // change starts at the same t. Method 2 keeps no such memory and is the reference.
  const MechanismSpec spec = load_project(test::sample_path("stewart_platform.json")).spec;
  const Mechanism m = prepare(spec);
  std::string law;
  for (const JointSpec& j : spec.joints)
    if (j.drive && law.empty()) law = j.drive->expression;
  const DriveChange e = change_leg_law(m, law, SolverChoice::Embedding);
  const DriveChange r = change_leg_law(m, law, SolverChoice::Method2);
  // Both follow the prescribed laws, so q agrees to the closure tolerances (measured ~1e-13)
  // and the legs' forces through the new law's accelerations.
  CHECK_CLOSE(e.q, r.q, 1e-10);
  CHECK_CLOSE(e.tau, r.tau, 1e-8);
  CHECK_CLOSE(e.replay_q, e.q, 1e-10);  // q(0.2 s) is set by the laws alone
  INFO("work by the drives: embedding " << e.work << " J, Method 2 " << r.work << " J; replays "
                                        << e.replay_work << ", " << r.replay_work);
  // The work is RK4's quadrature of the stages' power: a stale first stage after the change
  // (the old law's accelerations at t = 0.1 s) would be off by about h/6 · Δτ·v ~ 1e-4 J.
  CHECK(std::abs(e.work - r.work) <= 1e-9 * std::abs(r.work));
  CHECK(std::abs(e.replay_work - r.replay_work) <= 1e-9 * std::abs(r.replay_work));
}

namespace {
// The state of `sim` with every independent coordinate moved by `shift` (rad or m; along the
// joint's own velocity coordinates, so a spherical joint's quaternion stays a unit one).
VecX shifted_coordinates(const Simulation& sim, const Model& model, double shift) {
  VecX q = sim.q(), dv = VecX::Zero(model.nv);
  for (int v : sim.embedding()->independent()) dv[v] = shift;
  integrate_in_place(model, q, dv, 1.0);
  return q;
}
}  // namespace

TEST_CASE("The position solve closes the loops from stale factors", "[sim][embedding]") {
  // Chord steps with the last closed state's factors need the errors alone; where they stop
  // shrinking them by 4 (a state far from those factors), Newton steps with fresh rows take
  // over. The passive Stewart platform after 50 RK4 steps is restored with its six independent
  // coordinates moved (a step's worth, 1e-4, and 0.02 rad or m) and stepped once; a second
  // simulation, fresh from the assembly (its factors from t = 0), steps from the same state.
  // Both close the loops to the tolerance (1e-12), and the closed states agree to what that
  // tolerance allows through the dependent block (1e-10): the factors a solve starts from do
  // not change where it ends.
  const Mechanism m =
      prepare(passive(load_project(test::sample_path("stewart_platform.json")).spec));
  SimulationOptions o;
  o.solver = SolverChoice::Embedding;
  for (double shift : {1e-4, 0.02}) {
    INFO("shift " << shift);
    Simulation warm(m, o), cold(m, o);
    for (int k = 0; k < 50; ++k) warm.step(1e-3, Integrator::RK4);
    const VecX q = shifted_coordinates(warm, m.model(), shift), qd = warm.qd();
    const double t = warm.time();
    for (Simulation* sim : {&warm, &cold}) {
      sim->restore(t, q, qd, 0.0, 0.0);
      sim->step(1e-3, Integrator::RK4);
      sim->evaluate();
      CHECK(sim->loop_error() <= 1e-12);
    }
    CHECK_CLOSE(warm.q(), cold.q(), 1e-10);
    CHECK_CLOSE(warm.qd(), cold.qd(), 1e-10);
  }
}
