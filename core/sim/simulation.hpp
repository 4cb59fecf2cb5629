#pragma once
// Time simulation of a prepared mechanism, as a short orchestrator over stages (in the spirit of
// MuJoCo's mj_forward): applied forces (applied_forces.hpp), the constraint set and its kinds
// (constraints/), a dynamics solver chosen once (solvers/), the integrators, the projection onto
// the constraint manifold (projection.hpp), the energy account (energy_account.hpp) and the
// per-joint outputs (joint_outputs.hpp). Trees without constraints use articulated-body hybrid
// dynamics (RBDA Table 9.3); loops, drives and couplings are constraint rows solved by RBDA 8.5
// Method 2 or 8.13, with Baumgarte stabilisation (Eqs. 8.21-8.23) and a projection after every
// step.
#include <memory>
#include <string>
#include <vector>

#include "core/model/data.hpp"
#include "core/sim/applied_forces.hpp"
#include "core/sim/constraints/constraint_set.hpp"
#include "core/sim/contact/unilateral.hpp"
#include "core/sim/embedding/stage_cache.hpp"
#include "core/sim/energy_account.hpp"
#include "core/sim/evaluation_stage.hpp"
#include "core/sim/integrators.hpp"
#include "core/sim/joint_outputs.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/projection.hpp"
#include "core/sim/solvers/dynamics_solver.hpp"

namespace articula {

namespace event_location {
struct StepStart;
struct StepPath;
}  // namespace event_location

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
  // The dynamics solver (contract-additions-2 §3); a forced one that does not apply throws.
  SolverChoice solver = SolverChoice::Auto;
  // The integrator the run will step with: auto weighs the embedding's step by it (its Euler
  // step has no projection to save, the others' has). step() may still be given another.
  Integrator integrator = Integrator::RK4;
};

class Simulation {
 public:
  using JointState = articula::JointState;
  using Energy = articula::Energy;

  // Throws SetupError when the mechanism cannot be simulated (over-determining drives, a solver
  // forced where it does not apply).
  explicit Simulation(const Mechanism& mechanism, SimulationOptions options = {});
  // The mechanism must outlive the simulation: a temporary would dangle.
  explicit Simulation(Mechanism&&, SimulationOptions = {}) = delete;

  // Replace the law of an existing drive between steps (same kind: motion or force). A motion
  // drive takes its new value at the next step; loops are re-closed by the projection. Throws
  // std::invalid_argument for an unknown joint or a kind change, ExpressionError for bad text.
  void set_drive_expression(int user_joint, const std::string& expression);
  // The same with the constant `value` (no text to parse: the estimator sets a force per trial).
  void set_drive_value(int user_joint, double value);

  // Off: steps leave the loop closure as the integrator does (RK4's error, ~1e-13 m per 1 ms
  // step from a closed state) instead of projecting after each: for a caller that re-closes
  // the loops itself (the estimator places every knot anew). On by default.
  void set_step_projection(bool on) { project_steps_ = on; }
  // On: restore() decides afresh, from the restored state alone as at t = 0, which joint limits,
  // contacts and friction joints hold (a friction joint at rest, |q̇| <= 1e-6, sticks while its
  // force stays within the Coulomb level; a moving one slips the way it moves), instead of
  // keeping what the last step left: for a caller that restores states of its own making (the
  // estimator places every knot anew). Off by default (a recorded state continues as it was).
  void set_restore_settles(bool on) { restore_settles_ = on; }

  using Stage = EvaluationStage;  // how far restore() evaluates (core/sim/evaluation_stage.hpp)

  // Continues from a recorded state (the GUI's play after scrubbing back): time, coordinates
  // and the energy account at that instant. Drive laws stay as they are now. The state must be
  // one this simulation produced (it is not re-assembled); throws SetupError on a size mismatch.
  void restore(double t, const VecX& q, const VecX& qd, double work, double dissipated,
               Stage upto = Stage::Full);

