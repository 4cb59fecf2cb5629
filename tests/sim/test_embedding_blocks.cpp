// The block-split embedding (issue 18, session 30): on the Stewart platform the top plate's pose
// (the plate-carrying leg's universal, prismatic and spherical joints) is independent and Y₁
// splits into one 3 x 3 block per other leg. Checked against the dense factors of the same
// choice (closed states and X_S, 1e-12), and over 10 s of the passive platform (energy, loop
// residual). The embedded ABA's sparse node step (session 31: D_S = X_Sᵀ M̃_S X_S and M̃_S q̈
// summed over M̃_S's coupled coordinate pairs, so each Stewart leg adds its own X_lᵀ M̃_l X_l)
// against the same step with M̃_S formed whole (1e-12).
#include <random>

#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/embedding/embedded_aba.hpp"
#include "core/sim/embedding/partition.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
MechanismSpec passive_sample(const std::string& sample) {
  MechanismSpec spec = load_project(test::sample_path(sample)).spec;
  for (JointSpec& j : spec.joints) j.drive.reset();
  spec.contacts.clear();  // the embedding takes none
  return spec;
}
MechanismSpec passive_stewart() {
  return passive_sample("stewart_platform.json");
}

// One embedding of m's loops at the assembled state, its blocks split or whole.
struct EmbeddingAt {
  Data data;
  ConstraintSet cs;
  std::unique_ptr<ConstraintEmbedding> emb;
  EmbeddingAt(const Mechanism& m, bool split) : data(m.model()), cs(m, m.drives) {
    forward_kinematics_bias(m.model(), data, m.q0, m.qd0);
    ConstraintContext c{m, m.drives, data};
    c.q = &m.q0;
    c.qd = &m.qd0;
    cs.acceleration(c);
    emb = std::make_unique<ConstraintEmbedding>(m, cs, cs.G());
    emb->split_blocks(split);
    emb->choose(cs.G(), "at the assembled state");
  }
  // Closes (q, qd) from their independent coordinates, then factors at the closed state.
  void close(const Mechanism& m, VecX& q, VecX& qd) {
    ConstraintContext c{m, m.drives, data};
    CHECK(emb->solve_dependent(c, 1e-12, q, qd) <= 1e-12);
    forward_kinematics_bias(m.model(), data, q, qd);
    c.q = &q;
    c.qd = &qd;
    cs.acceleration(c);
    emb->factor(cs.G());
  }
  // q̈ and the constraint forces r from the embedded ABA at (q, v, tau), its node step sparse or
  // dense, with the embedding factored at this state.
  void node_step(const Mechanism& m, bool dense, const VecX& q, const VecX& v, const VecX& tau,
                 VecX& qdd, VecX& r) {
    forward_kinematics_bias(m.model(), data, q, v);
    ConstraintContext c{m, m.drives, data};
    c.q = &q;
    c.qd = &v;
    cs.acceleration(c);
    emb->factor(cs.G());
    VecX y;
    emb->particular(cs.g(), y);
    EmbeddedAba aba(m.model(), *emb);
    aba.dense_node_step(dense);
    REQUIRE(aba.solve(data, *emb, y, q, v, tau, nullptr, r));
    qdd = data.qdd;
  }
};
}  // namespace

