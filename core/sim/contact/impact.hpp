#pragma once
// Impulses at an impact (RBDA 11.7, Eqs. 11.57-11.72): the velocity jump Δq̇ = H^-1 (G^T π +
// J^T p) that keeps the equality rows G (loops, drives, couplings: G Δq̇ = 0) and gives every
// unilateral row J_k Newton's law, w_k = J_k q̇⁺ + e_k min(J_k q̇⁻, 0) >= 0, p_k >= 0,
// w_k p_k = 0. The complementarity problem is solved by Murty's least-index principal pivoting
// (each pivot one Method 2 solve of RBDA 8.5): exact, and finite for a positive definite
// contact-space matrix.
#include <vector>

#include "core/algorithms/constrained_dynamics.hpp"

namespace articula {

struct ImpactProblem {
  MatX G;     // equality rows (m x nv)
  MatX J;     // unilateral rows (k x nv), φ̇ = J q̇
  VecX rate;  // J q̇⁻ (k)
  VecX e;     // restitution per row (k)
};

struct ImpactSolution {
  VecX dv;                    // Δq̇ (nv)
  VecX p;                     // impulse per unilateral row (k), >= 0
  VecX rate;                  // J q̇⁺ (k)
  double contact_work = 0.0;  // Σ p_k (rate⁺ + rate⁻)_k / 2: minus the energy lost
  int pivots = 0;
  bool solved = false;  // false: pivoting did not finish (a degenerate contact configuration)
};

// Needs data.H at the impact configuration factored in data.LD (crba, ltdl_factor). Overwrites
// data.C and data.qdd.
ImpactSolution solve_impact(const Model& model, Data& data, const ImpactProblem& problem,
                            ConstrainedDynamicsWork& work);

}  // namespace articula
