#include "core/estimation/state_space.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithms/assembly.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/runner.hpp"

namespace articula {

namespace {
void check_supported(const Mechanism& mech) {
  const MechanismSpec& spec = mech.spec;
  auto refuse = [](const std::string& what) {
    throw SetupError("estimation does not handle " + what + " yet");
  };
  if (!spec.couplings.empty()) refuse("joint couplings (\"" + spec.couplings[0].name + "\")");
  if (!spec.contacts.empty()) refuse("contacts (\"" + spec.contacts[0].name + "\")");
  for (const JointSpec& js : spec.joints)
    if (js.limits) refuse("joint limits (joint \"" + js.name + "\")");
  for (const JointSpec& js : spec.joints)
    if (js.drive && js.drive->unknown && mech.compiled.joint_map[&js - &spec.joints[0]].loop)
      refuse("an unknown drive on a loop joint (\"" + js.name + "\")");
}
}  // namespace

StateSpace::StateSpace(const Mechanism& mech)
    : mech_(mech),
      data_(mech.model()),
      sensors_(mech),
      qd_(VecX::Zero(mech.model().nv)),
      quaternions_(mech.model().nq != mech.model().nv) {
  check_supported(mech);
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j)
    if (mech.spec.joints[j].drive && mech.spec.joints[j].drive->unknown)
      unknown_joints_.push_back(static_cast<int>(j));
  choose_independent();
  if (independent_.empty())
    throw SetupError("nothing to estimate: every coordinate is prescribed by a motion drive");
  sim_ = std::make_unique<Simulation>(mech);
  sim_->set_step_projection(false);  // every knot is placed anew, its loops closed to 1e-12
  // Joint friction as the simulator has it (exact stick and slip): each placement decides from
  // the knot's own velocities which joints stick, not from the previous placement's step.
  sim_->set_restore_settles(true);
  step_ = run_options_from(mech.spec).step;
}

// Free coordinates (not motion-driven) that the loops leave free. Greedily, the other free
// columns of K become dependent while they add to its rank (relative threshold 1e-9); the rest
// are independent. Coordinates of unknown drives come last, so they stay independent where the
// loops allow: an actuated joint is usually the one that turns through its whole range (a
// crank), where a position solve for it would fail at the rocker's dead points.
void StateSpace::choose_independent() {
  const Model& model = mech_.model();
  std::vector<int> order, last;
  for (int v = 0; v < model.nv; ++v) {
    if (mech_.locked_v[v]) continue;
    bool actuated = false;
    for (int j : unknown_joints_) actuated |= mech_.compiled.v_index(j) == v;
    (actuated ? last : order).push_back(v);
  }
  // Rotations of quaternion joints (spherical, free) first: they become dependent where the
  // loops allow (a Stewart platform's tree ball joint), as θ must be scalar coordinates.
  std::stable_partition(order.begin(), order.end(), [&](int v) { return q_of_v(v) < 0; });
  order.insert(order.end(), last.begin(), last.end());
  locked_ = mech_.locked_v;
  MatX K = MatX::Zero(0, model.nv);
  if (mech_.has_loops()) {
    forward_kinematics(model, data_, mech_.q0);
    loop_jacobian(model, data_, mech_.compiled.loops, K);
  }
  MatX dependent = MatX::Zero(K.rows(), 0);
  for (int v : order) {
    MatX trial(K.rows(), dependent.cols() + 1);
    trial << dependent, K.col(v);
    Eigen::ColPivHouseholderQR<MatX> qr(trial);
    qr.setThreshold(1e-9);  // relative to the largest pivot
    if (K.rows() > 0 && qr.rank() == trial.cols())
      dependent = trial;
    else
      independent_.push_back(v);
  }
  std::sort(independent_.begin(), independent_.end());
  for (int v : independent_) {
    if (q_of_v(v) < 0)
      throw SetupError(
          "estimation does not handle a spherical or free joint's coordinates as "
          "free ones yet (joint \"" +
          model.joint_names[model.v_body[v]] + "\": the loops leave it free)");
    independent_q_.push_back(q_of_v(v));
    locked_[v] = true;
  }
  for (int v = 0; v < model.nv; ++v)
    if (!locked_[v]) dependent_.push_back(v);
}

