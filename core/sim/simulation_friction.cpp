// Friction in the simulation (contract-additions-2 §2, RBDA 11.8): Coulomb and viscous friction in
// tree joints (generalized forces), and Coulomb friction at contacts. A sticking contact is a
// closed slide row (tangential velocity held at 0, |λ_t| <= μ λ_n checked at events); a slipping
// one takes the force -μ λ_n ŝ at its touching point. λ_n depends on that force through the
// loop-constrained dynamics, affinely: λ_n = λ_0 + A diag(μ) λ_n is solved with one extra solve
// per slipping contact (at the same state, so with the solver's factors reused: resolve()), and
// an (I - A diag μ) that cannot be inverted is Painlevé's paradox, refused with the contact named.
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

// Joint friction: the Coulomb force -F·slip on the slipping joints and the viscous -c q̇ on all,
// added to the applied generalized forces (across a loop joint: Jᵀ f with J its relative
// velocity row); the power they take is dissipated.
const VecX& Simulation::add_friction(const VecX& q, const VecX& v) {
  UnilateralState& s = unilaterals_;
  tau_friction_ = applied_.tree_tau();
  if (loop_friction_) forward_kinematics_bias(model_, data_, q, v);
  GapState g;
  for (std::size_t k = 0; k < s.items.size(); ++k) {
    const Unilateral& u = s.items[k];
    if (!u.friction()) continue;
    if (u.loop >= 0) unilateral_gap(mech_, data_, u, q, &v, g, loop_row_);
    const double rate = u.loop < 0 ? v[u.v] : g.rate;
    double f = -u.viscous * rate;
    if (!s.closed[k]) f -= u.bound * s.slip[k], s.force[k] = f;
    if (u.loop < 0)
      tau_friction_[u.v] += f;
    else
      tau_friction_ += f * loop_row_.transpose();
    friction_dissipation_ -= f * rate;
  }
  return tau_friction_;
}

// A friction joint's rate q̇ (tree) or relative rate (loop joint; needs forward_kinematics_bias).
double Simulation::joint_rate(const Unilateral& u, const VecX& q, const VecX& v) {
  if (u.loop < 0) return v[u.v];
  GapState g;
  Eigen::RowVectorXd none;
  unilateral_gap(mech_, data_, u, q, &v, g, none);
  return g.rate;
}

// The multiplier of a holding item's row at the last solve.
double Simulation::row_multiplier(int item) const {
  const std::vector<int>& rows = unilaterals_.rows;
  const auto r = std::find(rows.begin(), rows.end(), item) - rows.begin();
  return active_->multipliers()[constraints_.last_row0() + r];
}

// The slip velocity of a slide pair (its tangential components; the second 0 in a plane) and its
// rows J_t. Needs forward_kinematics_bias at (q, v) in data_.
Simulation::SlideMotion Simulation::slide_motion(int primary, const VecX& q, const VecX& v) {
  const UnilateralState& s = unilaterals_;
  SlideMotion m;
  m.J.setZero(s.items[primary].partner < 0 ? 1 : 2, model_.nv);
  GapState g;
  unilateral_gap(mech_, data_, s.items[primary], q, &v, g, m.J.row(0));
  m.w[0] = g.rate, m.bias[0] = g.bias;
  if (s.items[primary].partner >= 0) {
    unilateral_gap(mech_, data_, s.items[s.items[primary].partner], q, &v, g, m.J.row(1));
    m.w[1] = g.rate, m.bias[1] = g.bias;
  }
  return m;
}

// The slip direction ŝ of a slipping pair: the sliding velocity's while it still points ahead of
// the direction recorded at the step's start, else that one. So friction keeps braking along it
// until the sliding velocity crosses 0, the stick event, instead of turning round with it.
Eigen::Vector2d Simulation::slip_direction(int primary, const SlideMotion& m) const {
  const UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[primary];
  if (u.partner < 0) return {s.slip[primary], 0.0};
  const Eigen::Vector2d ref(s.slip[primary], s.slip[u.partner]);
  if (m.w.norm() > 1e-9 && ref.dot(m.w) > 0) return m.w.normalized();
  return ref;
}

