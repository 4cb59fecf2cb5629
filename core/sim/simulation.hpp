#pragma once
// Time simulation of a prepared mechanism. Trees without loops use articulated-body hybrid
// dynamics (RBDA Table 9.3) with motion-driven joints as inverse-dynamics joints. Mechanisms with
// loops solve the tree equations with the loop constraints and the motion drives as constraints
// (RBDA 8.5 Method 2, constrained_dynamics), with Baumgarte stabilisation (Eqs. 8.21-8.23) and a
// projection of q and q̇ back onto the constraint manifold after every step.
#include <memory>
#include <string>
#include <vector>

#include "core/algorithms/constrained_dynamics.hpp"
#include "core/algorithms/planar_dynamics.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/algorithms/sparse_dynamics.hpp"
#include "core/model/data.hpp"
#include "core/sim/integrators.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

enum class Integrator { RK4, Euler, RK45 };
// "rk4", "euler" or "rk45"; throws std::invalid_argument listing the known names otherwise.
Integrator integrator_from_name(const std::string& name);

struct SimulationOptions {
  // Baumgarte time constant T_stab (α = β = 1/T_stab, RBDA Eq. 8.21): errors decay over ~T_stab.
  double stabilization_time = 0.05;
  // Loop error after projection; a step that cannot reach it stops the run.
  double projection_tolerance = 1e-12;
  // Pure inverse dynamics (kinematic analysis): every degree of freedom must be prescribed by a
  // motion drive; an under-actuated mechanism is refused with the free joints named.
  bool require_fully_driven = false;
  // Planar mechanisms run the loop solve in planar vectors (RBDA 2.16) where they can; false
  // keeps the spatial algorithms (the two agree to round-off: a cross-check, not a choice).
  bool planar_algebra = true;
};

class Simulation {
 public:
  // Throws SetupError when the mechanism cannot be simulated (over-determining drives).
  explicit Simulation(const Mechanism& mechanism, SimulationOptions options = {});

  // Replace the law of an existing drive between steps (same kind: motion or force). A motion
  // drive takes its new value at the next step; loops are re-closed by the projection. Throws
  // std::invalid_argument for an unknown joint or a kind change, ExpressionError for bad text.
  void set_drive_expression(int user_joint, const std::string& expression);

  // Continues from a recorded state (the GUI's play after scrubbing back): time, coordinates
  // and the energy account at that instant. Drive laws stay as they are now. The state must be
  // one this simulation produced (it is not re-assembled); throws SetupError on a size mismatch.
  void restore(double t, const VecX& q, const VecX& qd, double work, double dissipated);

  double time() const { return t_; }
  const VecX& q() const { return q_; }
  const VecX& qd() const { return qd_; }
  // One step; throws SetupError if the loops cannot be kept closed or the state goes bad.
  // (RK45 here takes one error-controlled step of at most h; use advance() to reach a time.)
  void step(double h, Integrator integrator);
  // Error-controlled Dormand-Prince 5(4) steps until time t_end (relative/absolute tolerances on
  // q and q̇, steps no longer than max_step), projecting after each accepted step.
  void advance(double t_end, double rtol, double atol, double max_step);
  int accepted_steps() const { return accepted_; }
  int rejected_steps() const { return rejected_; }

  // Accelerations, generalized forces and joint wrenches at the current state. The wrench of
  // user joint j is the total force the parent exerts on the child through the joint, in child
  // joint-frame coordinates, [moment about the joint origin; force]. Loop joints included.
  void evaluate();
  const VecX& qdd() const { return qdd_; }
  const VecX& tau() const { return tau_; }
  const std::vector<Force>& wrench() const { return wrench_; }
  // Per user joint (file order), loop joints included: coordinates, velocities, accelerations
  // and the generalized force of its drive and spring (RBDA 8.x: loop joints have no tree
  // coordinates, theirs are recovered from the relative motion of their frames).
  struct JointState {
    VecN q, qd, qdd, tau;
  };
  const std::vector<JointState>& joint_states() const { return joints_; }
  double loop_error() const { return loop_error_; }  // max |δ| at the last evaluate()

  // Energy bookkeeping (at the last evaluate()): kinetic, potential (gravity and springs), work
  // done by drives and applied forces since t = 0, energy dissipated by dampers, and the balance
  // residual T + V - (T0 + V0) - W + D, which is zero for an exact integration.
  struct Energy {
    double kinetic = 0, potential = 0, work = 0, dissipated = 0, residual = 0;
    double power = 0;  // drive and applied-force power at this instant
  };
  const Energy& energy() const { return energy_; }
  const Mechanism& mechanism() const { return mech_; }