// The position coordinate of velocity coordinate v, or -1 for a quaternion joint's (nq != nv).
int StateSpace::q_of_v(int v) const {
  const Model& model = mech_.model();
  const int b = model.v_body[v];
  const Joint& j = model.joints[b];
  return j.nq() == j.nv() ? model.q_index[b] + (v - model.v_index[b]) : -1;
}

VecX StateSpace::state_of(const VecX& q, const VecX& qd) const {
  VecX x = VecX::Zero(nx());
  for (int i = 0; i < m(); ++i) x[i] = q[independent_q_[i]], x[m() + i] = qd[independent_[i]];
  return x;
}

// The position solve from the guess in q with θ held: Newton's method when θ is near (the
// placements of a Gauss-Newton iteration), else approached in steps of at most 0.05 (rad or m;
// more where a step fails): LM assembly converges from nearby, and small steps keep it on the
// guess's branch (a four-bar's two assembly modes are both solutions). On success data_ holds
// the kinematics at q.
bool StateSpace::close_loops(const VecX& theta, VecX& q) {
  const VecX start = q;
  double far = 0.0;
  for (int i = 0; i < m(); ++i) far = std::max(far, std::abs(theta[i] - start[independent_q_[i]]));
  if (far <= 0.05) {  // near: Newton on the dependent coordinates from the guess
    for (int i = 0; i < m(); ++i) q[independent_q_[i]] = theta[i];
    if (newton_close(start, q)) return true;
  }
  for (int pieces = std::max(1, static_cast<int>(std::ceil(far / 0.05))); pieces <= 4096;
       pieces *= 4) {
    q = start;
    bool ok = true;
    for (int n = 1; n <= pieces && ok; ++n) {
      for (int i = 0; i < m(); ++i) {
        const double a = start[independent_q_[i]];
        q[independent_q_[i]] = a + (theta[i] - a) * n / pieces;
      }
      ok = assemble(mech_.model(), data_, mech_.compiled.loops, q, locked_,
                    mech_.closure_tolerance(1e-12))
               .converged;
    }
    if (ok) {
      forward_kinematics(mech_.model(), data_, q);  // as the Newton path leaves it
      return true;
    }
  }
  return false;
}

// K's dependent columns at q (data_ holds its kinematics) and their pivoted QR.
void StateSpace::factor_dependent(const VecX& q) {
  loop_jacobian(mech_.model(), data_, mech_.compiled.loops, K_);
  Kd_.resize(K_.rows(), static_cast<Eigen::Index>(dependent_.size()));
  for (std::size_t c = 0; c < dependent_.size(); ++c) Kd_.col(c) = K_.col(dependent_[c]);
  qr_.compute(Kd_);
  qr_at_ = q;
}

// Newton's method on the dependent coordinates (δ + K_d Δ = 0 in least squares: the loops'
// rows may be redundant; K_d has full column rank by the choice of coordinates) from `start`
// with θ already moved in q. A factorisation made within 1e-3 of start (the last placement's)
// is reused: first for the tangent step -K_d⁺ K Δθ, which leaves an error of O(Δθ²), then as a
// chord iteration; it is made again at the iterate whenever the error falls by less than 100x.
// False when even full Newton steps do not shrink it 4x (the caller then takes the damped,
// stepped assembly).
bool StateSpace::newton_close(const VecX& start, VecX& q) {
  const Model& model = mech_.model();
  const double tol = mech_.closure_tolerance(1e-12);
  const bool reuse = qr_at_.size() == q.size() && (qr_at_ - start).cwiseAbs().maxCoeff() <= 1e-3;
  if (reuse) {  // θ moved from start: K times that move, in velocity coordinates
    dv_ = VecX::Zero(model.nv);
    for (int i = 0; i < m(); ++i)
      dv_[independent_[i]] = q[independent_q_[i]] - start[independent_q_[i]];
    move_dependent(-(K_ * dv_), q);
  }
  double last = std::numeric_limits<double>::infinity();
  bool at_iterate = false;  // the last step was a full Newton step
  for (int it = 0; it < 10; ++it) {
    forward_kinematics(model, data_, q);
    loop_position_errors(model, data_, mech_.compiled.loops, delta_);
    const double r = delta_.size() ? delta_.cwiseAbs().maxCoeff() : 0.0;
    if (r <= 0.01 * tol || (r <= tol && r > 0.25 * last)) return true;
    if (r > 0.25 * last && at_iterate) return false;
    at_iterate = (it == 0 && !reuse) || r > 1e-2 * last;
    if (at_iterate) factor_dependent(q);
    last = r;
    move_dependent(-delta_, q);
  }
  return false;
}

