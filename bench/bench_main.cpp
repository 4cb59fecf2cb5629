// articula-bench: time per call of Articula's dynamics algorithms and, when MuJoCo and Simbody
// are installed, of the same operations on the same models in those engines. Benchmarks are
// named <engine>/<operation>/<model> (engine articula, mujoco or simbody). Accepts every Google
// Benchmark flag, e.g. --benchmark_format=json, --benchmark_filter=articula/aba/.*,
// --benchmark_repetitions=5. scripts/bench-report turns a run into the README's table and plot.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_models.hpp"
#include "bench/peer_contact_gate.hpp"
#include "core/algorithms/aba.hpp"
#include "core/algorithms/closed_loop_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/hybrid_dynamics.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/planar_dynamics.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/algorithms/sparse_dynamics.hpp"
#include "core/sim/simulation.hpp"

namespace articula::bench {
void register_factor_graph(const std::vector<BenchMechanism>& models);  // bench_factor_graph.cpp
void register_estimation();                                             // bench_estimation.cpp
namespace {

// The Baumgarte gains of a default simulation (SimulationOptions::stabilization_time).
constexpr double kBaumgarte = 1.0 / 0.05;

// Keeps a result alive so the call that produced it cannot be elided.
void keep(const VecX& x) {
  benchmark::DoNotOptimize(x.data());
  benchmark::ClobberMemory();
}
void keep(const MatX& x) {
  benchmark::DoNotOptimize(x.data());
  benchmark::ClobberMemory();
}

// rhs = tau - C(q, qd): solving H x = rhs gives the forward dynamics, as ABA does.
VecX crba_rhs(const Model& m, const BenchInput& in) {
  Data d(m);
  return in.tau - nonlinear_effects(m, d, in.q, in.qd);
}

struct Case {
  const BenchMechanism* bm;
  const BenchInput* in;
  bool tree() const { return bm->loops().empty(); }
  // One simulated second: the 7-DoF arm and the sample mechanisms. The long chains and the tree
  // of light 0.1 m rods at random speeds are too stiff for explicit Euler at 1 ms.
  bool simulate() const {
    for (const char* name : {"chain7", "fourbar", "slidercrank", "stewart", "fourbar_chain20"})
      if (bm->name == name) return true;
    return false;
  }
};

using OpFn = void (*)(benchmark::State&, const Case&);
struct Op {
  const char* name;
  bool trees_only, simulation;
  OpFn run;
};

// The solver a Simulation of this mechanism steps with: the same objects (constraint set and
// solver chosen by make_solver), not a copy of their dispatch.
struct SimulationSolver {
  explicit SimulationSolver(const Mechanism& m)
      : data(m.model()),
        constraints(m, m.drives),
        solver(make_solver({m, data, constraints, m.drives, kBaumgarte}, SolverChoice::Auto, true,
                           false)) {}
  Data data;
  ConstraintSet constraints;
  std::unique_ptr<DynamicsSolver> solver;
};

void run_forward(benchmark::State& s, const Case& c) {
  SimulationSolver sim(*c.bm->mech);
  const SolverInput in{0.0, c.in->q, c.in->qd, c.in->tau, nullptr};
  for (auto _ : s) keep(sim.solver->accelerations(in));
  s.SetLabel(sim.solver->name());
}

// One simulated second at 1 ms from the benchmark mechanism's assembled state; the counter
// loop_error is the largest loop-closure error at the end.
void run_sim(benchmark::State& s, const Case& c, Integrator integrator,
             SolverChoice solver = SolverChoice::Auto) {
  double err = 0;
  SimulationOptions options;
  options.solver = solver;
  options.integrator = integrator;
  try {
    for (auto _ : s) {
      s.PauseTiming();
      Simulation sim(*c.bm->mech, options);
      s.ResumeTiming();
      for (int k = 0; k < 1000; ++k) sim.step(1e-3, integrator);
      keep(sim.q());
      s.PauseTiming();
      sim.evaluate();
      err = sim.loop_error();
      s.ResumeTiming();
    }
  } catch (const std::exception& e) {  // a diverging simulation is reported, not timed
    s.SkipWithError(e.what());
    return;
  }
  s.counters["loop_error"] = err;
}

const Op kOps[] = {
    {"rnea", true, false,
     [](benchmark::State& s, const Case& c) {
       Data d(c.bm->model());
       for (auto _ : s) keep(rnea(c.bm->model(), d, c.in->q, c.in->qd, c.in->qdd));
     }},
    {"inverse", true, false,  // trees: inverse dynamics is the RNEA
     [](benchmark::State& s, const Case& c) {
       Data d(c.bm->model());
       for (auto _ : s) keep(rnea(c.bm->model(), d, c.in->q, c.in->qd, c.in->qdd));
     }},
    {"crba", true, false,
     [](benchmark::State& s, const Case& c) {
       Data d(c.bm->model());
       for (auto _ : s) keep(crba(c.bm->model(), d, c.in->q));
     }},
    {"crba_ltdl", true, false,
     [](benchmark::State& s, const Case& c) {
       const Model& m = c.bm->model();
       Data d(m);
       const VecX rhs = crba_rhs(m, *c.in);
       VecX x = rhs;
       for (auto _ : s) {
         crba(m, d, c.in->q);
         ltdl_factor(m, d);
         x = rhs;  // same size: no allocation
         ltdl_solve(m, d, x);
         keep(x);
       }
     }},
    {"aba", true, false,
     [](benchmark::State& s, const Case& c) {
       Data d(c.bm->model());
       for (auto _ : s) keep(aba(c.bm->model(), d, c.in->q, c.in->qd, c.in->tau));
     }},
    {"hybrid", true, false,
     [](benchmark::State& s, const Case& c) {
       Data d(c.bm->model());
       for (auto _ : s) {
         hybrid_dynamics(c.bm->model(), d, c.in->q, c.in->qd, c.in->qdd, c.in->tau, c.in->fd);
         keep(d.qdd);
         keep(d.tau);
       }
     }},
    {"forward", false, false, run_forward},
    {"sim1s_rk4", false, true,
     [](benchmark::State& s, const Case& c) { run_sim(s, c, Integrator::RK4); }},
    {"sim1s_euler", false, true,
     [](benchmark::State& s, const Case& c) { run_sim(s, c, Integrator::Euler); }},
};

// Cross-checks the benchmarked operations on the benchmark inputs (relative errors): a wrong
// model or a broken algorithm should not produce a timing table.
double tree_error(const Model& m, const BenchInput& in) {
  Data d(m), e(m);
  auto rel = [](const VecX& a, const VecX& b) { return (a - b).norm() / std::max(1.0, b.norm()); };
  double err = 0;
  const VecX qdd = aba(m, d, in.q, in.qd, in.tau);
  err = std::max(err, rel(rnea(m, e, in.q, in.qd, qdd), in.tau));  // rnea ∘ aba = id
  crba(m, d, in.q);
  err = std::max(err, rel(d.H * qdd, crba_rhs(m, in)));  // H aba = tau - C
  VecX x = crba_rhs(m, in);
  if (!ltdl_factor(m, d)) return 1.0;
  ltdl_solve(m, d, x);
  err = std::max(err, rel(x, qdd));  // H^-1 (tau - C) = aba
  hybrid_dynamics(m, d, in.q, in.qd, in.qdd, in.tau, in.fd);
  err = std::max(err, rel(rnea(m, e, in.q, in.qd, d.qdd), d.tau));
  for (int i = 1; i <= m.nb; ++i) {  // given components are kept
    const int v = m.v_index[i];
    err = std::max(err, std::abs(in.fd[i] ? d.tau[v] - in.tau[v] : d.qdd[v] - in.qdd[v]));
  }
  return err;
}

// Closed loops: the loops are closed at the benchmark state, K q̈ = k holds and
// H q̈ + C - τ = K^T μ (the constraint forces do no work on admissible motions).
double loop_error(const BenchMechanism& bm, const BenchInput& in) {
  const Model& m = bm.model();
  Data d(m);
  ClosedLoopWork w;
  if (!closed_loop_forward_dynamics(m, d, bm.loops(), in.q, in.qd, in.tau, kBaumgarte, kBaumgarte,
                                    w))
    return 1.0;
  const VecX qdd = d.qdd;
  double err = w.delta.cwiseAbs().maxCoeff();
  err = std::max(
      err, (w.K * qdd - w.k).cwiseAbs().maxCoeff() / std::max(1.0, w.k.cwiseAbs().maxCoeff()));
  const VecX residual = d.H * qdd + d.C - in.tau - w.K.transpose() * w.cd.mu;
  err = std::max(err, residual.cwiseAbs().maxCoeff() / std::max(1.0, in.tau.cwiseAbs().maxCoeff()));
  SimulationSolver sim(*bm.mech);  // the timed solver agrees with the reference above
  const VecX timed = sim.solver->accelerations({0.0, in.q, in.qd, in.tau, nullptr});
  err = std::max(err, (timed - qdd).norm() / std::max(1.0, qdd.norm()));
  return err;
}

// The simulated second with each closed-loop solver forced, beside auto's choice, on the
// samples and the four-bar chains: articula/sim1s_{rk4,euler}_<solver>/<model>, registered only
// where the solver applies (its constructor accepts the mechanism). fourbar_chain80 (how the
// costs grow with the number of loops) is timed here only, auto's choice included.
void register_solver(const Case& c, SolverChoice solver) {
  SimulationOptions options;
  options.solver = solver;
  try {
    Simulation probe(*c.bm->mech, options);
  } catch (const std::exception&) {
    return;  // does not apply (e.g. the sparse method with couplings)
  }
  const std::pair<const char*, Integrator> integrators[] = {{"rk4", Integrator::RK4},
                                                            {"euler", Integrator::Euler}};
  for (const auto& [iname, integrator] : integrators) {
    const std::string suffix =
        solver == SolverChoice::Auto ? "" : std::string("_") + solver_name(solver);
    const std::string name = std::string("articula/sim1s_") + iname + suffix + "/" + c.bm->name;
    benchmark::RegisterBenchmark(name.c_str(), [c, integrator, solver](benchmark::State& s) {
      run_sim(s, c, integrator, solver);
    })->Unit(benchmark::kMillisecond);
  }
}

void register_solver_comparison(const std::vector<BenchMechanism>& models,
                                const std::vector<BenchInput>& inputs) {
  const SolverChoice solvers[] = {SolverChoice::Method2, SolverChoice::Sparse,
                                  SolverChoice::Operator, SolverChoice::Embedding};
  for (std::size_t k = 0; k < models.size(); ++k) {
    const Case c{&models[k], &inputs[k]};
    if (c.tree() || !c.simulate()) continue;
    for (SolverChoice solver : solvers) register_solver(c, solver);
  }
  static const BenchMechanism chain80 = fourbar_chain_mechanism(80);
  static const BenchInput input80 = make_mechanism_input(chain80);
  register_solver({&chain80, &input80}, SolverChoice::Auto);
  for (SolverChoice solver : solvers) register_solver({&chain80, &input80}, solver);
}

// Issue 17's scale families, one simulated second by the solvers that scale (Method 2 is dense:
// minutes per simulated second at 1,000 bodies), articula/sim1s_rk4_<solver>/<name><bodies>:
// hanging ladders of 100, 500 and 1,000 bodies (10, 50 and 100 loops; rails 45 to 450 deep) and
// hanging nets, rows of four-bar cells, of 96, 480, 990 and 1,990 bodies (16 to 190 loops; rails
// at most 90 deep). Built only when the filter names them (the largest take a while to prepare).
// MuJoCo runs the same models (mujoco/sim1s_*/<name><bodies>) where its XML reader takes their
// nesting: MuJoCo 2.2's tinyxml2 stops at 100 nested elements, and a loop needs MJCF's connect,
// so the flat URDF of the long chains cannot stand in. Of the ladders only the 100-body one
// loads; the nets were made shallow so that all of them do.
void register_family(std::vector<BenchMechanism>& family, std::vector<BenchInput>& inputs) {
  for (BenchMechanism& m : family) inputs.push_back(make_mechanism_input(m));
  for (std::size_t k = 0; k < family.size(); ++k)
    for (SolverChoice solver : {SolverChoice::Auto, SolverChoice::Operator, SolverChoice::Sparse,
                                SolverChoice::Embedding})
      register_solver({&family[k], &inputs[k]}, solver);
#ifdef ARTICULA_BENCH_MUJOCO
  static std::vector<std::vector<PeerModel>> peers;  // one each: a model MuJoCo refuses is left out
  peers.reserve(16);                                 // register_mujoco keeps pointers to them
  for (std::size_t k = 0; k < family.size(); ++k) {
    peers.push_back({peer_model(family[k], inputs[k])});
    peers.back()[0].simulate = true;
    if (!register_mujoco(peers.back()))
      std::fprintf(stderr, "articula-bench: no mujoco/ benchmarks of %s\n", family[k].name.c_str());
  }
#endif
}

void register_scale_family(const std::string& filter) {
  static std::vector<BenchMechanism> ladders, nets;
  static std::vector<BenchInput> ladder_inputs, net_inputs;
  const bool any = filter.find("hanging") != std::string::npos;  // both unless one is named
  if (any && filter.find("hanging_net") == std::string::npos) {
    for (auto [links, rungs] : {std::pair{45, 10}, std::pair{225, 50}, std::pair{450, 100}})
      ladders.push_back(hanging_ladder_mechanism(links, rungs));
    register_family(ladders, ladder_inputs);
  }
  if (any && filter.find("hanging_ladder") == std::string::npos) {
    for (auto [rails, links, rungs] : {std::tuple{5, 16, 4}, std::tuple{5, 80, 20},
                                       std::tuple{10, 90, 10}, std::tuple{20, 90, 10}})
      nets.push_back(hanging_net_mechanism(rails, links, rungs));
    register_family(nets, net_inputs);
  }
}

// The filter (read before benchmark::Initialize consumes the flags), and --contact-gate (issue
// 16's Simbody gate, seconds of Simbody's stepper) taken out of argv.
std::string take_own_arguments(int& argc, char** argv, bool& contact_gate) {
  std::string filter;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).rfind("--benchmark_filter=", 0) == 0) filter = argv[i];
    if (std::string(argv[i]) == "--contact-gate")
      contact_gate = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  return filter;
}

}  // namespace
}  // namespace articula::bench

