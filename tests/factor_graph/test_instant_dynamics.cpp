// The factor graph's instant dynamics against Articula's recursive algorithms, which share no
// code with it: inverse dynamics (every q̈ given) against RNEA, forward (every τ given) against
// ABA, hybrid (a random half given each way) against articulated-body hybrid dynamics, on random
// branching trees with every joint type, external forces and random gravity, and on the Puma
// 560 sample; for every elimination order. τ and q̈ to 1e-10 relative (the orders differ only in
// round-off: 1e-13 is typical). And Ceres, on the same graph, to 1e-9.
#include <random>
#include <set>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/hybrid_dynamics.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/factor_graph/ceres_solve.hpp"
#include "core/factor_graph/dynamics_graph.hpp"
#include "core/factor_graph/graphviz.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/mechanism.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using namespace articula::fg;

namespace {
struct State {
  VecX q, qd, qdd, tau;
  ExternalForces f_ext;
};

State random_state(const Model& model, std::mt19937& rng) {
  State s;
  s.q = random_configuration(model, rng);
  s.qd = test::random_vector(model.nv, rng);
  s.qdd = test::random_vector(model.nv, rng);
  s.tau = test::random_vector(model.nv, rng);
  s.f_ext.assign(model.nb + 1, Force::Zero());
  for (int i = 1; i <= model.nb; ++i) s.f_ext[i] = test::random_vector(6, rng);
  return s;
}

InstantInput input(const Model& model, const State& s, const std::vector<bool>& given) {
  InstantInput in;
  in.q = s.q, in.qd = s.qd, in.qdd = s.qdd, in.tau = s.tau;
  in.qdd_given = given;
  in.f_ext = s.f_ext;
  (void)model;
  return in;
}

// Solves with every order; checks against (qdd, tau) expected.
void check_all_orders(const Model& model, const State& s, const std::vector<bool>& given,
                      const VecX& qdd, const VecX& tau) {
  Data data(model);
  for (EliminationOrder o : kAllOrders) {
    InstantDynamicsGraph g(model, {}, data, input(model, s, given));
    const InstantResult r = g.solve(o);
    INFO("order " << order_name(o));
    CHECK_CLOSE(r.qdd, qdd, 1e-10);
    CHECK_CLOSE(r.tau, tau, 1e-10);
  }
}

void check_model(const Model& model, std::mt19937& rng, int states) {
  Data d(model);
  for (int k = 0; k < states; ++k) {
    const State s = random_state(model, rng);
    const VecX tau_id = rnea(model, d, s.q, s.qd, s.qdd, &s.f_ext);  // inverse
    check_all_orders(model, s, std::vector<bool>(model.nb + 1, true), s.qdd, tau_id);
    const VecX qdd_fd = aba(model, d, s.q, s.qd, s.tau, &s.f_ext);  // forward
    check_all_orders(model, s, std::vector<bool>(model.nb + 1, false), qdd_fd, s.tau);
    std::vector<bool> given(model.nb + 1, false), fd(model.nb + 1, true);  // hybrid
    for (int i = 1; i <= model.nb; ++i) given[i] = rng() % 2, fd[i] = !given[i];
    hybrid_dynamics(model, d, s.q, s.qd, s.qdd, s.tau, fd, &s.f_ext);
    const VecX qdd_h = d.qdd, tau_h = d.tau;
    check_all_orders(model, s, given, qdd_h, tau_h);
  }
}
}  // namespace

TEST_CASE("Factor graph = RNEA, ABA and hybrid dynamics on random trees, every order",
          "[factor_graph]") {
  std::mt19937 rng(19);
  for (int nb : {1, 3, 8, 12}) {
    INFO(nb << " bodies");
    check_model(test::random_tree(nb, rng), rng, 3);
  }
  check_model(test::random_floating_tree(6, rng), rng, 3);
}

TEST_CASE("Factor graph = RNEA, ABA and hybrid dynamics on the Puma 560, every order",
          "[factor_graph]") {
  const Mechanism m = prepare(load_project(test::sample_path("puma560.json")).spec);
  std::mt19937 rng(560);
  check_model(m.model(), rng, 5);
}

TEST_CASE("Ceres solves the same graph: forward dynamics of a random tree to 1e-9",
          "[factor_graph]") {
  if (!have_ceres()) {
    WARN("built without Ceres: not checked");
    return;
  }
  std::mt19937 rng(3);
  const Model model = test::random_tree(6, rng);
  Data d(model);
  const State s = random_state(model, rng);
  const VecX qdd = aba(model, d, s.q, s.qd, s.tau, &s.f_ext);
  InstantDynamicsGraph g(model, {}, d, input(model, s, std::vector<bool>(model.nb + 1, false)));
  FactorGraph graph = g.graph();  // solved by Ceres from zero
  const CeresReport rep = solve_with_ceres(graph);
  INFO(rep.message);
  CHECK(rep.converged);
  VecX got(model.nv);
  for (int i = 1; i <= model.nb; ++i)
    if (g.qdd(i) >= 0)
      got.segment(model.v_index[i], model.joints[i].nv()) = graph.variable(g.qdd(i)).value;
  CHECK_CLOSE(got, qdd, 1e-9);
}

TEST_CASE("RNEA order of inverse dynamics gives the paper's DAG (Fig. 5d)", "[factor_graph]") {
  // A 3R chain: eliminating τ3..τ1, F1..F3, A3..A1 leaves A1 | -, A2 | A1, A3 | A2, F3 | A3,
  // F2 | F3 A2, F1 | F2 A1, τi | Fi (Algorithm 1): the forward and backward RNEA passes.
  const Model model = test::planar_chain(3);
  std::mt19937 rng(1);
  const State s = random_state(model, rng);
  Data d(model);
  InstantDynamicsGraph g(model, {}, d, input(model, s, std::vector<bool>(4, true)));
  BayesNet net;
  g.solve(EliminationOrder::Rnea, &net);
  auto parents = [&](int var) {
    for (const Conditional& c : net.conditionals)
      if (c.var == var) return std::set<int>(c.parents.begin(), c.parents.end());
    return std::set<int>{-1};
  };
  CHECK(parents(g.accel(1)).empty());
  CHECK(parents(g.accel(2)) == std::set<int>{g.accel(1)});
  CHECK(parents(g.accel(3)) == std::set<int>{g.accel(2)});
  CHECK(parents(g.wrench(3)) == std::set<int>{g.accel(3)});
  CHECK(parents(g.wrench(2)) == std::set<int>{g.wrench(3), g.accel(2)});
  CHECK(parents(g.wrench(1)) == std::set<int>{g.wrench(2), g.accel(1)});
  for (int i = 1; i <= 3; ++i) CHECK(parents(g.tau(i)) == std::set<int>{g.wrench(i)});
  const std::string dot = bayes_net_dot(g.graph(), net, "3R inverse dynamics, RNEA order");
  CHECK(dot.find("digraph") == 0);
  CHECK(dot.find("v" + std::to_string(g.accel(1)) + " -> v" + std::to_string(g.accel(2))) !=
        std::string::npos);
}
