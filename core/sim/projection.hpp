#pragma once
// Projection of a state onto the constraint manifold after each step: Gauss-Newton with
// minimum-norm steps on the position errors of the projected constraint rows (loops, drives on
// loop joints, couplings), then the minimum-norm velocity correction to J q̇ = y. Coordinates
// prescribed exactly (motion-driven tree joints) are held. J J^T is small (constraint rows) and
// its pivoted L D L^T reveals redundant rows, without allocating once sized.
#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/sim/constraints/constraint_set.hpp"

namespace articula {

struct PlanarModel;
struct PlanarData;

class ManifoldProjection {
 public:
  // planar: linearise on the planar kinematics (the solver's), or null for the spatial ones.
  ManifoldProjection(const Mechanism& mech, ConstraintSet& constraints, const PlanarModel* pm,
                     PlanarData* pd);
  // Projects (q, q̇) at time t; throws SetupError naming the driven joints when the errors cannot
  // be brought below the tolerance (a dead point, the end of the range).
  void project(const std::vector<DriveBinding>& drives, Data& data, double t, double tolerance,
               VecX& q, VecX& qd);

 private:
  void linearise(const ConstraintContext& c, const VecX& q);
  void min_norm_step(VecX& rhs_y, VecX& out);
  [[noreturn]] void cannot_close(const std::vector<DriveBinding>& drives, double t, double err);

  const Mechanism& mech_;
  ConstraintSet& set_;
  const PlanarModel* pm_;
  PlanarData* pd_;
  MatX J_, JJt_;
  VecX e_, y_, dq_, yc_;
  std::vector<int> rows_;  // rows of J the solve keeps (not negligibly small)
  PivotedLdlt ldlt_;
};

}  // namespace articula
