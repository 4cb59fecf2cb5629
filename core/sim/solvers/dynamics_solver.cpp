#include "core/sim/solvers/dynamics_solver.hpp"

#include <stdexcept>

#include "core/sim/loop_method.hpp"
#include "core/sim/solvers/embedding_solver.hpp"
#include "core/sim/solvers/method2_solver.hpp"
#include "core/sim/solvers/operator_solver.hpp"
#include "core/sim/solvers/sparse_solver.hpp"
#include "core/sim/solvers/tree_solver.hpp"

namespace articula {

namespace {
constexpr const char* kNames[] = {"auto", "method2", "sparse", "embedding", "operator"};

std::unique_ptr<DynamicsSolver> method2(const SolverEnv& env, bool planar_algebra,
                                        bool body_forces) {
  // Planar vectors where the mechanism is planar and the rows have a planar form; applied body
  // forces need the spatial kinematics.
  const PlanarModel* pm = env.mech.planar_dynamics.get();
  const bool planar = pm && planar_algebra && !body_forces && env.constraints.planar_capable();
  return std::make_unique<Method2Solver>(env, planar ? pm : nullptr, false);
}

// What keeps a mechanism's rows out of RBDA 8.13's body-level equations, for its diagnosis.
std::string without_body_level_form(const Mechanism& m) {
  bool unilaterals = !m.spec.contacts.empty();
  for (const JointSpec& js : m.spec.joints) unilaterals = unilaterals || js.limits || js.friction;
  std::string what = m.couplings.empty() ? "" : "joint couplings";
  if (unilaterals)
    what += (what.empty() ? "" : " and ") + std::string("limits, contacts and friction");
  return what.empty() ? "some constraint rows" : what;
}

std::unique_ptr<DynamicsSolver> sparse(const SolverEnv& env, bool forced) {
  if (!env.mech.has_loops())
    throw SetupError(
        "the sparse-matrix method (RBDA 8.13) does not apply: the mechanism has no "
        "loops");
  if (!env.constraints.body_level_capable())
    throw SetupError("the sparse-matrix method (RBDA 8.13) does not apply: " +
                     without_body_level_form(env.mech) +
                     " have no form in its body-level equations yet (use method2)");
  std::shared_ptr<const SparseDynamicsModel> sm = env.mech.sparse;
  if (!sm && forced) sm = sparse_dynamics_model(env.mech);
  if (!sm)
    throw SetupError(
        "the sparse-matrix method (RBDA 8.13) does not apply: a massless body, a "
        "multi-DoF motion drive, redundant loops or a singular matrix at the "
        "assembled state (use method2)");
  return std::make_unique<SparseSolver>(env, std::move(sm));
}
// Rows the solvers solve: planar mechanisms' loop joints have structurally zero out-of-plane rows.
int solved_rows(const SolverEnv& env) {
  const Mechanism& m = env.mech;
  int solved = env.constraints.rows();
  if (m.planar)
    for (const LoopJoint& l : m.compiled.loops) solved -= l.joint.nc() - (3 - l.joint.nv());
  return solved;
}

std::unique_ptr<DynamicsSolver> operator_solver(const SolverEnv& env) {
  if (!env.constraints.operator_capable())
    throw SetupError(
        "the spatial-operator-algebra solver does not apply: joint limits and contacts have "
        "no body-level rows in it yet (use method2)");
  return std::make_unique<OperatorSolver>(env);
}
}  // namespace

SolverChoice solver_from_name(const std::string& name) {
  for (int i = 0; i < 5; ++i)
    if (name == kNames[i]) return static_cast<SolverChoice>(i);
  throw std::invalid_argument("unknown solver '" + name +
                              "' (known: auto, method2, sparse, embedding, operator)");
}

const char* solver_name(SolverChoice choice) {
  return kNames[static_cast<int>(choice)];
}

ConstraintContext DynamicsSolver::context(const SolverInput& in) const {
  ConstraintContext c{env_.mech, env_.drives, env_.data};
  c.t = in.t;
  c.q = &in.q;
  c.qd = &in.v;
  c.alpha = c.beta = env_.alpha;
  return c;
}

double DynamicsSolver::constraint_power(const SolverInput& in) const {
  return env_.constraints.power(context(in), multipliers());
}

std::unique_ptr<DynamicsSolver> make_solver(const SolverEnv& env, SolverChoice choice,
                                            bool planar_algebra, bool body_forces) {
  switch (choice) {
    case SolverChoice::Auto:
      if (env.constraints.tree_only()) return std::make_unique<TreeSolver>(env);
      if (env.constraints.operator_capable() &&  // no limit, contact or friction rows
          prefer_embedding(env.mech, env.constraints.rows(), solved_rows(env), env.integrator))
        try {
          return std::make_unique<EmbeddingSolver>(env);
        } catch (const SetupError&) {  // quaternions the loops do not determine: the others
        }
      if (env.constraints.operator_capable() &&
          prefer_operator(env.mech, env.constraints.rows(), solved_rows(env)))
        return std::make_unique<OperatorSolver>(env);
      if (env.mech.sparse && env.constraints.body_level_capable()) return sparse(env, false);
      return method2(env, planar_algebra, body_forces);
    case SolverChoice::Method2:
      return method2(env, planar_algebra, body_forces);
    case SolverChoice::Sparse:
      return sparse(env, true);
    case SolverChoice::Embedding:
      return std::make_unique<EmbeddingSolver>(env);
    case SolverChoice::Operator:
      return operator_solver(env);
  }
  return method2(env, planar_algebra, body_forces);
}

std::unique_ptr<DynamicsSolver> make_quick_reporting_solver(const SolverEnv& env) {
  if (env.constraints.tree_only() || !env.constraints.operator_capable()) return nullptr;
  return std::make_unique<OperatorSolver>(env);
}

std::unique_ptr<DynamicsSolver> make_reporting_solver(const SolverEnv& env) {
  if (env.constraints.tree_only()) return std::make_unique<TreeSolver>(env);
  return std::make_unique<Method2Solver>(env, nullptr, true);
}

}  // namespace articula