bool Simulation::slipping(int k) const {
  const UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[k];
  return u.primary() && s.holds(u.normal_item) && !s.holds(k) &&
         (s.slip[k] != 0.0 || (u.partner >= 0 && s.slip[u.partner] != 0.0));
}

// q̈ with the slipping contacts' friction: λ_n from the affine solve above, then the final solve
// whose multipliers the run reports.
const VecX& Simulation::accelerations_with_slip(const SolverInput& in) {
  UnilateralState& s = unilaterals_;
  slips_.clear();
  forward_kinematics_bias(model_, data_, in.q, in.v);
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k) {
    if (!slipping(k)) continue;
    const SlideMotion m = slide_motion(k, in.q, in.v);
    const Eigen::Vector2d dir = slip_direction(k, m);
    const double mu = s.items[k].side < 0 ? -s.items[k].bound : s.items[k].bound;
    Slip sl{k, -(m.J.transpose() * dir.head(m.J.rows())), mu, dir, m.w.dot(dir)};
    slips_.push_back(std::move(sl));
  }
  if (slips_.empty()) return active_->accelerations(in);
  const int n = static_cast<int>(slips_.size());
  tau_slip_ = in.tau;
  const SolverInput in2{in.t, in.q, in.v, tau_slip_, in.f_ext};
  auto normal_forces = [&](VecX& lam) {
    lam.resize(n);
    for (int c = 0; c < n; ++c) lam[c] = row_multiplier(s.items[slips_[c].item].normal_item);
  };
  VecX l0, lc;
  active_->accelerations(in2);
  normal_forces(l0);
  MatX S = MatX::Identity(n, n);
  for (int c = 0; c < n; ++c) {  // the same state: only τ changes, the factors are kept
    tau_slip_ = in.tau + slips_[c].d;
    active_->resolve_multipliers(in2);  // μ only: its q̈ is not wanted
    normal_forces(lc);
    S.col(c) -= (lc - l0) * slips_[c].mu;
  }
  const Eigen::FullPivLU<MatX> lu(S);
  if (lu.rcond() < 1e-12) painleve(in.t);
  const VecX lambda = lu.solve(l0);
  tau_slip_ = in.tau;
  for (int c = 0; c < n; ++c) {
    const Slip& sl = slips_[c];
    tau_slip_ += sl.mu * lambda[c] * sl.d;
    const Unilateral& u = s.items[sl.item];
    s.force[sl.item] = -sl.mu * lambda[c] * sl.dir[0];
    if (u.partner >= 0) s.force[u.partner] = -sl.mu * lambda[c] * sl.dir[1];
    friction_dissipation_ += sl.mu * lambda[c] * sl.speed;
  }
  return active_->resolve(in2);
}

void Simulation::painleve(double t) const {
  std::string names;
  for (const Slip& sl : slips_)
    names += (names.empty() ? "'" : ", '") + unilaterals_.items[sl.item].name + "'";
  throw SetupError("at t = " + std::to_string(t) + " the normal force of the slipping contact " +
                   names +
                   " is undetermined: its friction presses it in as fast as it pushes out "
                   "(Painlevé's paradox); lower the friction coefficient or change the geometry");
}

// 3D slip directions follow the sliding velocity; at a step's start they are re-read, so that
// within the step ŝ·w crossing 0 is the stick event.
void Simulation::refresh_slip_directions() {
  UnilateralState& s = unilaterals_;
  bool any = false;
  for (int k = 0; k < static_cast<int>(s.items.size()) && !any; ++k)
    any = slipping(k) && s.items[k].partner >= 0;
  if (!any) return;
  forward_kinematics_bias(model_, data_, q_, qd_);
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k) {
    if (!slipping(k) || s.items[k].partner < 0) continue;
    const SlideMotion m = slide_motion(k, q_, qd_);
    if (m.w.norm() <= 1e-9) continue;
    const Eigen::Vector2d d = m.w.normalized();
    s.slip[k] = d[0], s.slip[s.items[k].partner] = d[1];
  }
}

