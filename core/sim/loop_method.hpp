#pragma once
// Which method solves a mechanism's loops, decided once at prepare time: RBDA 8.5 Method 2 on
// the spanning tree (constrained_dynamics, rank-revealing, copes with redundant loops and massless
// bodies) or RBDA 8.13's sparse-matrix method (sparse_dynamics, O(n) where every spanning tree
// gives a dense H^-1 coupling, e.g. the ladder of Fig. 8.4), by predicted cost.
#include <memory>

#include "core/algorithms/sparse_dynamics.hpp"

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

// The sparse-matrix method when it applies and its predicted cost (flops of its symbolic
// analysis) is below Method 2's; null selects Method 2.
std::shared_ptr<const SparseDynamicsModel> select_loop_method(const Mechanism& m);

}  // namespace articula
