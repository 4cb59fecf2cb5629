#pragma once
// Passive and prescribed forces (MuJoCo's passive and actuation forces): joint springs and
// dampers, force drives, on tree joints as generalized forces and on loop joints as equal and
// opposite wrenches on the joint's two bodies, and point-to-point spring-dampers as body forces.
// Also their power, dissipation and potential energy for the energy account.
#include <vector>

#include "core/algorithms/rnea.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

class AppliedForces {
 public:
  explicit AppliedForces(const Mechanism& mech);

  // Whether body forces exist (loop-joint springs or force drives, spring-dampers): then the
  // solvers take them as external forces and need the spatial kinematics.
  bool body_forces() const { return external_; }

  // Forces at (t, q, v) with the drive laws given. Runs forward_kinematics(q, v) in data when
  // there are body forces. Throws SetupError when a force drive is not finite.
  void evaluate(const std::vector<DriveBinding>& drives, double t, const VecX& q, const VecX& v,
                Data& data);

  const VecX& tree_tau() const { return tau_; }  // generalized forces on tree coordinates (nv)
  // Per model body, base coordinates, about the origin (NB+1); null without body forces.
  const ExternalForces* body() const { return external_ ? &f_ : nullptr; }
  // Per loop joint at the last evaluate: its coordinates, velocities, generalized force and the
  // wrench that carries it (successor joint frame; zero when no force acts).
  const VecN& loop_q(int l) const { return loop_q_[l]; }
  const VecN& loop_tau(int l) const { return loop_tau_[l]; }
  const Force& loop_wrench(int l) const { return loop_wrench_[l]; }

  // Power of the force drives and dissipation of the dampers at the last evaluate (v given).
  double power(const std::vector<DriveBinding>& drives, const VecX& v) const;
  double dissipation(const VecX& v) const;
  // Potential energy of the joint springs and spring-dampers at the last evaluate (q given).
  double potential(const VecX& q) const;

 private:
  void loop_forces(const std::vector<DriveBinding>& drives, double t, const Data& data);
  void loop_joint_velocity(int l, const Data& data);
  void spring_dampers(const Data& data);

  const Mechanism& mech_;
  double t_ = 0.0;
  bool loop_inputs_ = false, external_ = false;
  VecX tau_;
  ExternalForces f_;
  std::vector<VecN> loop_q_, loop_qd_, loop_tau_;
  std::vector<Force> loop_wrench_;
  std::vector<double> length_, rate_;  // per spring-damper: L and dL/dt
};

}  // namespace articula