int main(int argc, char** argv) {
  using namespace articula::bench;
  bool contact_gate = false;
  const std::string filter = take_own_arguments(argc, argv, contact_gate);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  static std::vector<BenchMechanism> models;
  static std::vector<BenchInput> inputs;
  try {
    models = benchmark_mechanisms(ARTICULA_SOURCE_DIR "/samples");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "articula-bench: cannot build the benchmark models: %s\n", e.what());
    return 1;
  }
  std::vector<PeerModel> peers;
  for (const BenchMechanism& bm : models) {
    inputs.push_back(make_mechanism_input(bm));
    const double err =
        bm.loops().empty() ? tree_error(bm.model(), inputs.back()) : loop_error(bm, inputs.back());
    if (!(err < 1e-8)) {
      std::fprintf(stderr, "articula-bench: %s fails its consistency check (error %g)\n",
                   bm.name.c_str(), err);
      return 1;
    }
  }
  for (std::size_t k = 0; k < models.size(); ++k) {
    peers.push_back(peer_model(models[k], inputs[k]));
    peers.back().simulate = Case{&models[k], &inputs[k]}.simulate();
  }
  for (const Op& op : kOps)
    for (std::size_t k = 0; k < models.size(); ++k) {
      const Case c{&models[k], &inputs[k]};
      if ((op.trees_only && !c.tree()) || (op.simulation && !c.simulate())) continue;
      const std::string name = std::string("articula/") + op.name + "/" + models[k].name;
      benchmark::RegisterBenchmark(name.c_str(),
                                   [run = op.run, c](benchmark::State& s) { run(s, c); });
    }
  for (std::size_t k = 0; k < models.size(); ++k)  // the operator solver and its projection
    if (models[k].name.rfind("ladder", 0) == 0) {
      const Case c{&models[k], &inputs[k]};
      const std::string name = "articula/sim1s_rk4_operator/" + models[k].name;
      benchmark::RegisterBenchmark(name.c_str(), [c](benchmark::State& s) {
        run_sim(s, c, articula::Integrator::RK4, articula::SolverChoice::Operator);
      })->Unit(benchmark::kMillisecond);
    }
  register_solver_comparison(models, inputs);
  register_scale_family(filter);
  register_factor_graph(models);
  register_estimation();
  try {  // the coupling gate: a geared mechanism the peers must move as Articula does
    static const BenchMechanism geared = geared_mechanism(ARTICULA_SOURCE_DIR "/samples");
    peers.push_back(gate_model(geared, make_mechanism_input(geared), 0.5));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "articula-bench: cannot build the coupling gate: %s\n", e.what());
    return 1;
  }
  static std::vector<PeerModel> peer_models = std::move(peers);
  static std::vector<BenchMechanism> contact_models;
  static std::vector<PeerModel> contact_peers;
  try {
    contact_models = contact_mechanisms(ARTICULA_SOURCE_DIR "/samples");
    contact_peers.push_back(
        contact_peer_model(contact_models[0], make_mechanism_input(contact_models[0])));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "articula-bench: cannot build the contact models: %s\n", e.what());
    return 1;
  }
  register_contact_benchmarks(contact_models);
#ifdef ARTICULA_BENCH_MUJOCO
  if (!register_mujoco(peer_models)) return 1;
  if (!register_mujoco_contacts(contact_peers)) return 1;  // the walker (a cam has no MJCF form)
#endif
#ifdef ARTICULA_BENCH_SIMBODY
  if (!register_simbody(peer_models)) return 1;
  if (contact_gate) simbody_contact_gate(ARTICULA_SOURCE_DIR "/samples");  // printed
#endif
#ifdef ARTICULA_BENCH_PINOCCHIO
  if (!register_pinocchio(peer_models)) return 1;
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
