// The dynamics solvers behind one interface (contract-additions-2 §3): every solver that applies
// to a sample (Method 2 in spatial and in planar vectors, RBDA 8.13's sparse method, the spatial
// operator algebra's solver) follows the same trajectory over 1 s of RK4 (1e-9 relative) with the
// same joint forces; forcing a solver where it does not apply says why.
#include <filesystem>

#include "core/io/project.hpp"
#include "core/sim/loop_method.hpp"
#include "core/sim/simulation.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
struct Run {
  std::string solver;
  VecX q, qd, qdd, tau;
  std::vector<Force> wrench;
  double work = 0.0;
};

Run run(const Mechanism& m, SolverChoice choice, bool planar, double duration) {
  SimulationOptions o;
  o.solver = choice;
  o.planar_algebra = planar;
  Simulation sim(m, o);
  const int steps = static_cast<int>(duration / 1e-3 + 0.5);
  for (int k = 0; k < steps; ++k) sim.step(1e-3, Integrator::RK4);
  sim.evaluate();
  return {sim.solver_name(), sim.q(),      sim.qd(),         sim.qdd(),
          sim.tau(),         sim.wrench(), sim.energy().work};
}

void check_same(const Run& a, const Run& b) {
  INFO(a.solver << " against " << b.solver);
  CHECK(a.solver != b.solver);
  CHECK_CLOSE(a.q, b.q, 1e-9);
  CHECK_CLOSE(a.qd, b.qd, 1e-9);
  CHECK_CLOSE(a.qdd, b.qdd, 1e-8);
  CHECK_CLOSE(a.tau, b.tau, 1e-8);
  for (std::size_t j = 0; j < a.wrench.size(); ++j) CHECK_CLOSE(a.wrench[j], b.wrench[j], 1e-8);
  CHECK(std::abs(a.work - b.work) <= 1e-9 * std::max(1.0, std::abs(b.work)));
}
}  // namespace

TEST_CASE("Every solver that applies follows the same trajectory on every sample",
          "[sim][solvers]") {
  int planar = 0, sparse = 0, operators = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples")) {
    if (e.path().extension() != ".json") continue;
    const Mechanism m = prepare(load_project(e.path().string()).spec);
    // Contacts: only Method 2 takes their rows; the walker's events are tested in test_contacts.
    if (!m.has_loops() || !m.spec.contacts.empty()) continue;
    INFO(e.path().filename().string());
    const Run reference = run(m, SolverChoice::Method2, false, 1.0);
    CHECK(reference.solver == "method2");
    if (m.planar_dynamics) {
      const Run p = run(m, SolverChoice::Method2, true, 1.0);
      if (p.solver == "method2-planar") check_same(p, reference), ++planar;
    }
    if (sparse_dynamics_model(m) && m.couplings.empty())  // RBDA 8.13 has no coupling rows
      check_same(run(m, SolverChoice::Sparse, false, 1.0), reference), ++sparse;
    if (ConstraintSet(m, m.drives).operator_capable())  // no limits or contacts
      check_same(run(m, SolverChoice::Operator, false, 1.0), reference), ++operators;
  }
  CHECK(planar >= 3);
  CHECK(sparse >= 5);
  CHECK(operators >= 15);
  // RBDA Fig. 8.4's ladder swinging freely is chaotic: round-off grows 1e8-fold in 1 s, so it
  // is compared over 0.2 s (as tests/sim/test_loop_method.cpp does).
  const Mechanism ladder = prepare(make_ladder(5));
  INFO("ladder5");
  const Run ladder_m2 = run(ladder, SolverChoice::Method2, false, 0.2);
  check_same(run(ladder, SolverChoice::Sparse, false, 0.2), ladder_m2);
  check_same(run(ladder, SolverChoice::Operator, false, 0.2), ladder_m2);
}

TEST_CASE("A forced solver that does not apply is refused with the reason", "[sim][solvers]") {
  const Mechanism pendulum = prepare(load_project(test::sample_path("pendulum.json")).spec);
  SimulationOptions o;
  o.solver = SolverChoice::Sparse;
  REQUIRE_THROWS_WITH(Simulation(pendulum, o), Catch::Contains("no loops"));
  o.solver = SolverChoice::Operator;  // limits and contacts have no body-level rows in it yet
  const Mechanism door = prepare(load_project(test::sample_path("door_stop.json")).spec);
  REQUIRE_THROWS_WITH(Simulation(door, o), Catch::Contains("operator") &&
                                               Catch::Contains("does not apply") &&
                                               Catch::Contains("limits"));
  // The sparse method on loops with contacts names the contacts, not couplings it does not have.
  o.solver = SolverChoice::Sparse;
  const Mechanism walker = prepare(load_project(test::sample_path("strandbeest_walker.json")).spec);
  REQUIRE_THROWS_WITH(Simulation(walker, o), Catch::Contains("sparse") &&
                                                 Catch::Contains("limits, contacts") &&
                                                 !Catch::Contains("couplings"));
  // Constraint embedding: not with limits and contacts, nor where the loops leave a spherical
  // joint's spin free (the RSSR's coupler turns about its axis).
  o.solver = SolverChoice::Embedding;
  const Mechanism ball = prepare(load_project(test::sample_path("bouncing_ball.json")).spec);
  REQUIRE_THROWS_WITH(Simulation(ball, o), Catch::Contains("limits, contacts"));
  const Mechanism rssr = prepare(load_project(test::sample_path("rssr.json")).spec);
  REQUIRE_THROWS_WITH(Simulation(rssr, o), Catch::Contains("spherical"));
  o.solver = SolverChoice::Method2;  // a tree: Method 2 with no rows is the LTDL solve
  Simulation sim(pendulum, o);
  Simulation tree(pendulum);
  for (int k = 0; k < 200; ++k) sim.step(1e-3, Integrator::RK4), tree.step(1e-3, Integrator::RK4);
  CHECK(std::string(tree.solver_name()) == "tree");
  CHECK_CLOSE(sim.q(), tree.q(), 1e-12);
  CHECK_THROWS_AS(solver_from_name("fast"), std::invalid_argument);
  CHECK(solver_from_name("sparse") == SolverChoice::Sparse);
}