  double time() const { return t_; }
  const VecX& q() const { return q_; }
  const VecX& qd() const { return qd_; }
  // One step; throws SetupError if the loops cannot be kept closed or the state goes bad.
  // (RK45 here takes one error-controlled step of at most h; use advance() to reach a time.)
  void step(double h, Integrator integrator);
  // Error-controlled Dormand-Prince 5(4) steps until time t_end (relative/absolute tolerances on
  // q and q̇, steps no longer than max_step), projecting after each accepted step. With limits
  // and contacts, events inside an accepted step are located as in step().
  void advance(double t_end, double rtol, double atol, double max_step);
  int accepted_steps() const { return accepted_; }
  // Events located inside steps (impacts, lift-offs, stick, slip...) and the trial steps their
  // root finding took, since construction (issue 16: the walker's cost per event).
  int located_events() const { return located_events_; }
  int event_trials() const { return event_trials_; }
  int rejected_steps() const { return rejected_; }

  // Accelerations, generalized forces and joint wrenches at the current state. The wrench of
  // user joint j is the total force the parent exerts on the child through the joint, in child
  // joint-frame coordinates, [moment about the joint origin; force]. Loop joints included.
  void evaluate();
  const VecX& qdd() const { return qdd_; }
  const VecX& tau() const { return outputs_.tau(); }
  const std::vector<Force>& wrench() const { return outputs_.wrench(); }
  // Per user joint (file order), loop joints included: coordinates, velocities, accelerations
  // and the generalized force of its drive and spring (RBDA 8.x: loop joints have no tree
  // coordinates, theirs are recovered from the relative motion of their frames).
  const std::vector<JointState>& joint_states() const { return outputs_.joints(); }
  // Per coupling (file order), at the last evaluate(): the generalized force on its joint B.
  const std::vector<double>& coupling_forces() const { return forces_.coupling_tau; }
  double loop_error() const { return loop_error_; }  // max |δ| at the last evaluate()

  // Energy bookkeeping (at the last evaluate()): kinetic, potential (gravity and springs), work
  // done by drives and applied forces since t = 0, energy dissipated by dampers, and the balance
  // residual T + V - (T0 + V0) - W + D, which is zero for an exact integration.
  const Energy& energy() const { return energy_; }
  const Mechanism& mechanism() const { return mech_; }

  // Joint limits and contacts (RBDA 11): which are closed, their forces λ (>= 0, at the last
  // evaluate()) and their gaps φ (at the last evaluate()).
  const UnilateralState& unilaterals() const { return unilaterals_; }
  const std::vector<double>& gaps() const { return gaps_; }
  // Impacts and lift-offs since the last call, in time order, located to 1e-12 s.
  struct ContactEvent {
    double t = 0.0;
    std::string name;  // joint (limits) or contact
    std::string kind;  // "impact", "lift_off", "stick", "slip", "engage" or "release"
    double impulse = 0.0;
  };
  std::vector<ContactEvent> take_events();
  const char* solver_name() const { return solver_->name(); }  // the solver stepping the run
  // The constraint embedding stepping the run in minimal coordinates (--solver embedding), or
  // null.
  const ConstraintEmbedding* embedding() const { return embedding_; }

