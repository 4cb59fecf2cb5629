// The spatial-operator-algebra solver (`--solver operator`) against RBDA 8.5 Method 2, an
// independent solve of the same rows through CRBA and the L^T D L factor of H: q̈ to 1e-9
// relative and the constraint forces G^T μ to 1e-8 at random states (loops slightly open,
// random velocities and forces, Baumgarte terms on) on every sample it applies to, with its
// drives, and on the RBDA Fig. 8.4 ladder; the multipliers themselves to 1e-8 where the rows are
// independent. Redundant loops (the planar four-bar's spatial rows, Bennett) give the same
// rank as Method 2. Trajectories over 1 s and the dead-point diagnosis: tests/sim/test_solvers.cpp.
#include <filesystem>
#include <random>
#include <stdexcept>

#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/solvers/operator_solver.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
constexpr double kAlpha = 20.0;  // the simulator's default Baumgarte gains (T_stab = 0.05 s)

// One solver with its own workspace and constraint set.
struct Bench {
  Data data;
  ConstraintSet constraints;
  SolverEnv env;
  std::unique_ptr<DynamicsSolver> solver;
  Bench(const Mechanism& m, SolverChoice c)
      : data(m.model()),
        constraints(m, m.drives),
        env{m, data, constraints, m.drives, kAlpha},
        solver(make_solver(env, c, false, false)) {}
};

// Returns the number of states compared with independent rows (μ checked directly).
int compare(const Mechanism& m, int states, unsigned seed) {
  const Model& model = m.model();
  Bench op(m, SolverChoice::Operator), m2(m, SolverChoice::Method2);
  REQUIRE(std::string(op.solver->name()) == "operator");
  std::mt19937 rng(seed);
  int independent = 0;
  for (int s = 0; s < states; ++s) {
    VecX q = m.q0;
    integrate_in_place(model, q, test::random_vector(model.nv, rng), 0.05);
    const VecX qd = test::random_vector(model.nv, rng), tau = test::random_vector(model.nv, rng);
    const SolverInput in{0.3 * s, q, qd, tau};
    const VecX qdd = op.solver->accelerations(in);
    const VecX& expected = m2.solver->accelerations(in);
    INFO(m.spec.name << " state " << s);
    CHECK_CLOSE(qdd, expected, 1e-9);
    const VecX& mu = op.solver->multipliers();
    const VecX& mu2 = m2.solver->multipliers();
    const MatX& G = m2.constraints.G();
    CHECK_CLOSE(G.transpose() * mu, G.transpose() * mu2, 1e-8);  // unique even when redundant
    CHECK(op.solver->rank() == m2.solver->rank());
    if (m2.solver->rank() == static_cast<int>(G.rows())) {
      CHECK_CLOSE(mu, mu2, 1e-8);
      ++independent;
    }
  }
  return independent;
}
}  // namespace

TEST_CASE("operator solver: q̈ and constraint forces equal Method 2's on every sample",
          "[sim][operator]") {
  int compared = 0, independent = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples")) {
    if (e.path().extension() != ".json") continue;
    const Mechanism m = prepare(load_project(e.path().string()).spec);
    if (!ConstraintSet(m, m.drives).operator_capable()) continue;
    INFO(e.path().filename().string());
    independent += compare(m, 5, 11);
    ++compared;
  }
  CHECK(compared >= 15);
  CHECK(independent >= 20);
  for (int k : {5, 20}) {
    INFO("ladder" << k);
    compare(prepare(make_ladder(k)), 5, 3);
  }
}

TEST_CASE("operator solver on the hanging ladder (issue 17's scale family)", "[sim][operator]") {
  // make_hanging_ladder(450, 100) is the bench's 1,000-body, 100-loop mechanism; the small member
  // (100 bodies, 10 loops) checks the family's shape and the solver against Method 2 here.
  const Mechanism m = prepare(make_hanging_ladder(45, 10));
  CHECK(m.spec.bodies.size() == 100);
  CHECK(m.compiled.loops.size() == 10);
  CHECK(m.mobility.mobility == 2 * 45 - 10);  // each rung closes a planar loop: 2 rows
  Simulation sim(m);
  sim.evaluate();
  CHECK(sim.loop_error() < 1e-12);  // built closed: every rung's hinge at its rail tip
  compare(m, 3, 5);
  CHECK(prepare(make_hanging_ladder(450, 100)).spec.bodies.size() == 1000);
  CHECK_THROWS_AS(make_hanging_ladder(10, 11), std::invalid_argument);
  CHECK_THROWS_AS(make_hanging_ladder(0, 0), std::invalid_argument);
}

