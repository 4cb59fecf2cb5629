#pragma once
// One kind of equality constraint on the spanning tree's coordinates (loop joints, motion drives,
// couplings, ...). A kind contributes rows: at the acceleration level G q̈ = g with Baumgarte
// stabilisation (RBDA Eqs. 8.21-8.23), at the position level an error e(q) with its Jacobian
// (for the projection onto the constraint manifold), and turns its multipliers back into the
// forces it applies. The constraint set stacks the kinds' rows; solvers see only G and g and
// never which kinds exist. A new kind is one file pair plus a line in constraint_set.cpp.
#include <string>
#include <vector>

#include "core/algorithms/innovations.hpp"
#include "core/model/data.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

struct PlanarModel;
struct PlanarData;

// What a kind sees at one evaluation. The kinematics in `data` (or, for a solver working in
// planar vectors, in `planar`) were run by the caller at (q, q̇): positions for position_rows,
// velocities and velocity-product accelerations (q̈ = 0) for acceleration_rows.
struct ConstraintContext {
  const Mechanism& mech;
  const std::vector<DriveBinding>& drives;  // the simulation's laws (they change between steps)
  Data& data;
  const PlanarModel* planar_model = nullptr;  // set: planar kinematics in `planar`, none in data
  PlanarData* planar = nullptr;
  double t = 0.0;
  const VecX* q = nullptr;
  const VecX* qd = nullptr;
  double alpha = 0.0, beta = 0.0;  // Baumgarte gains (Eq. 8.22)
};

// Drive inputs of RBDA 8.13's body-level formulation (the sparse solver), in row order of the
// kinds that fill them (see SparseDriveInput in core/algorithms/sparse_dynamics.hpp).
struct BodyLevelRows {
  std::vector<double> tree_qdd;  // prescribed q̈ of rows on tree coordinates
  std::vector<Force> loop_P;     // rows on a loop joint's relative motion: q̇_l = P^T v_J
  std::vector<double> loop_g;    // and their right-hand sides
};

// Forces the constraints apply, filled by recover() from the multipliers.
struct ConstraintForces {
  std::vector<Force> body;           // per model body, base coordinates, about the origin (NB+1)
  std::vector<Force> joint_wrench;   // per user joint: loop joints' transmitted wrench (successor
                                     // joint frame, [moment; force])
  std::vector<VecN> joint_tau;       // per user joint: generalized force of its actuator
  std::vector<double> coupling_tau;  // per coupling: the generalized force on its joint B
  VecX tree_tau;  // per tree velocity coordinate (nv): generalized forces that constraints apply
                  // to tree joints directly (couplings), not as body wrenches
};

class ConstraintKind {
 public:
  virtual ~ConstraintKind() = default;
  virtual int rows() const = 0;
  // Name of what owns local row r (a joint, a drive, a coupling), for diagnoses.
  virtual std::string row_owner(int r) const = 0;

  // Rows row0 .. row0 + rows() - 1 of G (sized and zeroed by the caller) and g.
  virtual void acceleration_rows(const ConstraintContext& c, MatX& G, VecX& g, int row0) = 0;

  // Whether the projection holds these rows (motion drives on tree joints are imposed exactly
  // instead) and, if so, their errors e(q) and Jacobian, and the velocity target: J q̇ = y.
  virtual bool projected() const { return true; }
  virtual void position_rows(const ConstraintContext& c, MatX& J, VecX& e, int row0) = 0;
  // The errors of position_rows alone, for the mass-weighted projection, which reads the rows in
  // body-level form and needs no dense J. False when the kind has no cheaper form than
  // position_rows (the set then calls that).
  virtual bool position_errors(const ConstraintContext& c, VecX& e, int row0) {
    (void)c, (void)e, (void)row0;
    return false;
  }
  virtual void velocity_targets(const ConstraintContext& c, VecX& y, int row0) const {
    (void)c, (void)y, (void)row0;  // y = 0: scleronomic rows
  }

  // Rows that work with the planar kinematics (ctx.planar) as well as the spatial ones.
  virtual bool planar_capable() const { return false; }
  // Rows that prescribe tree coordinates' accelerations (q̈_v = q̈_d): hybrid dynamics can take
  // them as known accelerations instead of constraints. Returns their coordinates.
  virtual bool prescribes_tree_coordinates(std::vector<int>* coordinates) const {
    (void)coordinates;
    return false;
  }
  // Whether the rows have a form in RBDA 8.13's body-level equations (the sparse solver applies
  // only when all kinds do), and that form at the context's state (velocity-product kinematics).
  virtual bool body_level_capable() const { return true; }
  virtual bool body_level_rows(const ConstraintContext& c, BodyLevelRows& out) const = 0;

  // The rows in body-level form (forces on bodies and generalized forces on coordinates, the
  // dual of recover() for a unit multiplier) for the spatial-operator solver, written to
  // out[0 .. rows()): needs the position kinematics at the state (data.X0). False when the
  // kind has no such form.
  virtual bool operator_capable() const { return false; }
  virtual void operator_rows(const ConstraintContext& c, OperatorRow* out) const {
    (void)c, (void)out;
  }

  // Power the constraint forces put in (drives); ideal constraints do no work.
  virtual double power(const ConstraintContext& c, const double* mu) const {
    (void)c, (void)mu;
    return 0.0;
  }
  // Its forces from its multipliers mu (rows() of them), added to out. Needs the position
  // kinematics at the state (data.X0).
  virtual void recover(const ConstraintContext& c, const double* mu,
                       ConstraintForces& out) const = 0;
};

}  // namespace articula