TEST_CASE("The Stewart platform's Y1 splits leg by leg and equals the dense solve",
          "[sim][embedding]") {
  const Mechanism m = prepare(passive_stewart());
  EmbeddingAt split(m, true), dense(m, false);
  REQUIRE(split.emb->nodes() == 1);
  INFO(split.emb->describe());
  // The plate's pose is independent: six coordinates, and five 3 x 3 blocks (one per cut leg).
  CHECK(split.emb->independent().size() == 6u);
  CHECK(split.emb->blocks(0) == 5);
  CHECK(dense.emb->blocks(0) == 1);
  REQUIRE(split.emb->independent() == dense.emb->independent());
  std::mt19937 rng(3030);
  for (int k = 0; k < 5; ++k) {
    // The independent coordinates moved by up to 0.02 (rad or m) and given random rates; the
    // dependent ones start from the assembly, so each solve takes several Newton steps.
    VecX dv = VecX::Zero(m.model().nv), qd = m.qd0;
    for (int v : split.emb->independent()) {
      dv[v] = 0.02 * test::random_vector(1, rng)[0];
      qd[v] = test::random_vector(1, rng)[0];
    }
    VecX q = m.q0;
    integrate_in_place(m.model(), q, dv, 1.0);
    VecX qa = q, qda = qd, qb = q, qdb = qd;
    split.close(m, qa, qda);
    dense.close(m, qb, qdb);
    // The same Newton iteration, its linear solves per block instead of whole: the closed states
    // agree to round-off (1e-12), and so do X_S and the particular solution.
    CHECK_CLOSE(qa, qb, 1e-12);
    CHECK_CLOSE(qda, qdb, 1e-12);
    CHECK_CLOSE(split.emb->X(), dense.emb->X(), 1e-12);
    VecX ya, yb;
    split.emb->particular(split.cs.g(), ya);
    dense.emb->particular(dense.cs.g(), yb);
    CHECK_CLOSE(ya, yb, 1e-12);
  }
}

TEST_CASE("The passive Stewart platform keeps its energy in minimal coordinates",
          "[sim][embedding]") {
  // The test: 10 s at RK4 1 ms, energy drift relative to the motion's largest kinetic
  // energy, and the loop residual of every step's position solve.
  const Mechanism m = prepare(passive_stewart());
  SimulationOptions o;
  o.solver = SolverChoice::Embedding;
  Simulation sim(m, o);
  sim.evaluate();
  const double e0 = sim.energy().kinetic + sim.energy().potential;
  double swing = 0.0, drift = 0.0, loop = 0.0;
  for (int k = 0; k < 10000; ++k) {
    sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    swing = std::max(swing, sim.energy().kinetic);
    drift = std::max(drift, std::abs(sim.energy().kinetic + sim.energy().potential - e0));
    loop = std::max(loop, sim.loop_error());
  }
  INFO("drift " << drift << " J of " << swing << " J kinetic; loop error " << loop << "; "
                << sim.embedding()->describe() << "; re-chosen " << sim.embedding()->rechosen());
  CHECK(swing > 1.0);
  CHECK(drift <= 1e-9 * swing);
  CHECK(loop <= 1e-12);
}

TEST_CASE("The embedded ABA's sparse node step equals the dense one", "[sim][embedding]") {
  std::mt19937 rng(3131);
  int split = 0;
  // Split nodes (Stewart: five blocks; the 3-RRR and Watt six-bar: two) and whole ones (the
  // delta robot's, the Jansen leg's, the walker's 73-coordinate node).
  for (const char* sample : {"stewart_platform.json", "rrr3_planar.json", "watt_six_bar.json",
                             "delta_robot.json", "jansen_leg.json", "strandbeest_walker.json"}) {
    INFO(sample);
    const Mechanism m = prepare(passive_sample(sample));
    EmbeddingAt at(m, true);
    for (int n = 0; n < at.emb->nodes(); ++n) split += at.emb->blocks(n) > 1;
    INFO(at.emb->describe());
    for (int k = 0; k < 3; ++k) {
      // The assembled pose (the rows hold there) with random rates and forces: the node step is
      // a linear solve at any v, so closing the velocities is not needed to compare the two.
      const VecX v = test::random_vector(m.model().nv, rng);
      const VecX tau = test::random_vector(m.model().nv, rng);
      VecX a, b, ra, rb;
      at.node_step(m, false, m.q0, v, tau, a, ra);
      at.node_step(m, true, m.q0, v, tau, b, rb);
      CHECK(a.allFinite());
      // The same sums in another order: round-off apart.
      CHECK_CLOSE(a, b, 1e-12);
      CHECK_CLOSE(ra, rb, 1e-12);
    }
  }
  CHECK(split == 3);  // the Stewart platform's, the 3-RRR's and the Watt six-bar's nodes
}
