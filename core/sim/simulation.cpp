#include "core/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "core/algorithms/energy.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/sim/constraints/motion_drives.hpp"
#include "core/sim/diagnostics.hpp"
#include "core/sim/embedding/partition.hpp"

namespace articula {

namespace {
// Inside a catch block: a law that outran the step is the error named, else the one in flight.
[[noreturn]] void rethrow_explained(const std::string& outran) {
  if (!outran.empty()) throw SetupError(outran);
  throw;
}
}  // namespace

Integrator integrator_from_name(const std::string& name) {
  if (name == "rk4") return Integrator::RK4;
  if (name == "euler") return Integrator::Euler;
  if (name == "rk45") return Integrator::RK45;
  throw std::invalid_argument("unknown integrator '" + name + "' (known: rk4, euler, rk45)");
}

Simulation::Simulation(const Mechanism& mechanism, SimulationOptions options)
    : mech_(mechanism),
      model_(mechanism.model()),
      drives_(mechanism.drives),
      opt_(options),
      data_(model_),
      ws_(model_),
      applied_(mechanism),
      constraints_(mechanism, drives_),
      outputs_(mechanism) {
  check_fully_driven();
  init_unilaterals();
  constrained_ = !constraints_.tree_only();
  int motion_drives = 0, loop_drives = 0;
  for (const DriveBinding& d : drives_)
    if (d.kind == DriveSpec::Kind::Motion) ++motion_drives, loop_drives += d.v < 0;
  expected_rank_ = mech_.mobility.rank + motion_drives;
  SolverEnv env{mech_, data_, constraints_, drives_, 1.0 / opt_.stabilization_time};
  env.integrator = opt_.integrator;
  if (opt_.solver == SolverChoice::Embedding && !unilaterals_.empty())
    throw SetupError(
        "constraint embedding does not handle joint limits, contacts and friction yet (use auto, "
        "method2 or sparse)");
  solver_ = make_solver(env, opt_.solver, opt_.planar_algebra, applied_.body_forces());
  if (sliding_) solver_->keep_factors();  // slipping contacts re-solve at each state (friction)
  embedding_ = solver_->embedding();
  if (embedding_) stage_cache_.reset(model_, embedding_->independent());
  reporter_ = make_reporting_solver(env);
  if (!solver_->tells_unique_multipliers()) quick_reporter_ = make_quick_reporting_solver(env);
  active_ = solver_.get();
  projection_ = std::make_unique<ManifoldProjection>(mech_, constraints_, solver_->planar_model(),
                                                     solver_->planar_data(),
                                                     solver_->mass_weighted_projection());
  memo_on_ = !unilaterals_.empty() && !embedding_;
  f_ = [this](double t, const VecX& q, const VecX& v, VecX& qdd) {
    if (memo_on_ && recall(step_start_, t, q, v, qdd)) return;  // a trial step's first stage
    accelerations(t, q, v, qdd);
  };
  q_ = mech_.q0;
  qd_ = mech_.qd0;
  qdd_ = VecX::Zero(model_.nv);
  impose_tree_motion_drives(mech_, drives_, 0.0, q_, qd_);
  check_mass_matrix(mech_, q_, constraints_.prescribed_coordinates(), constrained_, "");
  if (loop_drives > 0 || !mech_.couplings.empty())  // those start on their law (q̇ too) as well
    projection_->project(drives_, data_, 0.0, mech_.closure_tolerance(opt_.projection_tolerance),
                         q_, qd_);
  if (!unilaterals_.empty()) settle_active_set();  // which limits and contacts hold at t = 0
  if (embedding_) embed_state(0.0, q_, qd_);
  const int rank = reporting_evaluation().rank();  // the rank check as evaluate() makes it
  if (constrained_) check_drives_independent(rank, "at t = 0");
  compute_energy();
  account_.set_reference(energy_.kinetic, energy_.potential);
  energy_.residual = 0.0;
}

namespace {
// The drive on user_joint, its law replaced by e (the expression then rules, not a motion law).
void replace_drive_law(std::vector<DriveBinding>& drives, int user_joint, Expression e) {
  for (DriveBinding& d : drives)
    if (d.user_joint == user_joint) {
      d.expression = std::move(e);
      d.law.reset();
      return;
    }
  throw std::invalid_argument("joint " + std::to_string(user_joint) + " has no drive");
}
}  // namespace

void Simulation::set_drive_expression(int user_joint, const std::string& expression) {
  replace_drive_law(drives_, user_joint, Expression::parse(expression));
  stage_cache_.clear();
  forget_solves();
}

void Simulation::set_drive_value(int user_joint, double value) {
  replace_drive_law(drives_, user_joint, Expression::constant(value));
  stage_cache_.clear();
  forget_solves();
}

void Simulation::restore(double t, const VecX& q, const VecX& qd, double work, double dissipated,
                         Stage upto) {
  if (q.size() != q_.size() || qd.size() != qd_.size() || !q.allFinite() || !qd.allFinite())
    throw SetupError("cannot restore a state of another model or a non-finite state");
  t_ = t;
  q_ = q;
  qd_ = qd;
  stage_cache_.clear();  // drive laws may have changed since
  forget_solves();
  account_.reset(work, dissipated);
  h_adaptive_ = 0.0;  // the error control starts afresh, as at t = 0
  if (restore_settles_ && !unilaterals_.empty()) {
    UnilateralState& s = unilaterals_;
    for (std::size_t k = 0; k < s.items.size(); ++k) s.closed[k] = 0, s.slip[k] = 0.0;
    settle_active_set();  // may project q̇ onto the joints now held (a stuck one's q̇ = 0)
  }
  if (upto == Stage::Full) return evaluate();
  if (upto == Stage::Motion) return outputs_.motion(data_, q_, qd_);
  // The stepping solver's, remembered (SolveMemo) without unilaterals too: the estimator places a
  // knot here and steps from it, and the step's first RK4 stage repeats this solve bit for bit.
  const bool memo = memo_on_;
  memo_on_ = !embedding_;
  try {
    accelerations(t_, q_, qd_, qdd_);
  } catch (...) {
    memo_on_ = memo;
    throw;
  }
  memo_on_ = memo;
  outputs_.motion(data_, q_, qd_, qdd_);
}

void Simulation::accelerations(double t, const VecX& q_in, const VecX& v_in, VecX& qdd) {
  const bool embedded = embedding_ && active_ == solver_.get();
  if (embedded) {  // a stage's state is its independent coordinates (and a guess for the rest)
    const auto* hit = stage_cache_.find_accelerations(t, q_in, v_in);
    if (hit && (hit->has_power || !account_.recording())) {
      qdd = hit->qdd;
      if (account_.recording()) account_.record(hit->power, hit->dissipation);
      return;
    }
    q_embedded_ = q_in;
    qd_embedded_ = v_in;
    embed_state(t, q_embedded_, qd_embedded_);
  } else if (recall(last_solve_, t, q_in, v_in, qdd)) {  // restore()'s solve, an event run's
    return;
  }
  const VecX& q = embedded ? q_embedded_ : q_in;
  const VecX& v = embedded ? qd_embedded_ : v_in;
  if (!memo_on_) last_solve_.valid = false;    // the solver's multipliers become another state's
  applied_.evaluate(drives_, t, q, v, data_);  // passive and force-drive inputs
  friction_dissipation_ = 0.0;
  const SolverInput in{t, q, v, friction_ ? add_friction(q, v) : applied_.tree_tau(),
                       applied_.body()};
  qdd = sliding_ ? accelerations_with_slip(in) : active_->accelerations(in);  // rows and the solve
  if (!qdd.allFinite()) bad_acceleration(t, q, v, qdd);
  EmbeddedStageCache::Result* keep = embedded ? &stage_cache_.remember_accelerations() : nullptr;
  if (keep) keep->qdd = qdd;
  if (!account_.recording() && !memo_on_) return;
  const double power = applied_.power(drives_, v) + active_->constraint_power(in);
  const double dissipation = applied_.dissipation(v) + friction_dissipation_;
  if (memo_on_) remember(t, q, v, qdd, power, dissipation);
  if (!account_.recording()) return;
  account_.record(power, dissipation);
  if (keep) keep->has_power = true, keep->power = power, keep->dissipation = dissipation;
}

namespace {
bool same_bits(const VecX& a, const VecX& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}
}  // namespace

// Whether m was evaluated with exactly these inputs (the comparison is bitwise, so a reuse gives
// bit for bit what solving again would).
bool Simulation::memo_matches(const SolveMemo& m, double t, const VecX& q, const VecX& v) const {
  const UnilateralState& s = unilaterals_;
  return m.valid && m.solver == active_ && std::memcmp(&m.t, &t, sizeof t) == 0 &&
         m.stacked == constraints_.rows() && m.closed == s.closed && m.rows == s.rows &&
         same_bits(m.q, q) && same_bits(m.v, v) && m.slip.size() == s.slip.size() &&
         (s.slip.empty() ||  // memcmp must not see the null data of an empty vector
          std::memcmp(m.slip.data(), s.slip.data(), sizeof(double) * s.slip.size()) == 0);
}

// q̈ (and the power for the step's energy account) from m when it was evaluated at these inputs.
bool Simulation::recall(const SolveMemo& m, double t, const VecX& q, const VecX& v, VecX& qdd) {
  if (!memo_matches(m, t, q, v)) return false;
  qdd = m.qdd;
  if (account_.recording()) account_.record(m.power, m.dissipation);
  return true;
}

void Simulation::remember(double t, const VecX& q, const VecX& v, const VecX& qdd, double power,
                          double dissipation) {
  const UnilateralState& s = unilaterals_;
  SolveMemo& m = last_solve_;
  m.valid = true, m.solver = active_, m.t = t, m.power = power, m.dissipation = dissipation;
  m.stacked = constraints_.rows();
  m.q = q, m.v = v, m.qdd = qdd;
  m.closed = s.closed, m.slip = s.slip, m.rows = s.rows;
}

void Simulation::step(double h, Integrator integrator) {
  if (integrator == Integrator::RK45) {
    advance(t_ + h, 1e-8, 1e-10, h);
    return;
  }
  if (unilaterals_.empty())
    plain_step(h, integrator);
  else
    step_with_events(h, integrator);
}

void Simulation::plain_step(double h, Integrator integrator) {
  save_state(h, integrator);
  account_.begin_step();
  try {
    if (integrator == Integrator::RK4) {
      rk4_step(model_, f_, t_, h, q_, qd_, ws_);
      account_.commit_rk4(h);                     // the same quadrature as the states
    } else if (integrator == Integrator::RK45) {  // one Dormand-Prince step of h, as sized
      dopri5_attempt(model_, f_, t_, h, q_, qd_, rtol_, atol_, q_try_, qd_try_, *aws_);
      account_.commit_dopri5(h);
      q_ = q_try_, qd_ = qd_try_;
    } else {
      euler_step(model_, f_, t_, h, q_, qd_, ws_);
      account_.commit_euler(h);
    }
  } catch (...) {  // a stage failed (bad drive value, singular dynamics): keep the last state
    const std::string outran = drive_outran_step(mech_, drives_, saved_.t, saved_.t + h);
    restore_state();
    rethrow_explained(outran);
  }
  account_.end_step();
  t_ += h;
  finish_step();
}

void Simulation::finish_step() {
  try {
    if (!q_.allFinite() || !qd_.allFinite()) bad_state();
    if (embedding_) {  // minimal coordinates: the dependent ones solved for, no projection
      embed_state(t_, q_, qd_);
      monitor_embedding();
      return;
    }
    impose_tree_motion_drives(mech_, drives_, t_, q_, qd_);  // driven coordinates follow exactly
    if (constrained_ && project_steps_)
      projection_->project(drives_, data_, t_, mech_.closure_tolerance(opt_.projection_tolerance),
                           q_, qd_);
    if (!q_.allFinite() || !qd_.allFinite()) bad_state();
  } catch (...) {
    const std::string outran = drive_outran_step(mech_, drives_, saved_.t, t_);
    restore_state();  // the run stops at the last good state
    rethrow_explained(outran);
  }
}

void Simulation::advance(double t_end, double rtol, double atol, double max_step) {
  if (!aws_) aws_ = std::make_unique<AdaptiveWorkspace>(model_);
  if (h_adaptive_ <= 0.0) h_adaptive_ = std::min(max_step, 1e-3);
  rtol_ = rtol, atol_ = atol;
  while (t_ < t_end - 1e-12 * std::max(1.0, std::abs(t_end))) {
    const double h = adaptive_step_size(t_end, max_step);
    if (!unilaterals_.empty()) {  // the event stepper takes the step error control sized
      step_with_events(h, Integrator::RK45);
      continue;
    }
    save_state(h, Integrator::RK45);
    account_.commit_dopri5(h);  // the accepted attempt's stages, recorded in q_try_'s pass
    q_ = q_try_;
    qd_ = qd_try_;
    t_ += h;
    finish_step();
  }
}

// The next step's size under error control (attempts on copies; the state is not advanced):
// Dormand-Prince's embedded error, the standard controller (safety 0.9, growth in [0.2, 5]).
double Simulation::adaptive_step_size(double t_end, double max_step) {
  for (;;) {
    const double h = std::min({h_adaptive_, max_step, t_end - t_});
    account_.begin_step();
    double err = 0.0;
    try {
      err = dopri5_attempt(model_, f_, t_, h, q_, qd_, rtol_, atol_, q_try_, qd_try_, *aws_);
    } catch (...) {
      account_.end_step();
      throw;
    }
    account_.end_step();
    const double factor = err > 0 ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0) : 5.0;
    if (err <= 1.0) {
      ++accepted_;
      h_adaptive_ = h * factor;
      return h;
    }
    ++rejected_;
    h_adaptive_ = h * std::min(factor, 0.9);
    if (h_adaptive_ < 1e-12 * std::max(1.0, t_))
      throw SetupError("at t = " + std::to_string(t_) +
                       " the adaptive integrator needs a step below 1e-12 s: the motion is "
                       "singular or the tolerances too tight");
  }
}

