// Factor-graph instant dynamics (issue 19) beside the recursive algorithms on the same inputs:
// factor_graph/<problem>_<order>/<model>, with <problem> inverse (every q̈ known: RNEA's job),
// forward (every τ known: ABA's) and hybrid (odd joints forward, as articula/hybrid), and the
// references factor_graph/reference_rnea|aba/<model>. Models: chain7 (iiwa14), the Puma 560
// sample, and the four-bar sample (forward dynamics with its loop). Each call builds the graph at
// the state (forward kinematics, factors) and eliminates it, as a solve from scratch must.
// Xie-Dellaert report, for the Puma 560 with GTSAM on a desktop CPU: inverse 11.0 µs (COLAMD),
// 26.6 µs (RNEA order); forward 11.2 µs (COLAMD), 25.5 (ABA order), 51.8 (CRBA order).
#include <benchmark/benchmark.h>

#include "bench/bench_models.hpp"
#include "core/algorithms/aba.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/factor_graph/dynamics_graph.hpp"
#include "core/factor_graph/fixed_lag_forward.hpp"
#include "core/factor_graph/trajectory.hpp"
#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"

namespace articula::bench {

namespace {
struct FgCase {
  std::string name;
  const Model* model;
  const std::vector<LoopJoint>* loops;
  BenchInput in;
};

fg::InstantInput instant(const FgCase& c, int kind) {  // 0 inverse, 1 forward, 2 hybrid
  fg::InstantInput in;
  in.q = c.in.q, in.qd = c.in.qd, in.qdd = c.in.qdd, in.tau = c.in.tau;
  in.qdd_given.assign(c.model->nb + 1, kind == 0);
  if (kind == 2)
    for (int i = 1; i <= c.model->nb; ++i) in.qdd_given[i] = !c.in.fd[i];
  return in;
}

void run_graph(benchmark::State& s, const FgCase& c, int kind, fg::EliminationOrder order) {
  Data data(*c.model);
  const fg::InstantInput in = instant(c, kind);
  for (auto _ : s) {
    fg::InstantDynamicsGraph g(*c.model, *c.loops, data, in);
    const fg::InstantResult r = g.solve(order);
    benchmark::DoNotOptimize(r.qdd.data());
    benchmark::DoNotOptimize(r.tau.data());
  }
}

// The fixed-lag forward simulation (Blanco-Claraco §7.1) on the paper's four-bar, 200 steps of
// 1 ms per iteration: counter step_s is the time per step (the paper's Table 1: 1.4 ms at Nw = 2,
// 3.2 ms at Nw = 10, one i7-8700 thread), beside Articula's RK4 step on the same mechanism.
void register_fixed_lag() {
  static const Mechanism m = prepare(
      load_project(ARTICULA_SOURCE_DIR "/tests/data/factor_graph/paper_fourbar_free.json").spec);
  constexpr int kSteps = 200;
  auto per_step = [](benchmark::State& s) {
    s.counters["step_s"] = benchmark::Counter(
        kSteps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  };
  for (int window : {1, 2, 5, 10})
    benchmark::RegisterBenchmark(
        ("factor_graph/fixed_lag_Nw" + std::to_string(window) + "/paper_fourbar").c_str(),
        [window, per_step](benchmark::State& s) {
          fg::FixedLagOptions opt;
          opt.window = window, opt.duration = kSteps * opt.step;
          for (auto _ : s) benchmark::DoNotOptimize(fg::fixed_lag_forward(m, opt).q.data());
          per_step(s);
        });
  benchmark::RegisterBenchmark("factor_graph/fixed_lag_reference_rk4/paper_fourbar",
                               [per_step](benchmark::State& s) {
                                 for (auto _ : s) {
                                   Simulation sim(m);
                                   for (int k = 0; k < kSteps; ++k) sim.step(1e-3, Integrator::RK4);
                                   benchmark::DoNotOptimize(sim.q().data());
                                 }
                                 per_step(s);
                               });
}
// Trajectory inverse dynamics (Blanco-Claraco §7.2) on the paper's four-bar: the crank follows
// θ(t) = 0.5 (1 - cos πt) for 2 s, sampled every 1 ms (2,000 steps, as the bench asks);
// each iteration smooths the samples and solves every step's forces. Counter step_s per step,
// beside Articula's exact inverse dynamics: the simulator with the same law as a motion drive
// (RK4 at 1 ms, the drive torque evaluated at each step). The paper's Table 3: 5.3 s for the
// 2,000 points of its four-bar.
void register_trajectory_inverse() {
  static const Mechanism m = [] {
    MechanismSpec s =
        load_project(ARTICULA_SOURCE_DIR "/tests/data/factor_graph/paper_fourbar_free.json").spec;
    s.joints[0].drive =
        DriveSpec{DriveSpec::Kind::Motion, "0.5*(1-cos(pi*t))", nullptr, nlohmann::json::object()};
    return prepare(s);
  }();
  constexpr int kSteps = 2000;
  constexpr double kStep = 1e-3;
  static const MatX samples = [] {
    MatX z(kSteps + 1, 1);
    for (int k = 0; k <= kSteps; ++k) z(k, 0) = 0.5 * (1 - std::cos(M_PI * k * kStep));
    return z;
  }();
  auto per_step = [](benchmark::State& s) {
    s.counters["step_s"] = benchmark::Counter(
        kSteps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  };
  benchmark::RegisterBenchmark(
      "factor_graph/trajectory_inverse_2000/paper_fourbar_driven", [per_step](benchmark::State& s) {
        fg::SmootherOptions opt;
        opt.zd0 = 0.0, opt.zdd0 = 0.5 * M_PI * M_PI;  // as tests/factor_graph
        opt.sigma_jerk = 3e3;
        for (auto _ : s) {
          const fg::TrajectoryInverseResult r =
              fg::trajectory_inverse_dynamics(m, samples, kStep, opt);
          benchmark::DoNotOptimize(r.force.data());
        }
        per_step(s);
      });
  benchmark::RegisterBenchmark("factor_graph/trajectory_inverse_reference_rk4/paper_fourbar_driven",
                               [per_step](benchmark::State& s) {
                                 for (auto _ : s) {
                                   Simulation sim(m);
                                   for (int k = 0; k < kSteps; ++k) {
                                     sim.step(kStep, Integrator::RK4);
                                     sim.evaluate();
                                     benchmark::DoNotOptimize(sim.tau().data());
                                   }
                                 }
                                 per_step(s);
                               });
}
}  // namespace

void register_factor_graph(const std::vector<BenchMechanism>& models) {
  static std::vector<FgCase> cases;
  static std::unique_ptr<Mechanism> puma;
  static const std::vector<LoopJoint> no_loops;
  puma = std::make_unique<Mechanism>(
      prepare(load_project(ARTICULA_SOURCE_DIR "/samples/puma560.json").spec));
  cases.push_back({"puma560", &puma->model(), &no_loops, make_input(puma->model())});
  for (const BenchMechanism& bm : models)
    if (bm.name == "chain7" || bm.name == "fourbar")
      cases.push_back({bm.name, &bm.model(), &bm.loops(), make_mechanism_input(bm)});
  register_fixed_lag();
  register_trajectory_inverse();
  const char* const problems[] = {"inverse", "forward", "hybrid"};
  for (const FgCase& c : cases) {
    const bool tree = c.loops->empty();
    for (int kind = tree ? 0 : 1; kind < (tree ? 3 : 2); ++kind)
      for (fg::EliminationOrder o : fg::kAllOrders) {
        const std::string name =
            std::string("factor_graph/") + problems[kind] + "_" + fg::order_name(o) + "/" + c.name;
        benchmark::RegisterBenchmark(
            name.c_str(), [&c, kind, o](benchmark::State& s) { run_graph(s, c, kind, o); });
      }
    if (!tree) continue;
    benchmark::RegisterBenchmark(
        ("factor_graph/reference_rnea/" + c.name).c_str(), [&c](benchmark::State& s) {
          Data d(*c.model);
          for (auto _ : s)
            benchmark::DoNotOptimize(rnea(*c.model, d, c.in.q, c.in.qd, c.in.qdd).data());
        });
    benchmark::RegisterBenchmark(
        ("factor_graph/reference_aba/" + c.name).c_str(), [&c](benchmark::State& s) {
          Data d(*c.model);
          for (auto _ : s)
            benchmark::DoNotOptimize(aba(*c.model, d, c.in.q, c.in.qd, c.in.tau).data());
        });
  }
}

}  // namespace articula::bench