 private:
  void accelerations(double t, const VecX& q, const VecX& v, VecX& qdd);
  // An accelerations() evaluation of an event-driven run (limits, contacts): its inputs (bit for
  // bit: solver, time, state, active set and slip directions, stacked rows) and what the steps
  // take from it (q̈, power, dissipation). The event functions at a step's end are evaluated at
  // the state the next step starts from, where its event functions and first RK4 stage evaluate
  // again, and every trial step of the root finding starts from the step's start: those repeat
  // a solve already made (issue 16, the walker), and take its results instead.
  struct SolveMemo {
    bool valid = false;
    const DynamicsSolver* solver = nullptr;
    double t = 0.0, power = 0.0, dissipation = 0.0;
    int stacked = 0;
    VecX q, v, qdd;
    std::vector<char> closed;
    std::vector<double> slip;
    std::vector<int> rows;
  };
  bool memo_on_ = false;  // unilaterals and no embedding
  // The last solve (the solver, its multipliers, the slips and forces are still its own), and
  // the one at the start of the step in progress (for its trial steps' first stage only).
  SolveMemo last_solve_, step_start_;
  bool memo_matches(const SolveMemo& m, double t, const VecX& q, const VecX& v) const;
  bool recall(const SolveMemo& m, double t, const VecX& q, const VecX& v, VecX& qdd);
  void remember(double t, const VecX& q, const VecX& v, const VecX& qdd, double power,
                double dissipation);
  void forget_solves() { last_solve_.valid = step_start_.valid = false; }
  // Constraint embedding (simulation_embedding.cpp): the integrators step the independent
  // coordinates; every stage and step takes the dependent ones from the position solve.
  void embed_state(double t, VecX& q, VecX& qd);
  void monitor_embedding();
  ConstraintEmbedding* embedding_ = nullptr;
  VecX q_embedded_, qd_embedded_;
  EmbeddedStageCache stage_cache_;  // the last closed stage state and its accelerations
  void check_fully_driven() const;
  void check_drives_independent(int rank, const char* when) const;
  // q̈ at the current state by the solver whose multipliers are reported (see evaluate()).
  const DynamicsSolver& reporting_evaluation();
  void finish_step();
  void compute_energy();