 private:
  void accelerations(double t, const VecX& q, const VecX& v, VecX& qdd);
  void constrained_accelerations(double t, const VecX& q, const VecX& v, VecX& qdd);
  bool sparse_accelerations(const VecX& q, const VecX& v, VecX& qdd);  // RBDA 8.13
  void impose_motion_drives(double t, VecX& q, VecX& qd) const;
  void project(VecX& q, VecX& qd);
  void applied_forces(double t, const VecX& q, const VecX& v);
  void check_drives_independent(const char* when);
  void loop_wrenches();
  void joint_outputs();
  void record_power(const VecX& v);
  void compute_energy();
  void loop_joint_motion(const LoopJoint& l, JointState& out) const;
  void loop_joint_velocity(const LoopJoint& l, VecN& q, VecN& qd) const;
  void loop_applied_forces(double t);
  void spring_damper_forces();
  // A motion drive on a 1-DoF loop joint: its coordinate q_l = P v_rel-rate is constrained.
  struct LoopDrive {
    int drive = 0, loop = 0;
    Force P = Force::Zero();  // q̇_l = P^T v_rel (successor coordinates)
    double q = 0, qd = 0, bias = 0, mu = 0;
  };
  void loop_drive_terms(LoopDrive& ld) const;
  double loop_drive_error(const LoopDrive& ld, double t) const;
  double loop_drive_rhs(const LoopDrive& ld, double a) const;  // Method 2's g of its row

  const Mechanism& mech_;
  const Model& model_;
  std::vector<DriveBinding> drives_;  // a copy: laws may change between steps
  SimulationOptions opt_;
  Data data_;
  IntegratorWorkspace ws_;
  AccelerationFn f_;
  std::vector<bool> fd_;
  std::vector<int> driven_v_;  // velocity coordinates of motion-driven tree joints
  std::vector<LoopDrive> loop_drives_;
  bool constrained_ = false;
  int expected_rank_ = 0;  // rank(K) + number of motion drives
  VecX q_, qd_, qdd_, tau_, tau_in_, qdd_in_;
  VecX delta_, k_, g_;
  MatX K_, G_;
  ConstrainedDynamicsWork cd_;
  std::unique_ptr<PlanarData> planar_;  // set when the planar loop solve applies
  SparseDynamicsWork sparse_;           // mech_.sparse's workspace, and its drive inputs
  VecX sparse_qdd_;
  std::vector<Force> sparse_P_;
  std::vector<double> sparse_g_;
  std::vector<Force> wrench_;
  std::vector<JointState> joints_;
  ExternalForces f_loop_;
  // Springs and force drives on loop joints act as equal and opposite wrenches on the joint's
  // two bodies: f_applied_ (base coordinates, per body) and, per loop, the joint-frame wrench and
  // generalized force.
  bool loop_forces_ = false;
  bool external_forces_ = false;             // loop-joint forces or spring-dampers present
  std::vector<double> sd_length_, sd_rate_;  // per spring-damper: L and dL/dt at the last call
  ExternalForces f_total_;
  ExternalForces f_applied_;
  std::vector<Force> loop_applied_wrench_;
  std::vector<VecN> loop_tau_, loop_q_, loop_qd_;
  double loop_error_ = 0.0;
  // Power at each integrator stage, combined with the integrator's own weights.
  double stage_power_[7] = {}, stage_dissipation_[7] = {};
  int stage_ = -1;  // -1: not inside a step
  double work_ = 0.0, dissipated_ = 0.0, initial_energy_ = 0.0;
  Energy energy_;
  double t_ = 0.0;
  double last_t_ = 0.0;
  double h_adaptive_ = 0.0;  // step size the error control proposes next
  int accepted_ = 0, rejected_ = 0;
  std::unique_ptr<AdaptiveWorkspace> aws_;
  VecX q_try_, qd_try_;
  MatX proj_J_, proj_JJt_;  // projection workspace (no allocation per step)
  VecX proj_e_, proj_y_, proj_dq_, proj_yc_;
  std::vector<int> proj_rows_;  // rows of J the solve keeps (not negligibly small)
  PivotedLdlt proj_ldlt_;
  void finish_step();
  // Failures with a diagnosis (SetupError): the quantity that went bad, where, and why.
  struct Saved {
    VecX q, qd;
    double t = 0, work = 0, dissipated = 0, h = 0;
    Integrator integrator = Integrator::RK4;
  } saved_;  // the state before the step in progress
  void save_state(double h, Integrator integrator);
  void restore_state();
  void check_mass_matrix(const VecX& q, const std::string& when);
  [[noreturn]] void bad_drive(const DriveBinding& d, double t, const char* quantity) const;
  [[noreturn]] void bad_acceleration(double t, const VecX& q, const VecX& v, const VecX& qdd);
  std::string divergence_advice();
  [[noreturn]] void bad_state();
};

}  // namespace articula
