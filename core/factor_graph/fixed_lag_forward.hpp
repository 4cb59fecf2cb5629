#pragma once
// Forward dynamic simulation as a fixed-lag factor-graph smoother in dependent coordinates
// (Blanco-Claraco et al. §5.1, Fig. 2, §7.1): per time step k the spanning tree's coordinates
// q_k, rates q̇_k and accelerations q̈_k, tied by
//   f_dpc  δ(q_k) = 0                 loop closure (position constraint factor),
//   f_dvc  K(q_k) q̇_k = 0             velocity constraint factor,
//   f_ddyn q̈_k - f(q_k, q̇_k) = 0      dynamics: Articula's closed-loop forward dynamics (RBDA 8.3,
//                                     no Baumgarte terms: the constraint factors hold the loops),
//   f_ti   q_k - q_{k-1} - h/2 (q̇_{k-1} + q̇_k) = 0 and the same for q̇ from q̈ (trapezoidal),
// each weighted by 1/σ (the paper's Table 2: 1e-3 for all). Only the last Nw steps are solved
// for, by Levenberg-Marquardt; a step leaving the window is frozen (its estimate acts as the
// prior of the next window). This is the paper's method, kept as an alternative for comparison:
// Articula's own integrators are more accurate per cost (tests/factor_graph/test_fixed_lag.cpp
// measures both against an RK4 reference).
//
// The window is small (Nw·3n unknowns), so its normal equations are dense and solved by LDLᵀ;
// ∂f/∂(q, q̇) comes from central differences once per step, when the step enters the window
// (a chord iteration: the residuals are exact, so the solution is the least-squares one up to a
// second-order term in the already tiny residuals at the optimum).
#include <vector>

#include "core/sim/mechanism.hpp"

namespace articula::fg {

struct FixedLagOptions {
  double step = 1e-3;                                      // s
  double duration = 5.0;                                   // s
  int window = 2;                                          // Nw: time steps solved together
  double sigma_position = 1e-3, sigma_velocity = 1e-3;     // f_dpc, f_dvc
  double sigma_dynamics = 1e-3, sigma_integration = 1e-3;  // f_ddyn, f_ti
  int max_iterations = 15;                                 // per window solve (the paper's)
};

struct FixedLagResult {
  VecX t;              // N + 1 instants
  MatX q, qd;          // (N + 1) x nv: model coordinates, the final (frozen) estimate of each step
  VecX loop_error;     // N + 1: max |δ| over the loop constraints at each row's q (m or rad)
  int iterations = 0;  // LM iterations, all windows
  double max_loop_error = 0;  // max of loop_error
};

// Throws SetupError for what this solver does not take (drives, springs, dampers, applied
// forces, couplings, limits, contacts, friction, multi-DoF or quaternion joints: the paper's
// free motion under gravity needs none) or when the window solve fails.
FixedLagResult fixed_lag_forward(const Mechanism& m, const FixedLagOptions& opt = {});

}  // namespace articula::fg