  const Mechanism& mech_;
  const Model& model_;
  std::vector<DriveBinding> drives_;  // a copy: laws may change between steps
  SimulationOptions opt_;
  Data data_;
  IntegratorWorkspace ws_;
  AccelerationFn f_;
  AppliedForces applied_;
  UnilateralState unilaterals_;  // before constraints_: its row kind refers to it
  std::vector<double> gaps_;
  std::vector<ContactEvent> events_;
  bool friction_ = false;        // some joint has friction: add_friction() in accelerations()
  bool loop_friction_ = false;   // ... some of them loop joints
  bool sliding_ = false;         // some contact has friction: accelerations_with_slip()
  VecX tau_friction_;            // applied generalized forces plus joint friction
  VecX tau_slip_;                // ... plus the slipping contacts' friction (generalized, nv)
  Eigen::RowVectorXd loop_row_;  // a loop joint's relative velocity row (nv), for its friction
  double friction_dissipation_ = 0.0;  // power taken by friction at the last accelerations()
  // A slipping contact at the last accelerations(): its primary slide, the generalized direction
  // of its friction per unit normal force -(ŝ·J_t)ᵀ (nv), μ (a slot's: μ side, as its friction is
  // μ |λ_n|), ŝ over its tangents, and ŝ·w.
  struct Slip {
    int item = -1;
    VecX d;
    double mu = 0.0;
    Eigen::Vector2d dir = Eigen::Vector2d::Zero();
    double speed = 0.0;
  };
  std::vector<Slip> slips_;
  // A slide pair's sliding velocity w, κ (per tangent; the second 0 in a plane) and rows J_t.
  struct SlideMotion {
    Eigen::Vector2d w = Eigen::Vector2d::Zero(), bias = Eigen::Vector2d::Zero();
    MatX J;
  };
  ConstraintSet constraints_;
  std::unique_ptr<DynamicsSolver> solver_;    // steps the run
  std::unique_ptr<DynamicsSolver> reporter_;  // spatial, minimum-norm: reported forces
  // The operator solver, asked before reporter_ when the stepping solver cannot tell whether its
  // multipliers are unique (null where it does not apply): O(N m) against Method 2's dense H.
  std::unique_ptr<DynamicsSolver> quick_reporter_;
  DynamicsSolver* active_ = nullptr;  // the one accelerations() uses now
  std::unique_ptr<ManifoldProjection> projection_;
  EnergyAccount account_;
  JointOutputs outputs_;
  ConstraintForces forces_;
  bool constrained_ = false;
  bool project_steps_ = true;     // set_step_projection
  bool restore_settles_ = false;  // set_restore_settles
  int expected_rank_ = 0;         // rank(K) + number of motion drives
  VecX q_, qd_, qdd_;
  double loop_error_ = 0.0;
  Energy energy_;
  double t_ = 0.0;
  double h_adaptive_ = 0.0;            // step size the error control proposes next
  double rtol_ = 1e-8, atol_ = 1e-10;  // the adaptive integrator's tolerances (advance())
  double adaptive_step_size(double t_end, double max_step);
  int accepted_ = 0, rejected_ = 0;
  std::unique_ptr<AdaptiveWorkspace> aws_;
  VecX q_try_, qd_try_;
  // Failures with a diagnosis (SetupError): the quantity that went bad, where, and why.
  struct Saved {
    VecX q, qd;
    double t = 0, work = 0, dissipated = 0, impact_loss = 0, h = 0;
    Integrator integrator = Integrator::RK4;
  } saved_;  // the state before the step in progress
  void save_state(double h, Integrator integrator);
  // Limits and contacts (simulation_contacts.cpp): an event-driven step (impacts and lift-offs
  // located by root finding, RBDA 11.7 impulses, the active set from the contact LCP).
  enum class EventKind { Impact, LiftOff, Stick, Slip, Engage, Release };
  struct PendingEvent {
    int item = -1;
    EventKind kind = EventKind::Impact;
    double end_value = 0.0;
  };
  void handle_event(const PendingEvent& e);
  const VecX& add_friction(const VecX& q, const VecX& v);
  double joint_rate(const Unilateral& u, const VecX& q, const VecX& v);
  // Contact friction (simulation_friction.cpp).
  const VecX& accelerations_with_slip(const SolverInput& in);
  double row_multiplier(int item) const;
  SlideMotion slide_motion(int primary, const VecX& q, const VecX& v);
  Eigen::Vector2d slip_direction(int primary, const SlideMotion& m) const;
  bool slipping(int k) const;
  [[noreturn]] void painleve(double t) const;
  void refresh_slip_directions();
  Eigen::Vector2d stuck_force(int primary) const;
  void toggle_slide(int primary);
  bool slide_violated(int primary, double ltol, double atol);
  bool candidate_violated(int k, double ltol, double& lambda);
  void rest_slide(int primary, std::vector<int>& cand);
  double slide_event_value(int primary);
  // Slots with friction (simulation_friction.cpp): the normal force μ bounds, the pressed wall.
  double normal_force(int slide) const;
  double side_tolerance() const;
  void flip_slot_side(int slide);
  bool slot_side_event(int slide);
  bool slot_sides_agree(double ltol, std::vector<int>& cand);
  void init_unilaterals();
  void check_cam(const Unilateral& u) const;
  bool row_adds_rank(int item);
  bool start_in_slot(const Unilateral& u) const;
  void check_slot_depth(const Unilateral& u, double depth) const;
  double slot_event_value(int k);
  void plain_step(double h, Integrator integrator);
  void step_with_events(double h, Integrator integrator);
  void event_values(std::vector<double>& out);
  bool next_event(const std::vector<double>& start, PendingEvent& e);
  double event_value(const PendingEvent& e);
  // Root finding of an event inside a step (event_location.cpp).
  bool locate_event(const PendingEvent& e, const event_location::StepStart& s0, double left,
                    event_location::StepPath path, Integrator integrator);
  bool event_guess(const PendingEvent& e, const event_location::StepPath& p, double& guess,
                   double& slope);
  double solve_free_event_value(const PendingEvent& e);
  int located_events_ = 0, event_trials_ = 0;
  void impact(int item);
  void come_to_rest(int item);
  double closed_gap();
  double mechanical_energy();
  void settle_active_set();
  std::vector<int> rest_candidates();
  void record_gaps();
  void restore_state();
  [[noreturn]] void bad_acceleration(double t, const VecX& q, const VecX& v, const VecX& qdd);
  std::string divergence_advice();
  [[noreturn]] void bad_state();
};

}  // namespace articula