// The tangential multipliers of a stuck pair and the normal one.
Eigen::Vector2d Simulation::stuck_force(int primary) const {
  const Unilateral& u = unilaterals_.items[primary];
  return {row_multiplier(primary), u.partner < 0 ? 0.0 : row_multiplier(u.partner)};
}

// Opens a stuck pair to slip against the force it could not give, or sticks a slipping one.
void Simulation::toggle_slide(int primary) {
  UnilateralState& s = unilaterals_;
  const Unilateral& u = s.items[primary];
  const bool stuck = s.holds(primary);
  Eigen::Vector2d dir = Eigen::Vector2d::Zero();
  if (stuck) {
    const Eigen::Vector2d f = stuck_force(primary);
    dir = f.norm() > 0 ? Eigen::Vector2d(-f / f.norm()) : Eigen::Vector2d(1.0, 0.0);
  }
  s.closed[primary] = !stuck, s.slip[primary] = dir[0];
  if (u.partner >= 0) s.closed[u.partner] = !stuck, s.slip[u.partner] = dir[1];
}

// The normal force bounding a slide's friction: its contact's λ_n, or for a slot's the force on
// the wall the slide is on, side·λ_n (negative once the pin has gone over to the other wall).
double Simulation::normal_force(int slide) const {
  const Unilateral& u = unilaterals_.items[slide];
  const double lambda = row_multiplier(u.normal_item);
  return u.side < 0 ? -lambda : lambda;
}

// How far below 0 a slot's force may go before its pin counts as on the other wall: round-off of
// the last solve's unilateral multipliers, so that a pin with no lateral load does not chatter.
double Simulation::side_tolerance() const {
  const auto& rows = unilaterals_.rows;
  const VecX& mu = active_->multipliers();
  const auto n = static_cast<Eigen::Index>(rows.size());
  return 1e-10 * (1.0 + (n == 0 ? 0.0 : mu.tail(n).cwiseAbs().maxCoeff()));
}

// The pin presses the other wall: the slide's touching point (and so its rows and slip rate) go
// there. The side is not part of a solve's memo, so the memos are dropped.
void Simulation::flip_slot_side(int slide) {
  unilaterals_.items[slide].side = -unilaterals_.items[slide].side;
  forget_solves();
}

// Whether the event of a slipping slot's slide was its slot's force changing sign, not the slip
// stopping (slide_event_value watches both: the smaller is the event). If so the slide goes over
// to the other wall and the active set is settled again there (the slip rate is re-read).
bool Simulation::slot_side_event(int slide) {
  UnilateralState& s = unilaterals_;
  if (s.items[slide].side == 0 || s.holds(slide) || !slipping(slide)) return false;
  accelerations(t_, q_, qd_, qdd_);  // the solve at the located state
  const double side = normal_force(slide) + side_tolerance();
  forward_kinematics_bias(model_, data_, q_, qd_);
  const double w = s.slip[slide] * slide_motion(slide, q_, qd_).w[0];
  if (side > w) return false;
  flip_slot_side(slide);
  settle_active_set();
  return true;
}

// After a solve in settle_active_set: whether every engaged slot's slide is on the wall its slot's
// force presses. One that is not (a pin just engaged, or a stuck pin's force turned) goes over,
// its slip re-read there (rest_slide, which may make it a candidate); then false, to solve again.
bool Simulation::slot_sides_agree(double ltol, std::vector<int>& cand) {
  UnilateralState& s = unilaterals_;
  bool agree = true;
  for (int k = 0; k < static_cast<int>(s.items.size()); ++k) {
    const Unilateral& u = s.items[k];
    if (u.side == 0 || !s.closed[u.normal_item] || normal_force(k) >= -ltol) continue;
    flip_slot_side(k);
    forward_kinematics_bias(model_, data_, q_, qd_);
    rest_slide(k, cand);
    agree = false;
  }
  return agree;
}

}  // namespace articula
