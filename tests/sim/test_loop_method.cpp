// The simulator's choice of loop method (core/sim/loop_method.hpp): the same mechanism simulated
// with RBDA 8.13's sparse-matrix method forced and with Method 2 forced follows the same
// trajectory (1e-9 relative after 0.2 s of RK4), with the same drive work (actuator forces from
// the multipliers) and the same reported joint forces: every closed-loop sample the method
// applies to, with its motion drives (tree and loop joints), springs and spring-dampers.
#include <filesystem>
#include <utility>

#include "core/io/project.hpp"
#include "core/sim/loop_method.hpp"
#include "core/sim/simulation.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
struct Run {
  VecX q, qd, qdd;
  double work = 0.0;
  std::vector<Force> wrench;
};
Run simulate(const Mechanism& m, int steps, Integrator integrator) {
  Simulation sim(m);
  for (int k = 0; k < steps; ++k) sim.step(1e-3, integrator);
  sim.evaluate();
  return {sim.q(), sim.qd(), sim.qdd(), sim.energy().work, sim.wrench()};
}
void check_same(const Mechanism& m) {
  Mechanism sparse = m, method2 = m;
  sparse.sparse = sparse_dynamics_model(m);
  method2.sparse = nullptr;
  REQUIRE(sparse.sparse);
  for (Integrator integrator : {Integrator::RK4, Integrator::Euler}) {
    const Run a = simulate(sparse, 200, integrator), b = simulate(method2, 200, integrator);
    INFO(m.spec.name << (integrator == Integrator::RK4 ? " rk4" : " euler"));
    CHECK_CLOSE(a.q, b.q, 1e-9);
    CHECK_CLOSE(a.qd, b.qd, 1e-9);
    CHECK_CLOSE(a.qdd, b.qdd, 1e-8);
    CHECK(std::abs(a.work - b.work) <= 1e-9 * std::max(1.0, std::abs(b.work)));
    for (std::size_t j = 0; j < a.wrench.size(); ++j) CHECK_CLOSE(a.wrench[j], b.wrench[j], 1e-7);
  }
}
}  // namespace

TEST_CASE("Simulation with the sparse-matrix method follows Method 2", "[sparse]") {
  int compared = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples")) {
    if (e.path().extension() != ".json") continue;
    const Mechanism m = prepare(load_project(e.path().string()).spec);
    if (!m.has_loops() || !sparse_dynamics_model(m)) continue;
    check_same(m);
    ++compared;
  }
  CHECK(compared >= 6);
  check_same(prepare(make_ladder(5)));
}

TEST_CASE("The loop method is chosen at prepare time by predicted cost", "[sparse]") {
  // The long ladder goes to the sparse method. The four-bar and the Stewart platform stay with
  // Method 2, as measured (interleaved runs, 2026-11-22: four-bar 0.91 against 1.18 us, Stewart
  // 9.4 against 13.9 us); the Bennett linkage (redundant spatial loop) cannot use it.
  CHECK(prepare(make_ladder(80)).sparse);
  for (const char* file : {"fourbar.json", "stewart_platform.json", "bennett.json"})
    CHECK_FALSE(prepare(load_project(test::sample_path(file)).spec).sparse);
  CHECK_FALSE(sparse_dynamics_model(prepare(load_project(test::sample_path("bennett.json")).spec)));
  CHECK_FALSE(prepare(load_project(test::sample_path("double_pendulum.json")).spec).sparse);
}

TEST_CASE("auto keeps the sparse method on issue 17's hanging ladders", "[sparse]") {
  // CPU s per simulated second (RK4, 1 ms, 2026-11-28, load ~8), since the Euclidean
  // projection's J Jᵀ reads J's rows contiguously (lower_gram): sparse 0.138 / 3.68 / 69.6 s at
  // 100 / 500 / 1,000 bodies (0.149 / 7.83 / 243 before), the operator solver 0.239 / 11.1 /
  // 90.2 s (bench README, an earlier run at load 7-10). The sparse method is the cheapest at
  // every size, and auto picks it.
  for (const auto& [links, rungs] : {std::pair{45, 10}, std::pair{225, 50}, std::pair{450, 100}}) {
    INFO(links << " links, " << rungs << " rungs");
    const Mechanism m = prepare(make_hanging_ladder(links, rungs));
    CHECK(m.sparse);
    CHECK(std::string(Simulation(m).solver_name()) == "sparse");
  }
}

TEST_CASE("auto picks the embedding solver where its predicted step is cheapest", "[embedding]") {
  // Bench, simulated second at 1 ms (README "Constraint embedding"): on 80 four-bar modules the
  // embedding is several times faster than the best other solver with either integrator (the
  // others' projection grows as rows² n); on 20 modules it is with Euler (one evaluation and one
  // position solve a step against the others' evaluation and projection: 2.6x the sparse
  // method) but not clearly with RK4 (four of each: 1.05x, inside auto's margin); on every sample
  // another solver is faster with either integrator, and auto keeps the choice it made before
  // the embedding entered it.
  auto solver = [](const Mechanism& m, Integrator integrator) {
    SimulationOptions options;
    options.integrator = integrator;
    return std::string(Simulation(m, options).solver_name());
  };
  const Mechanism chain80 = prepare(make_fourbar_chain(80));
  const Mechanism chain20 = prepare(make_fourbar_chain(20));
  for (Integrator integrator : {Integrator::RK4, Integrator::Euler, Integrator::RK45})
    CHECK(solver(chain80, integrator) == "embedding");
  CHECK(solver(chain20, Integrator::RK4) == "sparse");
  CHECK(solver(chain20, Integrator::Euler) == "embedding");
  CHECK(std::string(Simulation(chain20).solver_name()) == "sparse");  // RK4 unless told
  CHECK(prefer_embedding(chain80, constraint_rows(chain80.compiled.loops), 2 * 80));
  int samples = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples")) {
    if (e.path().extension() != ".json") continue;
    INFO(e.path().filename().string());
    const Mechanism m = prepare(load_project(e.path().string()).spec);
    if (!m.has_loops() && m.couplings.empty()) continue;
    for (Integrator integrator : {Integrator::RK4, Integrator::Euler, Integrator::RK45})
      CHECK(solver(m, integrator) != "embedding");
    ++samples;
  }
  CHECK(samples >= 15);
}
