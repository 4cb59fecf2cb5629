// No heap allocation in the per-step path: 1000 simulation steps (RK4 and semi-implicit Euler) of
// tree and closed-loop mechanisms, with motion drives, allocate nothing. This executable replaces
// the global operator new and interposes glibc's malloc (Eigen allocates through malloc), and
// counts both while a step loop runs.
#include <atomic>
#include <cstdlib>
#include <new>

#include "core/io/project.hpp"
#include "core/sim/loop_method.hpp"
#include "core/sim/simulation.hpp"
#include "core/spec/templates.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

// Interposing malloc and operator new clashes with a sanitizer's own allocator (heap corruption in
// every test of this executable): the count is made in the Release stage only.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ARTICULA_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ARTICULA_SANITIZED 1
#endif
#ifndef ARTICULA_SANITIZED

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_mallocs{0}, g_news{0};
void count_malloc() {
  if (g_counting.load(std::memory_order_relaxed)) g_mallocs.fetch_add(1, std::memory_order_relaxed);
}
void* checked(void* p) {
  if (!p) throw std::bad_alloc();
  return p;
}
void* counted_new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_news.fetch_add(1, std::memory_order_relaxed);
  return checked(__libc_malloc(n ? n : 1));
}
void* counted_aligned_new(std::size_t n, std::align_val_t a) {
  if (g_counting.load(std::memory_order_relaxed)) g_news.fetch_add(1, std::memory_order_relaxed);
  return checked(__libc_memalign(static_cast<std::size_t>(a), n ? n : 1));
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  count_malloc();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t s) {
  count_malloc();
  return __libc_calloc(n, s);
}
void* realloc(void* p, std::size_t n) {
  count_malloc();
  return __libc_realloc(p, n);
}
void free(void* p) {
  __libc_free(p);
}
}

void* operator new(std::size_t n) {
  return counted_new(n);
}
void* operator new[](std::size_t n) {
  return counted_new(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return counted_aligned_new(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return counted_aligned_new(n, a);
}
void operator delete(void* p) noexcept {
  __libc_free(p);
}
void operator delete[](void* p) noexcept {
  __libc_free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  __libc_free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  __libc_free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  __libc_free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  __libc_free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  __libc_free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  __libc_free(p);
}

using namespace articula;

namespace {
struct Counts {
  long mallocs, news;
};
// Heap allocations during `steps` steps (after one warm-up step, which may size lazily-grown
// buffers once).
Counts allocations_during_steps(Simulation& sim, int steps, Integrator integrator) {
  sim.step(1e-3, integrator);
  g_mallocs = 0;
  g_news = 0;
  g_counting = true;
  for (int k = 0; k < steps; ++k) sim.step(1e-3, integrator);
  g_counting = false;
  return {g_mallocs.load(), g_news.load()};
}
}  // namespace

TEST_CASE("The counters see allocations", "[allocation]") {
  g_mallocs = 0;
  g_news = 0;
  g_counting = true;
  auto* v = new VecX(100);  // one operator new, one malloc for the coefficients
  g_counting = false;
  delete v;
  CHECK(g_news == 1);
  CHECK(g_mallocs >= 1);
}

TEST_CASE("1000 simulation steps allocate nothing", "[allocation]") {
  // Trees (hybrid dynamics; puma560 with six motion drives), closed loops (constrained dynamics
  // and projection; with motion drives on tree joints), spatial loops (Stewart platform).
  for (const char* file : {"pendulum.json", "double_pendulum.json", "puma560.json", "fourbar.json",
                           "slider_crank.json", "watt_six_bar.json", "stewart_platform.json"}) {
    const Mechanism mech = prepare(load_project(test::sample_path(file)).spec);
    for (Integrator integrator : {Integrator::RK4, Integrator::Euler}) {
      Simulation sim(mech);
      const Counts c = allocations_during_steps(sim, 1000, integrator);
      INFO(file << (integrator == Integrator::RK4 ? " rk4" : " euler") << ": " << c.mallocs
                << " malloc calls, " << c.news << " operator new calls in 1000 steps");
      CHECK(c.mallocs == 0);
      CHECK(c.news == 0);
    }
  }
}

TEST_CASE("1000 steps by the sparse-matrix method allocate nothing", "[allocation]") {
  // RBDA 8.13's block-sparse factorisation forced on planar and spatial loops, with motion drives
  // on tree and loop joints, and on the ladder of Fig. 8.4.
  std::vector<MechanismSpec> specs = {make_ladder(20)};
  for (const char* file : {"fourbar.json", "slider_crank.json", "watt_six_bar.json",
                           "jansen_leg.json", "stewart_platform.json"})
    specs.push_back(load_project(test::sample_path(file)).spec);
  for (const MechanismSpec& spec : specs) {
    Mechanism mech = prepare(spec);
    mech.sparse = sparse_dynamics_model(mech);
    REQUIRE(mech.sparse);
    for (Integrator integrator : {Integrator::RK4, Integrator::Euler}) {
      Simulation sim(mech);
      const Counts c = allocations_during_steps(sim, 1000, integrator);
      INFO(spec.name << (integrator == Integrator::RK4 ? " rk4" : " euler") << ": " << c.mallocs
                     << " malloc calls, " << c.news << " operator new calls in 1000 steps");
      CHECK(c.mallocs == 0);
      CHECK(c.news == 0);
    }
  }
}

TEST_CASE("1000 steps by the operator solver and its mass-weighted projection allocate nothing",
          "[allocation]") {
  // Planar and ladder loops (the Stewart platform's multi-DoF loop joints still allocate in
  // their body-level rows).
  std::vector<MechanismSpec> specs = {make_ladder(20)};
  for (const char* file : {"fourbar.json", "slider_crank.json"})
    specs.push_back(load_project(test::sample_path(file)).spec);
  SimulationOptions o;
  o.solver = SolverChoice::Operator;
  for (const MechanismSpec& spec : specs) {
    const Mechanism mech = prepare(spec);
    Simulation sim(mech, o);
    REQUIRE(std::string(sim.solver_name()) == "operator");
    const Counts c = allocations_during_steps(sim, 1000, Integrator::RK4);
    INFO(spec.name << ": " << c.mallocs << " malloc calls, " << c.news
                   << " operator new calls in 1000 steps");
    CHECK(c.mallocs == 0);
    CHECK(c.news == 0);
  }
}

#endif  // ARTICULA_SANITIZED
