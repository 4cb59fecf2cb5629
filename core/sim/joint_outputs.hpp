#pragma once
// What a run reports per user joint (file order, loop joints included): coordinates, velocities,
// accelerations, the generalized force of its drive and spring, and the wrench the parent exerts
// on the child through the joint; from the tree's inverse dynamics (RNEA with the constraint
// and applied body forces as external forces) and the loop joints' relative motion.
#include <vector>

#include "core/sim/applied_forces.hpp"
#include "core/sim/constraints/constraint_kind.hpp"

namespace articula {

// One joint's coordinates: up to 7 (a free joint's position and unit quaternion).
using JointCoords = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 7, 1>;

struct JointState {
  JointCoords q;      // the joint's nq coordinates
  VecN qd, qdd, tau;  // its nv velocities, accelerations and generalized forces
};

class JointOutputs {
 public:
  explicit JointOutputs(const Mechanism& mech);

  // At (q, q̇, q̈) with the constraint forces recovered there (their body forces and loop-joint
  // wrenches) and the applied forces evaluated there. A motion-driven tree joint's τ is its
  // inverse-dynamics force. Throws SetupError when the joint forces are not finite.
  void compute(Data& data, double t, const VecX& q, const VecX& qd, const VecX& qdd,
               const AppliedForces& applied, const ConstraintForces& constraint);

  // Only the joints' q, q̇, q̈ at (q, q̇, q̈) (forward kinematics, no forces): τ, the wrenches
  // and tau() keep their last values.
  void motion(Data& data, const VecX& q, const VecX& qd, const VecX& qdd);
  // Only q and q̇ (forward kinematics to velocities): q̈ keeps its last value too. What the
  // Motion stage of Simulation::restore evaluates.
  void motion(Data& data, const VecX& q, const VecX& qd);

  const std::vector<JointState>& joints() const { return joints_; }
  // Per user joint, [moment about the joint origin; force] in child joint-frame coordinates.
  const std::vector<Force>& wrench() const { return wrench_; }
  const VecX& tau() const { return tau_; }  // RNEA's generalized forces (nv)
  // Σ τ·q̇ over driven joints: the drives' power at this instant.
  double drive_power(const std::vector<DriveBinding>& drives) const;

 private:
  void tree_wrenches(const Data& data);
  void loop_joint_motion(const Data& data, int l, JointState& out, bool accelerations) const;
  void tree_joint_motion(int i, const VecX& q, const VecX& qd, const VecX& qdd,
                         JointState& out) const;

  const Mechanism& mech_;
  std::vector<bool> driven_body_;  // per model body: its tree joint is motion-driven
  ExternalForces f_total_;
  VecX tau_;
  std::vector<Force> wrench_;
  std::vector<JointState> joints_;
};

}  // namespace articula
