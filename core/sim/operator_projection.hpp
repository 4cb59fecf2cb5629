#pragma once
// The mass-weighted minimum-norm step of the manifold projection on the spatial operator algebra
// (issue 17): dq = M^-1 G^T (G M^-1 G^T)^-1 r, the step of least kinetic-energy norm dq^T M dq
// with G dq = r. Λ^-1 = G M^-1 G^T comes from the rows in body-level form and the innovations
// factorisation (innovations.hpp, O(N m + m^2)), factored by the projection's rank-revealing
// pivoted L D L^T (O(m^3)); M^-1 G^T μ is one pair of passes (O(N + m)). No dense J J^T, H or
// H^-1. The coordinates prescribed exactly (motion-driven tree joints) are held by adding their
// rows (dq_v = 0) to the system, as the operator solver carries them: in the M metric, zeroing
// their columns of J (the Euclidean path) would give the least-norm step of another metric.
// Λ^-1 moves little between the projection's steps and the simulation's time steps, so its last
// factor is kept: a step first solves by iterative refinement against the present rows and M
// (one pair of passes and m row reads per iteration, O(N + m^2)), and forms and factors Λ^-1
// afresh only when that does not reach kRefineTolerance quickly (rows changed, a singular or
// fast-moving configuration). Either way the step solves G dq = r to that tolerance, or where
// rounding stops the refinement first (Λ^-1 of long chains, condition 1e4 and more) to
// kFloorTolerance: a fresh factor ends at the same floor, so it is not formed for that.
#include <vector>

#include "core/algorithms/innovations.hpp"
#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/sim/constraints/constraint_set.hpp"

namespace articula {

class OperatorProjection {
 public:
  OperatorProjection(const Mechanism& mech, const ConstraintSet& constraints);
  // ABA's first pass at q and zero velocity (data.X0 and oS left at q) and the rows in
  // body-level form: enough for rows_times. False when the set has no such form (limits,
  // contacts): the caller takes the Euclidean step. M is factored only by factorise().
  bool linearise(const ConstraintContext& c, const VecX& q);
  // Completes ABA's passes (M's factorisation, as aba() at zero velocity and forces, so the
  // same bits) once per linearise, when a step is needed. False when the factorisation does
  // not exist (a massless subtree): the caller takes the Euclidean step.
  bool factorise();
  // Whether the velocity correction from residual r (J q̇ - y, before correction) can be left
  // out: |r|_inf within kVelocityFraction of the position tolerance per second. Such a residual
  // moves the loop errors by |r| h per step (1e-16 m at 1 ms), and the next projection measures
  // it afresh; after RK4 steps it is typically 1e-14..6e-14 (1,000-body ladder), so most
  // projections then need neither the correction nor M's factorisation.
  bool correction_negligible(const VecX& r, double tolerance);
  static constexpr double kVelocityFraction = 0.1;
  // Velocity corrections left out since construction (negligible residuals).
  long corrections_skipped() const { return skipped_; }
  // step and refine_step need M's factorisation: factorise() must have returned true.
  // dq (nv) for the residual r of the projected rows (ConstraintSet::projected_rows()), with the
  // prescribed coordinates' components exactly zero. J (projected rows x nv, at the same q, from
  // ConstraintSet::position) only tells which rows are structurally zero; it is not modified.
  void step(const MatX& J, const VecX& r, VecX& dq);
  // The same step from the rows kept at the last step(J, ...) and the kept factor, by
  // refinement alone: false (dq undefined) when there is no such factor or it does not
  // converge; then the caller forms J and calls step(J, ...), which factors afresh.
  bool refine_step(const VecX& r, VecX& dq);
  // out = J x for the projected rows (out sized here): from the rows in body-level form and one
  // outward pass, O(N + m), no dense J. J q̇ for the velocity correction.
  void rows_times(const VecX& x, VecX& out);
  // The relative residual |G dq - r|_inf / |r|_inf a step reaches.
  static constexpr double kRefineTolerance = 1e-13;
  // The relative residual accepted once the refinement stops shrinking it tenfold per iteration.
  static constexpr double kFloorTolerance = 1e-10;
  // Numerical rank of the rows at the last factorisation (projected rows kept plus prescribed).
  int rank() const { return ldlt_.rank(); }
  // Steps since construction that formed and factored Λ^-1, and that refined the kept factor.
  long factorisations() const { return factorisations_; }
  long refined() const { return refined_; }
  // Bodies visited by the innovations passes (the operation count).
  long body_steps() const { return work_.body_steps; }

 private:
  const Mechanism& mech_;
  const ConstraintSet& set_;
  std::vector<int> prescribing_;  // rows prescribing tree coordinates (fixed by the built-in kinds)
  Data* data_ = nullptr;          // holds the factorisation of the last successful linearise
  InnovationsWork work_;
  std::vector<OperatorRow> all_;   // every row of the set in body-level form (acceleration order)
  std::vector<int> of_projected_;  // per projected row: its row in all_
  std::vector<int> kept_;          // projected rows not structurally zero (indices into J)
  std::vector<int> selected_;      // the rows solved: kept_ mapped into all_, then prescribing
  std::vector<int> factored_;      // the rows of the kept factor (selected_ when it was formed)
  MatX A_;                         // Λ^-1 of factored_
  PivotedLdlt ldlt_;               // its factor, kept across steps
  VecX rhs_, mu_, res_;            // right-hand side, multipliers, residual (selected rows)
  VecX zero_;                      // q̇ = τ = 0 for the factorisation (nv)
  long factorisations_ = 0, refined_ = 0, skipped_ = 0;
  bool factorised_ = false, factor_valid_ = false;  // factorise() ran since linearise
  bool refine_failed_ = false;  // refine_step failed since the last linearise: step() factors

  bool refine(VecX& dq);       // from the kept factor; false when it does not converge
  void select(const VecX& r);  // selected_ and rhs_ from kept_ and the residual r
  void fresh(VecX& dq);        // forms and factors Λ^-1 of the selected rows
  void respond();              // work_.qdd = M^-1 G^T μ for μ = mu_
};

}  // namespace articula