// q's dependent coordinates moved by the least-squares Δ of K_d Δ = rhs (in velocity
// coordinates, applied on the configuration manifold: quaternions stay unit).
void StateSpace::move_dependent(const VecX& rhs, VecX& q) {
  dq_ = qr_.solve(rhs);
  if (!quaternions_) {
    for (std::size_t c = 0; c < dependent_.size(); ++c) q[dependent_[c]] += dq_[c];  // q ≡ v
    return;
  }
  dv_ = VecX::Zero(mech_.model().nv);
  for (std::size_t c = 0; c < dependent_.size(); ++c) dv_[dependent_[c]] = dq_[c];
  integrate_in_place(mech_.model(), q, dv_, 1.0);
}

// The dependent velocities from the others (K q̇ = 0), by the QR of K_d at q, made again only
// when q changed: the placements of a Jacobian's θ̇ and u columns share one q.
void StateSpace::dependent_velocities(const VecX& q, VecX& qd) {
  if (qr_at_.size() != q.size() || qr_at_ != q) factor_dependent(q);  // data_ is at q
  for (int v : dependent_) qd[v] = 0.0;
  dq_ = qr_.solve(-(K_ * qd));
  for (std::size_t c = 0; c < dependent_.size(); ++c) qd[dependent_[c]] = dq_[c];
}

void StateSpace::full_state(double t, const VecX& x, VecX& q, VecX& qd) {
  qd = VecX::Zero(mech_.model().nv);
  for (const DriveBinding& d : mech_.drives)
    if (d.kind == DriveSpec::Kind::Motion && d.v >= 0) {
      const TimeJet j = d.eval(t);
      q[d.q] = j.value;
      qd[d.v] = j.d1;
    }
  for (int i = 0; i < m(); ++i) qd[independent_[i]] = x[m() + i];
  if (!mech_.has_loops()) {
    for (int i = 0; i < m(); ++i) q[independent_q_[i]] = x[i];
    return;
  }
  if (closed_q_.size() == q.size() && closed_theta_ == x.head(m()) &&
      (closed_from_ == q || closed_q_ == q)) {  // from its guess, or already its result
    q = closed_q_;
  } else {
    closed_from_ = q;
    closed_q_.resize(0);  // until this solve succeeds
    if (!close_loops(x.head(m()), q))
      throw SetupError("estimation: the loops cannot be closed at t = " + format_number(t) +
                       " s for the estimated independent coordinates");
    closed_theta_ = x.head(m());
    closed_q_ = q;
  }
  dependent_velocities(q, qd);
}

std::vector<int> StateSpace::encoder_columns() const {
  std::vector<int> out(static_cast<std::size_t>(m()), -1);
  const MechanismSpec& spec = mech_.spec;
  for (int c = 0; c < sensors_.size(); ++c) {
    const SensorSpec& s = spec.sensors[sensors_.sensor_of_column()[c]];
    if (s.type != SensorSpec::Type::Encoder) continue;
    const int j = spec.joint_index(s.joint);
    if (mech_.compiled.joint_map[j].loop || spec.joints[j].joint.nv() != 1) continue;
    for (int i = 0; i < m(); ++i)
      if (independent_[i] == mech_.compiled.v_index(j)) out[i] = c;
  }
  return out;
}

void StateSpace::set_forces(const VecX& xu) {
  for (int k = 0; k < nu(); ++k) sim_->set_drive_value(unknown_joints_[k], xu[nx() + k]);
}

const Simulation& StateSpace::place(double t, const VecX& xu, VecX& q) {
  full_state(t, xu.head(nx()), q, qd_);
  set_forces(xu);
  sim_->restore(t, q, qd_, 0.0, 0.0, sensors_.stage());  // only what the sensors read
  return *sim_;
}

VecX StateSpace::advance(double t_end) {
  const double t = sim_->time(), dt = t_end - t;
  const int n = std::max(1, static_cast<int>(std::ceil(dt / step_ - 1e-9)));
  for (int i = 1; i <= n; ++i) sim_->step(t + dt * i / n - sim_->time(), Integrator::RK4);
  return state_of(sim_->q(), sim_->qd());
}

}  // namespace articula