// Reported joint forces are the minimum-norm split over redundant rows (spatial Method 2). Where
// the stepping solver's multipliers (or else the operator solver's) are unique they are that
// split, and Method 2 is not run: on issue 17's 1,000-body ladder it cost 0.24 s per reported
// sample, four RK4 steps of the operator solver.
const DynamicsSolver& Simulation::reporting_evaluation() {
  DynamicsSolver* quick =
      solver_->tells_unique_multipliers() ? solver_.get() : quick_reporter_.get();
  for (DynamicsSolver* s : {quick, reporter_.get()}) {
    if (!s) continue;
    active_ = s;
    try {
      accelerations(t_, q_, qd_, qdd_);
    } catch (...) {
      active_ = solver_.get();
      if (s == reporter_.get()) throw;  // Method 2's diagnosis names the joints
      continue;
    }
    active_ = solver_.get();
    if (s == reporter_.get() || s->multipliers_unique()) return *s;
  }
  return *reporter_;
}

void Simulation::evaluate() {
  const DynamicsSolver& reported = reporting_evaluation();
  if (constrained_)
    check_drives_independent(reported.rank(), ("at t = " + std::to_string(t_)).c_str());
  forward_kinematics(model_, data_, q_);  // positions for the forces' frames
  if (mech_.has_loops()) {
    VecX delta;
    loop_position_errors(model_, data_, mech_.compiled.loops, delta);
    loop_error_ = delta.size() ? delta.cwiseAbs().maxCoeff() : 0.0;
  }
  ConstraintContext c{mech_, drives_, data_};
  c.t = t_;
  c.q = &q_;
  c.qd = &qd_;
  constraints_.recover(c, reported.multipliers(), forces_);
  outputs_.compute(data_, t_, q_, qd_, qdd_, applied_, forces_);
  record_gaps();
  compute_energy();
}

void Simulation::compute_energy() {
  // Needs the applied forces at the current state (spring-damper lengths, loop-joint coordinates).
  forward_kinematics(model_, data_, q_, qd_);
  const double V = potential_energy(model_, data_) + applied_.potential(q_);
  energy_ = account_.balance(kinetic_energy(model_, data_), V, outputs_.drive_power(drives_));
}

}  // namespace articula
