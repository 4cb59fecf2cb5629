#pragma once
// Projection of a state onto the constraint manifold after each step: Gauss-Newton with
// minimum-norm steps on the position errors of the projected constraint rows (loops, drives on
// loop joints, couplings), then the minimum-norm velocity correction to J q̇ = y. Coordinates
// prescribed exactly (motion-driven tree joints) are held. J J^T is small (constraint rows) and
// its pivoted L D L^T reveals redundant rows, without allocating once sized.
// Mass-weighted (with the operator solver, and the sparse one from 32 rows): the steps are the
// least kinetic-energy ones, dq = M^-1 J^T (J M^-1 J^T)^-1 e, from the spatial operator algebra
// (operator_projection.hpp) in O(N m + m^3) instead of the Euclidean J^T (J J^T)^-1 e through the
// dense J J^T (O(N m^2)). That path reads the errors, J q̇ and the rows in body-level form in
// O(N + m) and forms the dense J only when its kept factor must be replaced.
// The position steps stop once the errors are below 0.01 of the tolerance or, still within it,
// no longer halve per step: the rounding floor of long chains (about 1e-13 m at 1,000 bodies),
// where 8 further steps (each an ABA and a solve) would only stir the rounding. A projection
// then takes no step from errors within twice that floor (at most a quarter of the tolerance).
#include <memory>

#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/sim/constraints/constraint_set.hpp"

namespace articula {

struct PlanarModel;
struct PlanarData;
class OperatorProjection;

class ManifoldProjection {
 public:
  // planar: linearise on the planar kinematics (the solver's), or null for the spatial ones.
  // mass_weighted: take the operator algebra's M^-1-weighted steps wherever the rows have a
  // body-level form and M's innovations factorisation exists at q (else the Euclidean ones).
  ManifoldProjection(const Mechanism& mech, ConstraintSet& constraints, const PlanarModel* pm,
                     PlanarData* pd, bool mass_weighted = false);
  ~ManifoldProjection();
  // Projects (q, q̇) at time t; throws SetupError naming the driven joints when the errors cannot
  // be brought below the tolerance (a dead point, the end of the range).
  void project(const std::vector<DriveBinding>& drives, Data& data, double t, double tolerance,
               VecX& q, VecX& qd);
  // Whether the last step taken was the mass-weighted one (else Euclidean).
  bool mass_weighted_now() const { return weighted_now_; }
  // Gauss-Newton position steps taken since construction (the operation count).
  long position_steps() const { return position_steps_; }

 private:
  void linearise(const ConstraintContext& c, const VecX& q);
  void min_norm_step(const ConstraintContext& c, VecX& rhs_y, VecX& out);
  [[noreturn]] void cannot_close(const std::vector<DriveBinding>& drives, double t, double err);

  const Mechanism& mech_;
  ConstraintSet& set_;
  const PlanarModel* pm_;
  PlanarData* pd_;
  MatX J_, JJt_;
  VecX e_, y_, dq_, yc_, y_scratch_;
  bool J_current_ = false;  // J_ was formed at the last linearise's q
  std::vector<int> rows_;   // rows of J the solve keeps (not negligibly small)
  PivotedLdlt ldlt_;
  std::unique_ptr<OperatorProjection> weighted_;  // null: Euclidean steps only
  bool weighted_now_ = false;  // the last linearise set up weighted_ (its step applies)
  double floor_ = 0.0;  // the errors' rounding floor where the last steps stopped shrinking them
  long position_steps_ = 0;
};

}  // namespace articula
