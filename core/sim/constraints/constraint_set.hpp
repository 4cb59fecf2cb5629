#pragma once
// The equality constraints of a mechanism as one stack of rows: every constraint kind registered
// in constraint_set.cpp contributes its rows in a fixed order (loop joints first, then motion
// drives on tree joints, on loop joints, couplings, ...). Solvers read G and g; the projection
// reads the position rows; reporting turns multipliers back into forces through the kinds.
#include <memory>
#include <vector>

#include "core/sim/constraints/constraint_kind.hpp"

namespace articula {

class ConstraintSet {
 public:
  ConstraintSet(const Mechanism& mech, const std::vector<DriveBinding>& drives);

  // A kind built elsewhere (one whose rows change, like the closed unilaterals), stacked last.
  void add(std::unique_ptr<ConstraintKind> kind);
  // Recomputes the row layout after a kind's rows() changed.
  void restack();
  // First row of the last kind added (the rows after it are its).
  int last_row0() const { return kinds_.empty() ? 0 : kinds_.back().row0; }

  int rows() const { return rows_; }
  bool empty() const { return kinds_.empty(); }
  // Rows that only prescribe tree coordinates (or none): hybrid dynamics solves them directly.
  bool tree_only() const;
  // Coordinates prescribed exactly (motion-driven tree joints), in row order.
  const std::vector<int>& prescribed_coordinates() const { return prescribed_; }
  bool planar_capable() const;
  std::string row_owner(int r) const;  // the joint, drive or coupling that row r belongs to
  // Row of the projection's J holding acceleration row r (the same row at the position level),
  // or -1 when r's kind is not projected (motion drives on tree joints, imposed exactly).
  int projected_row(int r) const;
  // The rows that prescribe tree coordinates, in the order of prescribed_coordinates().
  std::vector<int> prescribing_rows() const;

  // G (rows x nv) and g of G q̈ = g at the context's state.
  void acceleration(const ConstraintContext& c);
  const MatX& G() const { return G_; }
  const VecX& g() const { return g_; }
  MatX& G() { return G_; }

  // The rows the projection holds: errors e, Jacobian J (projected_rows x nv, resized here), and
  // the velocity targets y (J q̇ = y).
  int projected_rows() const { return projected_rows_; }
  void position(const ConstraintContext& c, MatX& J, VecX& e);
  // e alone (no allocation once sized where every projected kind has position_errors).
  void position_errors(const ConstraintContext& c, VecX& e);
  void velocity_targets(const ConstraintContext& c, VecX& y) const;

  // RBDA 8.13's inputs; false when some kind has no body-level form.
  bool body_level(const ConstraintContext& c, BodyLevelRows& out) const;
  bool body_level_capable() const;

  // The rows in body-level form for the spatial-operator solver (rows() of them, out resized
  // here; allocates only when the row count grows); false when some kind has none.
  bool operator_capable() const;
  void operator_rows(const ConstraintContext& c, std::vector<OperatorRow>& out) const;

  double power(const ConstraintContext& c, const VecX& mu) const;
  // Constraint forces from the multipliers (rows()); out sized for the mechanism and zeroed here.
  void recover(const ConstraintContext& c, const VecX& mu, ConstraintForces& out) const;

 private:
  struct Entry {
    std::unique_ptr<ConstraintKind> kind;
    int row0 = 0;         // first row in G
    int projected0 = -1;  // first row in the projection's J, -1 if not projected
  };
  const Mechanism& mech_;
  std::vector<Entry> kinds_;
  int rows_ = 0, projected_rows_ = 0;
  std::vector<int> prescribed_;
  MatX G_;
  VecX g_;
  MatX J_scratch_;  // position_errors' J where a kind has no errors-only form
};

}  // namespace articula
