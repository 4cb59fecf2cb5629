// The embedded ABA's sparse node step (issue 18, session 31): D_S = X_Sᵀ M̃_S X_S and M̃_S (q̈_S -
// y_S) summed over M̃_S's coupled coordinate pairs only (a Stewart platform's legs each add their
// own X_lᵀ M̃_l X_l), against the same step with M̃_S formed whole and multiplied densely
// (dense_node_step). Both are one algorithm up to the order of the sums: q̈ and the constraint
// forces agree to 1e-12, on split nodes (the Stewart platform, the 3-RRR, the Watt six-bar) and
// whole ones.
#include <random>

#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/sim/embedding/embedded_aba.hpp"
#include "core/sim/embedding/partition.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
MechanismSpec node_step_passive(const std::string& sample) {
  MechanismSpec spec = load_project(test::sample_path(sample)).spec;
  for (JointSpec& j : spec.joints) j.drive.reset();
  spec.contacts.clear();
  return spec;
}

// q̈ and r from the embedded ABA at (q, v, tau), its node step sparse or dense, with the
// embedding factored at this state.
struct NodeStepAt {
  Data data;
  ConstraintSet cs;
  std::unique_ptr<ConstraintEmbedding> emb;
  explicit NodeStepAt(const Mechanism& m) : data(m.model()), cs(m, m.drives) {
    forward_kinematics_bias(m.model(), data, m.q0, m.qd0);
    ConstraintContext c{m, m.drives, data};
    c.q = &m.q0;
    c.qd = &m.qd0;
    cs.acceleration(c);
    emb = std::make_unique<ConstraintEmbedding>(m, cs, cs.G());
    emb->choose(cs.G(), "at the assembled state");
  }
  void run(const Mechanism& m, bool dense, const VecX& q, const VecX& v, const VecX& tau,
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

TEST_CASE("The embedded ABA's sparse node step equals the dense one", "[sim][embedding]") {
  std::mt19937 rng(3131);
  int split = 0;
  // Split nodes (Stewart: five blocks; the 3-RRR and Watt six-bar: two) and whole ones (the
  // delta robot's, the Jansen leg's, the walker's 73-coordinate node).
  for (const char* sample : {"stewart_platform.json", "rrr3_planar.json", "watt_six_bar.json",
                             "delta_robot.json", "jansen_leg.json", "strandbeest_walker.json"}) {
    INFO(sample);
    const Mechanism m = prepare(node_step_passive(sample));
    NodeStepAt at(m);
    for (int n = 0; n < at.emb->nodes(); ++n) split += at.emb->blocks(n) > 1;
    INFO(at.emb->describe());
    for (int k = 0; k < 3; ++k) {
      // The assembled pose (the rows hold there) with random rates and forces: the node step is
      // a linear solve at any v, so closing the velocities is not needed to compare the two.
      const VecX v = test::random_vector(m.model().nv, rng);
      const VecX tau = test::random_vector(m.model().nv, rng);
      VecX a, b, ra, rb;
      at.run(m, false, m.q0, v, tau, a, ra);
      at.run(m, true, m.q0, v, tau, b, rb);
      CHECK(a.allFinite());
      CHECK_CLOSE(a, b, 1e-12);
      CHECK_CLOSE(ra, rb, 1e-12);
    }
  }
  CHECK(split == 3);  // the Stewart platform's, the 3-RRR's and the Watt six-bar's nodes
}
