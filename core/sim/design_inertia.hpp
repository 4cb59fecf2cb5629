#pragma once
// The inertias of the design report (contract-additions-2 §4, issue 17 item 5), from the spatial
// operator algebra's Λ^-1 = J M^-1 J^T of body-level rows (core/algorithms/innovations), never
// forming or factoring M:
//
//   reflected inertia at drive d: 1 / (e_d^T M_c^-1 e_d), where e_d is the drive's row (q̇ of its
//     joint, tree or loop joint) and M_c^-1 = M^-1 - M^-1 G_O^T (G_O M^-1 G_O^T)^+ G_O M^-1 is
//     the inverse inertia with the rows O held: the loops, the couplings and the OTHER motion
//     drives (force-driven and passive joints stay free). As a Schur complement of Λ^-1 over the
//     stacked rows [O; d]: 1 / (A_dd - A_dO A_OO^+ A_Od). For a mechanism whose only freedom is
//     that drive's, q̇ = n q̇_d and M_c^-1 = n (n^T M n)^-1 n^T, so the value is n^T M n and the
//     kinetic energy is exactly ½ value q̇_d².
//   apparent mass of a point p on a body: the operational-space inertia of its translation,
//     Λ = (J_p M_c^-1 J_p^T)^+ with O = the loops and the couplings only (the motions the
//     mechanism's structure allows; drives are not held). Directions the point cannot move in
//     (J_p M_c^-1 J_p^T's null space: a pendulum's radial direction) have infinite inertia; the
//     pseudo-inverse writes 0 there, so Λ a = f holds for every acceleration the point can have,
//     and those directions are listed separately (constrained_directions).
//
// A^+ is the rank-revealing pivoted L D L^T (redundant rows, e.g. a planar loop's out-of-plane
// rows, drop out as in Method 2): any generalised inverse gives the same Schur complement here,
// since A_Od lies in A_OO's range.
#include <limits>
#include <memory>
#include <vector>

#include "core/algorithms/innovations.hpp"
#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/sim/constraints/constraint_set.hpp"

namespace articula {

// The point's translational apparent mass at one configuration (world axes, kg).
struct ApparentMass {
  Mat3 inverse = Mat3::Zero();  // J_p M_c^-1 J_p^T (1/kg): finite in every direction
  Mat3 mass = Mat3::Zero();     // its pseudo-inverse (kg); 0 along constrained directions
  std::vector<Vec3> constrained_directions;  // unit vectors (world) the point cannot move along
};

class DesignInertia {
 public:
  // Rows: the mechanism's loops and couplings, and one row per drive (mech.drives order),
  // motion and force drives alike. Throws SetupError when some constraint kind has no
  // body-level form.
  explicit DesignInertia(const Mechanism& mech);

  // Factorises M at q (ABA's passes at zero velocity) and evaluates every row's Λ^-1 there.
  // Leaves the position kinematics in data() (data().X0). Throws SetupError when a subtree is
  // massless (the innovations factorisation does not exist).
  void set_configuration(const VecX& q);
  const Data& data() const { return data_; }

  // Reflected inertia at drive k (mech.drives index), kg or kg m²; +infinity when the other
  // rows lock that drive's joint.
  double reflected_inertia(int k);
  // Apparent mass of the point p_model (model body frame) on model body `body`.
  ApparentMass apparent_mass(int body, const Vec3& p_model);

 private:
  double schur(const std::vector<int>& held, const std::vector<int>& free, MatX& S);

  const Mechanism& mech_;
  std::vector<DriveBinding> as_motion_;  // every drive as a motion drive: one row each
  std::unique_ptr<ConstraintSet> rows_;  // loops, drive rows, couplings (ConstraintSet order)
  std::vector<int> structural_;          // rows of loops and couplings
  std::vector<int> drive_row_;           // per drive: its row
  std::vector<int> motion_drive_rows_;   // rows of the motion drives
  Data data_;
  VecX q_, zero_;
  std::vector<OperatorRow> ops_;  // rows_ in body-level form, then three point rows
  InnovationsWork work_;
  PivotedLdlt ldlt_;
  MatX A_, S_;
};

}  // namespace articula
