// articula-bench: time per call of Articula's dynamics algorithms, one benchmark per
// (operation, model), named articula/<op>/<model>. Accepts every Google Benchmark flag, e.g.
// --benchmark_format=json, --benchmark_filter=articula/aba/.*, --benchmark_min_time=0.2.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_models.hpp"
#include "core/algorithms/aba.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/hybrid_dynamics.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/rnea.hpp"

namespace articula::bench {
namespace {

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

using OpFn = void (*)(benchmark::State&, const Model&, const BenchInput&);
struct Op {
  const char* name;
  OpFn run;
};

const Op kOps[] = {
    {"rnea",
     [](benchmark::State& s, const Model& m, const BenchInput& in) {
       Data d(m);
       for (auto _ : s) keep(rnea(m, d, in.q, in.qd, in.qdd));
     }},
    {"crba",
     [](benchmark::State& s, const Model& m, const BenchInput& in) {
       Data d(m);
       for (auto _ : s) keep(crba(m, d, in.q));
     }},
    {"crba_ltdl",
     [](benchmark::State& s, const Model& m, const BenchInput& in) {
       Data d(m);
       const VecX rhs = crba_rhs(m, in);
       VecX x = rhs;
       for (auto _ : s) {
         crba(m, d, in.q);
         ltdl_factor(m, d);
         x = rhs;  // same size: no allocation
         ltdl_solve(m, d, x);
         keep(x);
       }
     }},
    {"aba",
     [](benchmark::State& s, const Model& m, const BenchInput& in) {
       Data d(m);
       for (auto _ : s) keep(aba(m, d, in.q, in.qd, in.tau));
     }},
    {"hybrid",
     [](benchmark::State& s, const Model& m, const BenchInput& in) {
       Data d(m);
       for (auto _ : s) {
         hybrid_dynamics(m, d, in.q, in.qd, in.qdd, in.tau, in.fd);
         keep(d.qdd);
         keep(d.tau);
       }
     }},
};

// Cross-checks the benchmarked operations on the benchmark inputs (relative errors): a wrong
// model or a broken algorithm should not produce a timing table.
double max_error(const Model& m, const BenchInput& in) {
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

}  // namespace
}  // namespace articula::bench

int main(int argc, char** argv) {
  using namespace articula::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const std::vector<NamedModel> models = benchmark_models();
  std::vector<BenchInput> inputs;
  for (const NamedModel& nm : models) {
    inputs.push_back(make_input(nm.model));
    const double err = max_error(nm.model, inputs.back());
    if (!(err < 1e-8)) {
      std::fprintf(stderr, "articula-bench: %s fails its consistency check (error %g)\n",
                   nm.name.c_str(), err);
      return 1;
    }
  }
  for (const Op& op : kOps)
    for (std::size_t k = 0; k < models.size(); ++k) {
      const std::string name = std::string("articula/") + op.name + "/" + models[k].name;
      const articula::Model* m = &models[k].model;
      const BenchInput* in = &inputs[k];
      benchmark::RegisterBenchmark(name.c_str(),
                                   [run = op.run, m, in](benchmark::State& s) { run(s, *m, *in); });
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
