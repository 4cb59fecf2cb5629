#pragma once
// Impulses at an impact (RBDA 11.7, Eqs. 11.57-11.72): the velocity jump Δq̇ = H^-1 (G^T π +
// J^T p) that keeps the equality rows G (loops, drives, couplings: G Δq̇ = 0) and gives every
// unilateral row J_k Newton's law, w_k = J_k q̇⁺ + e_k min(J_k q̇⁻, 0) >= 0, p_k >= 0,
// w_k p_k = 0, all rows at once (simultaneous impacts are one problem). The contact-space matrix
// A = J H^-1 J^T restricted to G's null space is formed by one Method 2 solve per row and the
// complementarity problem solved by Lemke's method (contact/lemke): exact, and it needs A only
// positive semidefinite, as it is (singular) when more contacts touch than the loops and
// drives leave motions to separate them (three feet of a driven planar walker: rank 2).
// With Coulomb friction (RBDA 11.68-11.72, with Coulomb's law bounding the tangential impulse):
// each frictional contact adds its tangent rows T_c (one in a plane, two in space), and the
// impulse p_t on them either stops the slip (T_c q̇⁺ = 0, |p_t| <= μ p) or slides at the bound
// against the slip that is left (p_t = -μ p ŝ, ŝ = T_c q̇⁺ / |T_c q̇⁺|). Stewart and Trinkle's
// LCP: p_t = a⁺ - a⁻ per row, a± >= 0 ⊥ ±T q̇⁺ + β_c >= 0, β_c >= 0 ⊥ μ p - Σ (a⁺ + a⁻) >= 0
// (β_c the slip speed left). Exact in a plane; in space its square of impulses is turned until
// a corner lies along the impulse found, which makes it exact on Coulomb's disc (impact.cpp).
#include <vector>

#include "core/algorithms/constrained_dynamics.hpp"

namespace articula {

struct ImpactProblem {
  MatX G;     // equality rows (m x nv)
  MatX J;     // unilateral rows (k x nv), φ̇ = J q̇
  VecX rate;  // J q̇⁻ (k)
  VecX e;     // restitution per row (k)
  // Friction (optional): tangent rows of frictional contacts (f x nv; a spatial contact's two,
  // orthogonal unit tangents, consecutive), their slip rates T q̇⁻ (f), per tangent row its
  // contact's row of J and its friction coefficient μ.
  MatX T = MatX(0, 0);
  VecX slip = VecX(0);
  std::vector<int> row_of = {};
  VecX mu = VecX(0);
};

struct ImpactSolution {
  VecX dv;                    // Δq̇ (nv)
  VecX p;                     // impulse per unilateral row (k), >= 0
  VecX rate;                  // J q̇⁺ (k)
  VecX pt;                    // tangential impulse per tangent row (f), |pt| <= μ p
  VecX slip;                  // T q̇⁺ (f): 0 where the impulse stopped the slip
  double contact_work = 0.0;  // Σ p_k (rate⁺ + rate⁻)_k / 2 (tangent rows too): minus the loss
  int pivots = 0;
  bool coulomb_exact = true;  // false: a spatial contact's axis did not settle (impact.cpp)
  bool solved = false;        // false: no impulses satisfy Newton's law (Lemke's ray termination)
};

// Needs data.H at the impact configuration factored in data.LD (crba, ltdl_factor). Overwrites
// data.C and data.qdd.
ImpactSolution solve_impact(const Model& model, Data& data, const ImpactProblem& problem,
                            ConstrainedDynamicsWork& work);

}  // namespace articula