TEST_CASE("operator solver on the hanging net (issue 17's truss family)", "[sim][operator]") {
  // make_hanging_net(10, 90, 10) is the bench's 990-body, 90-loop truss; a small one (4 rails of
  // 12 links, 3 rungs between each pair: 57 bodies, 9 loops) checks the family's shape and the
  // solver against Method 2 here (q̈ and forces at random states, compare's 1e-9 and 1e-8).
  const Mechanism m = prepare(make_hanging_net(4, 12, 3));
  CHECK(m.spec.bodies.size() == 4 * 12 + 3 * 3);
  CHECK(m.compiled.loops.size() == 9);
  CHECK(m.mobility.mobility == 4 * 12 - 9);  // each rung: its own 1 DoF, a planar loop of 2 rows
  Simulation sim(m);
  sim.evaluate();
  CHECK(sim.loop_error() < 1e-12);  // built closed: every rung's hinge at its rail tip
  compare(m, 3, 5);
  const Mechanism big = prepare(make_hanging_net(10, 90, 10));
  CHECK(big.spec.bodies.size() == 990);
  CHECK(big.compiled.loops.size() == 90);
  CHECK_THROWS_AS(make_hanging_net(1, 10, 2), std::invalid_argument);
  CHECK_THROWS_AS(make_hanging_net(3, 10, 11), std::invalid_argument);
}

TEST_CASE("operator solver: redundant loops keep Method 2's rank", "[sim][operator]") {
  // The four-bar's five spatial rows per revolute loop joint: three are dependent in the plane.
  const Mechanism fourbar = prepare(load_project(test::sample_path("fourbar.json")).spec);
  REQUIRE(fourbar.mobility.redundant > 0);
  CHECK(compare(fourbar, 4, 5) == 0);
  const Mechanism bennett = prepare(make_bennett({}));
  REQUIRE(bennett.mobility.redundant > 0);
  CHECK(compare(bennett, 4, 6) == 0);
}

TEST_CASE("operator solver: reported joint forces are Method 2's minimum-norm ones",
          "[sim][operator]") {
  // Where the operator solver's rows are independent (the rows it leaves out structurally zero)
  // the simulation reports its multipliers instead of running Method 2 again (simulation.cpp,
  // reporting_evaluation); where they are not (Bennett's spatial redundancy) Method 2 still
  // reports. Either way the wrenches and generalized forces must be Method 2's: 1e-8 relative to
  // the largest wrench (two factorisations of the same equations, round-off ~1e-12 of it).
  const std::vector<Mechanism> mechanisms{
      prepare(make_hanging_ladder(45, 10)),
      prepare(load_project(test::sample_path("fourbar.json")).spec), prepare(make_bennett({}))};
  for (const Mechanism& m : mechanisms) {
    INFO(m.spec.name);
    SimulationOptions o;
    o.solver = SolverChoice::Operator;
    Simulation op(m, o);
    o.solver = SolverChoice::Method2;
    Simulation m2(m, o);
    for (int k = 0; k < 20; ++k) op.step(1e-3, Integrator::RK4);
    m2.restore(op.time(), op.q(), op.qd(), 0.0, 0.0);
    op.evaluate();
    m2.evaluate();
    double scale = 1.0;
    for (const Force& w : m2.wrench()) scale = std::max(scale, w.norm());
    REQUIRE(op.wrench().size() == m2.wrench().size());
    for (std::size_t j = 0; j < op.wrench().size(); ++j) {
      INFO("joint " << m.spec.joints[j].name);
      CHECK((op.wrench()[j] - m2.wrench()[j]).norm() < 1e-8 * scale);
    }
    CHECK_CLOSE(op.tau(), m2.tau(), 1e-8);
    CHECK_CLOSE(op.qdd(), m2.qdd(), 1e-9);
  }
}
