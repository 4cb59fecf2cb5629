#pragma once
// Which method solves a mechanism's loops, decided once at prepare time: RBDA 8.5 Method 2 on
// the spanning tree (constrained_dynamics, rank-revealing, copes with redundant loops and massless
// bodies) or RBDA 8.13's sparse-matrix method (sparse_dynamics, O(n) where every spanning tree
// gives a dense H^-1 coupling, e.g. the ladder of Fig. 8.4), by predicted cost.
#include <memory>

#include "core/algorithms/sparse_dynamics.hpp"
#include "core/sim/integrators.hpp"

namespace articula {

struct Mechanism;

// The sparse-matrix method for this mechanism (its motion drives included), regardless of cost;
// null when it does not apply or its factorisation fails at the assembled state.
std::shared_ptr<const SparseDynamicsModel> sparse_dynamics_model(const Mechanism& m);

// Predicted instructions of one evaluation of the spatial-operator solver (operator_solver.hpp)
// on `rows` constraint rows of which `solved_rows` are not structurally zero: kinematics and ABA
// per body, the dense rows (as Method 2 forms them), two innovations passes per solved row over
// every body for Λ^-1, and its factor. Comparable with method2_cost (sparse_dynamics.hpp).
double operator_cost(const Model& model, int rows, int solved_rows);

// Whether `auto` picks the operator solver: its predicted cost is under half of Method 2's and
// of the sparse method's (when that applies), so near a tie the better-tested methods stay.
bool prefer_operator(const Mechanism& m, int rows, int solved_rows);

// Predicted instructions of one step of a simulation with the embedding solver (embedded ABA,
// embedding/embedded_aba.hpp): per body its kinematics, position solves and ABA at every stage,
// and per aggregated node its local factors, O(n_S³). Compared in prefer_embedding with the
// other solvers' RK4 step (four calls and the projection after the step, which the embedding
// has not): fitted to the bench's simulated seconds on four-bar chains of 20 to 80 modules, the
// Stewart platform and the four-bar (ratios to the best other within a factor 1.6).
double embedding_step_cost(const Mechanism& m, Integrator integrator = Integrator::RK4);

// Whether `auto` picks the embedding solver for a run with `integrator`: its predicted step cost
// is under half of the best other solver's (so near a tie the solvers with a projection and a
// rank-revealing solve stay). The others' step is `stages` calls and the projection.
bool prefer_embedding(const Mechanism& m, int rows, int solved_rows,
                      Integrator integrator = Integrator::RK4);

// The sparse-matrix method when it applies and its predicted cost (flops of its symbolic
// analysis) is below Method 2's; null selects Method 2.
std::shared_ptr<const SparseDynamicsModel> select_loop_method(const Mechanism& m);

}  // namespace articula
