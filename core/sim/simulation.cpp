#include "core/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/algorithms/aba.hpp"
#include "core/algorithms/augmented_dynamics.hpp"
#include "core/algorithms/crba.hpp"
#include "core/algorithms/energy.hpp"
#include "core/algorithms/hybrid_dynamics.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/diagnostics.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

namespace {
// Relative pivot tolerance of J J^T in the projection: pivots are squared singular values of J,
// so this drops directions of J below ~3e-7 of its largest (redundant rows give ~1e-16).
constexpr double kProjectionRankTolerance = 1e-13;
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
      ws_(model_) {
  fd_.assign(model_.nb + 1, true);
  for (const DriveBinding& d : drives_) {
    if (d.kind != DriveSpec::Kind::Motion) continue;
    if (d.v < 0) {
      LoopDrive ld;
      ld.drive = static_cast<int>(&d - drives_.data());
      ld.loop = mech_.compiled.joint_map[d.user_joint].index;
      loop_drives_.push_back(ld);
      continue;
    }
    fd_[mech_.compiled.joint_map[d.user_joint].index] = false;
    driven_v_.push_back(d.v);
  }
  constrained_ = mech_.has_loops();
  expected_rank_ = mech_.mobility.rank + static_cast<int>(driven_v_.size() + loop_drives_.size());
  if (opt_.require_fully_driven && static_cast<int>(driven_v_.size()) < mech_.mobility.mobility) {
    std::ostringstream os;
    os << "inverse dynamics needs every degree of freedom driven: mobility "
       << mech_.mobility.mobility << " but " << driven_v_.size()
       << " motion drive(s); undriven joints:";
    for (std::size_t j = 0; j < mech_.spec.joints.size(); ++j) {
      const JointSpec& js = mech_.spec.joints[j];
      const bool driven = js.drive && js.drive->kind == DriveSpec::Kind::Motion;
      if (!driven && js.joint.nv() > 0 && !mech_.compiled.joint_map[j].loop)
        os << " '" << js.name << "'";
    }
    throw SetupError(os.str());
  }
  q_ = mech_.q0;
  qd_ = mech_.qd0;
  qdd_ = VecX::Zero(model_.nv);
  tau_ = VecX::Zero(model_.nv);
  tau_in_ = VecX::Zero(model_.nv);
  qdd_in_ = VecX::Zero(model_.nv);
  wrench_.assign(mech_.spec.joints.size(), Force::Zero());
  joints_.resize(mech_.spec.joints.size());
  f_loop_.assign(model_.nb + 1, Force::Zero());
  f_applied_.assign(model_.nb + 1, Force::Zero());
  const std::size_t nl = mech_.compiled.loops.size();
  loop_applied_wrench_.assign(nl, Force::Zero());
  loop_tau_.resize(nl);
  loop_q_.resize(nl);
  loop_qd_.resize(nl);
  for (std::size_t l = 0; l < nl; ++l)
    loop_tau_[l] = VecN::Zero(mech_.compiled.loops[l].joint.nv());
  for (const SpringBinding& sp : mech_.springs) loop_forces_ = loop_forces_ || sp.v < 0;
  for (const DriveBinding& d : drives_)
    loop_forces_ = loop_forces_ || (d.v < 0 && d.kind == DriveSpec::Kind::Force);
  external_forces_ = loop_forces_ || !mech_.forces.empty();
  sd_length_.assign(mech_.forces.size(), 0.0);
  sd_rate_.assign(mech_.forces.size(), 0.0);
  f_total_.assign(model_.nb + 1, Force::Zero());
  f_ = [this](double t, const VecX& q, const VecX& v, VecX& qdd) { accelerations(t, q, v, qdd); };
  if (mech_.sparse) sparse_.resize(*mech_.sparse);
  // Loop-joint drives and applied forces need the spatial kinematics: those keep Method 2 there.
  if (mech_.planar_dynamics && opt_.planar_algebra && loop_drives_.empty() && !external_forces_)
    planar_ = std::make_unique<PlanarData>(*mech_.planar_dynamics);
  impose_motion_drives(0.0, q_, qd_);
  check_mass_matrix(q_, "");
  if (!loop_drives_.empty()) project(q_, qd_);  // loop-joint drives start on their law too
  cd_.minimum_norm = true;                      // the rank check as evaluate() makes it
  accelerations(0.0, q_, qd_, qdd_);
  cd_.minimum_norm = false;
  if (constrained_) check_drives_independent("at t = 0");
  compute_energy();
  initial_energy_ = energy_.kinetic + energy_.potential;
  energy_.residual = 0.0;
}

void Simulation::set_drive_expression(int user_joint, const std::string& expression) {
  for (DriveBinding& d : drives_)
    if (d.user_joint == user_joint) {
      d.expression = Expression::parse(expression);
      d.law.reset();
      return;
    }
  throw std::invalid_argument("joint " + std::to_string(user_joint) + " has no drive");
}

void Simulation::restore(double t, const VecX& q, const VecX& qd, double work, double dissipated) {
  if (q.size() != q_.size() || qd.size() != qd_.size() || !q.allFinite() || !qd.allFinite())
    throw SetupError("cannot restore a state of another model or a non-finite state");
  t_ = last_t_ = t;
  q_ = q;
  qd_ = qd;
  work_ = work;
  dissipated_ = dissipated;
  h_adaptive_ = 0.0;  // the error control starts afresh, as at t = 0
  evaluate();
}

void Simulation::check_drives_independent(const char* when) {
  if (cd_.rank >= expected_rank_) return;
  std::ostringstream os;
  if (mech_.mobility.mobility == 0) {  // a structure: nothing can be driven
    os << "the mechanism is locked (mobility 0, " << mech_.mobility.redundant
       << " redundant constraint(s)): it cannot move, so the motion drive(s) on joint(s)";
    for (const DriveBinding& d : drives_)
      if (d.kind == DriveSpec::Kind::Motion)
        os << " '" << mech_.spec.joints[d.user_joint].name << "'";
    os << " cannot be imposed; remove a joint or a body to give it a degree of freedom, or remove "
          "the drive";
    throw SetupError(os.str());
  }
  os << "the motion drives on joint(s)";
  for (const DriveBinding& d : drives_)
    if (d.kind == DriveSpec::Kind::Motion)
      os << " '" << mech_.spec.joints[d.user_joint].name << "'";
  os << " over-determine the mechanism " << when << " (mobility " << mech_.mobility.mobility << ", "
     << driven_v_.size() << " motion drive(s), rank " << cd_.rank << " of " << expected_rank_
     << "): too many drives, or a driven joint at a dead point where it cannot move the mechanism";
  throw SetupError(os.str());
}

void Simulation::impose_motion_drives(double t, VecX& q, VecX& qd) const {
  for (const DriveBinding& d : drives_) {
    if (d.kind != DriveSpec::Kind::Motion || d.q < 0) continue;  // loop-joint drives: projection
    const TimeJet j = d.eval(t);
    if (!std::isfinite(j.value) || !std::isfinite(j.d1))
      bad_drive(d, t, std::isfinite(j.value) ? "velocity" : "position");
    q[d.q] = j.value;
    qd[d.v] = j.d1;
  }
}

void Simulation::applied_forces(double t, const VecX& q, const VecX& v) {
  last_t_ = t;
  tau_in_.setZero();
  for (const SpringBinding& s : mech_.springs)
    if (s.v >= 0) tau_in_[s.v] -= s.stiffness * (q[s.q] - s.rest) + s.damping * v[s.v];
  for (const DriveBinding& d : drives_) {
    if (d.v < 0) continue;
    const TimeJet j = d.eval(t);
    const double x = d.kind == DriveSpec::Kind::Force ? j.value : j.d2;
    if (!std::isfinite(x))
      bad_drive(d, t, d.kind == DriveSpec::Kind::Force ? "force" : "acceleration");
    if (d.kind == DriveSpec::Kind::Force)
      tau_in_[d.v] += x;
    else
      qdd_in_[d.v] = x;  // exact second derivative of the prescribed motion
  }
  if (external_forces_) {
    forward_kinematics(model_, data_, q, v);
    for (Force& f : f_applied_) f.setZero();
    if (loop_forces_) loop_applied_forces(t);
    spring_damper_forces();
  }
}

void Simulation::spring_damper_forces() {
  for (std::size_t i = 0; i < mech_.forces.size(); ++i) {
    const ForceBinding& fb = mech_.forces[i];
    auto world = [&](int b, const Vec3& p) { return b == 0 ? p : point_position(data_, b, p); };
    auto velocity = [&](int b, const Vec3& p) {
      return b == 0 ? Vec3::Zero() : point_velocity(data_, b, p);
    };
    const Vec3 p1 = world(fb.body1, fb.point1), p2 = world(fb.body2, fb.point2);
    const Vec3 d = p2 - p1;
    const double L = d.norm();
    const Vec3 u = L > 0 ? Vec3(d / L) : Vec3::Zero();  // coincident points: no direction, no force
    const double Ldot = u.dot(velocity(fb.body2, fb.point2) - velocity(fb.body1, fb.point1));
    sd_length_[i] = L;
    sd_rate_[i] = Ldot;
    const Vec3 F = (fb.stiffness * (L - fb.rest_length) + fb.damping * Ldot) * u;  // on body 1
    f_applied_[fb.body1] += make_spatial(p1.cross(F), F);  // base coordinates, about the origin
    f_applied_[fb.body2] -= make_spatial(p2.cross(F), F);
  }
}

void Simulation::loop_joint_velocity(const LoopJoint& l, VecN& q, VecN& qd) const {
  // Coordinates from the frames' relative placement, velocities from S q̇ = v_J.
  auto frame_velocity = [&](int body, const Transform& X) {
    return body == 0 ? Motion::Zero() : Motion(X.apply(data_.v[body]));
  };
  const Transform X_sp = loop_transform(data_, l);
  const Motion vJ =
      frame_velocity(l.successor, l.X_S) - X_sp.apply(frame_velocity(l.predecessor, l.X_P));
  q.resize(l.joint.nq());
  joint_coordinates(l.joint, X_sp, q.data());
  JointCalc jc;
  const VecN zero = VecN::Zero(l.joint.nv());
  jcalc(l.joint, q.data(), zero.data(), jc);
  qd = jc.S.completeOrthogonalDecomposition().solve(vJ);
}

void Simulation::loop_drive_terms(LoopDrive& ld) const {
  // Needs data_ from forward kinematics with q̈ = 0 (velocity-product accelerations).
  const LoopJoint& l = mech_.compiled.loops[ld.loop];
  auto frame = [&](int body, const Transform& X, const std::vector<Motion>& m) {
    return body == 0 ? Motion::Zero() : Motion(X.apply(m[body]));
  };
  const Transform X_sp = loop_transform(data_, l);
  const Motion vs = frame(l.successor, l.X_S, data_.v);
  const Motion vJ = vs - X_sp.apply(frame(l.predecessor, l.X_P, data_.v));
  const Motion a_rel =
      frame(l.successor, l.X_S, data_.a) - X_sp.apply(frame(l.predecessor, l.X_P, data_.a));
  joint_coordinates(l.joint, X_sp, &ld.q);
  JointCalc jc;
  const double zero = 0.0;
  jcalc(l.joint, &ld.q, &zero, jc);
  const Motion S = jc.S.col(0);
  ld.P = S / S.squaredNorm();  // q̇_l = S^+ v_J
  ld.qd = ld.P.dot(vJ);
  jcalc(l.joint, &ld.q, &ld.qd, jc);
  ld.bias = ld.P.dot(a_rel - jc.cJ - cross_motion(vs, vJ));  // a_s = X a_p + S q̈ + c_J + v_s × v_J
}

double Simulation::loop_drive_error(const LoopDrive& ld, double t) const {
  const double e = ld.q - drives_[ld.drive].eval(t).value;
  const JointType type = mech_.compiled.loops[ld.loop].joint.type;
  return type == JointType::Revolute ? std::remainder(e, 2 * std::numbers::pi) : e;  // angles wrap
}

void Simulation::loop_applied_forces(double t) {
  const auto& loops = mech_.compiled.loops;
  for (std::size_t l = 0; l < loops.size(); ++l) loop_tau_[l].setZero();
  auto loop_index = [&](int user_joint) { return mech_.compiled.joint_map[user_joint].index; };
  for (const SpringBinding& sp : mech_.springs) {
    if (sp.v >= 0) continue;
    const int l = loop_index(sp.user_joint);
    loop_joint_velocity(loops[l], loop_q_[l], loop_qd_[l]);
    loop_tau_[l][0] -= sp.stiffness * (loop_q_[l][0] - sp.rest) + sp.damping * loop_qd_[l][0];
  }
  for (const DriveBinding& d : drives_) {
    if (d.v >= 0 || d.kind != DriveSpec::Kind::Force) continue;
    const int l = loop_index(d.user_joint);
    loop_joint_velocity(loops[l], loop_q_[l], loop_qd_[l]);
    loop_tau_[l][0] += d.value(t);
  }
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const LoopJoint& lj = loops[l];
    if (lj.joint.nv() == 0 || loop_tau_[l].isZero(0.0)) {
      loop_applied_wrench_[l].setZero();
      continue;
    }
    // The joint's generalized force as the minimum-norm wrench with S^T f = τ.
    JointCalc jc;
    jcalc(lj.joint, loop_q_[l].data(), loop_qd_[l].data(), jc);
    const Force f = jc.S * (jc.S.transpose() * jc.S).ldlt().solve(loop_tau_[l]);
    loop_applied_wrench_[l] = f;
    const Transform Xs = lj.successor == 0 ? lj.X_S : lj.X_S * data_.X0[lj.successor];
    const Force f0 = Xs.transpose_apply(f);
    f_applied_[lj.successor] += f0;
    f_applied_[lj.predecessor] -= f0;
  }
}

void Simulation::accelerations(double t, const VecX& q, const VecX& v, VecX& qdd) {
  applied_forces(t, q, v);
  if (constrained_) {
    constrained_accelerations(t, q, v, qdd);
  } else if (driven_v_.empty()) {  // every joint free: plain (base-coordinate) ABA
    qdd = aba(model_, data_, q, v, tau_in_, external_forces_ ? &f_applied_ : nullptr);
  } else {
    hybrid_dynamics(model_, data_, q, v, qdd_in_, tau_in_, fd_,
                    external_forces_ ? &f_applied_ : nullptr);
    qdd = data_.qdd;
  }
  if (!qdd.allFinite()) bad_acceleration(t, q, v, qdd);
  if (stage_ >= 0 && stage_ < 7) record_power(v);
}

void Simulation::record_power(const VecX& v) {
  // Drives and force inputs do work; dampers dissipate. Motion-drive forces come from the
  // solve: the multiplier of the drive row (loops) or the inverse-dynamics τ (trees).
  double p = 0.0, d = 0.0;
  const int nk = constrained_ ? static_cast<int>(K_.rows()) : 0;
  for (std::size_t r = 0; r < driven_v_.size(); ++r) {
    const int vi = driven_v_[r];
    const double actuator =
        constrained_ ? cd_.mu[nk + static_cast<int>(r)] : data_.tau[vi] - tau_in_[vi];
    p += actuator * v[vi];
  }
  for (const DriveBinding& dr : drives_)
    if (dr.kind == DriveSpec::Kind::Force && dr.v >= 0) p += dr.value(last_t_) * v[dr.v];
  for (const LoopDrive& ld : loop_drives_) p += ld.mu * ld.qd;
  for (const SpringBinding& s : mech_.springs)
    if (s.v >= 0) d += s.damping * v[s.v] * v[s.v];
  if (loop_forces_) {  // loop-joint inputs: force drives add power, dampers dissipate
    for (const DriveBinding& dr : drives_)
      if (dr.v < 0 && dr.kind == DriveSpec::Kind::Force) {
        const int l = mech_.compiled.joint_map[dr.user_joint].index;
        p += dr.value(last_t_) * loop_qd_[l][0];
      }
    for (const SpringBinding& s : mech_.springs)
      if (s.v < 0) {
        const int l = mech_.compiled.joint_map[s.user_joint].index;
        d += s.damping * loop_qd_[l][0] * loop_qd_[l][0];
      }
  }
  for (std::size_t i = 0; i < mech_.forces.size(); ++i)
    d += mech_.forces[i].damping * sd_rate_[i] * sd_rate_[i];
  stage_power_[stage_] = p;
  stage_dissipation_[stage_] = d;
  ++stage_;
}

double Simulation::loop_drive_rhs(const LoopDrive& ld, double a) const {
  const TimeJet j = drives_[ld.drive].eval(last_t_);
  return j.d2 - ld.bias - 2 * a * (ld.qd - j.d1) - a * a * loop_drive_error(ld, last_t_);
}

bool Simulation::sparse_accelerations(const VecX& q, const VecX& v, VecX& qdd) {
  // The same rows as Method 2 below, solved on the bodies' own equations (RBDA 8.13). Reporting
  // (evaluate: minimum-norm forces, the rank check) stays with Method 2.
  const double a = 1.0 / opt_.stabilization_time;
  const int nd = static_cast<int>(driven_v_.size()), nl = static_cast<int>(loop_drives_.size());
  forward_kinematics_bias(model_, data_, q, v);
  sparse_qdd_.resize(nd);
  sparse_P_.resize(nl);
  sparse_g_.resize(nl);
  for (int r = 0; r < nd; ++r) sparse_qdd_[r] = qdd_in_[driven_v_[r]];
  for (int r = 0; r < nl; ++r) {
    loop_drive_terms(loop_drives_[r]);
    sparse_P_[r] = loop_drives_[r].P;
    sparse_g_[r] = loop_drive_rhs(loop_drives_[r], a);
  }
  const SparseDriveInput in{sparse_qdd_.data(), sparse_P_.data(), sparse_g_.data()};
  if (!sparse_forward_dynamics_from_kinematics(model_, *mech_.sparse, data_, mech_.compiled.loops,
                                               tau_in_, a, a, in, sparse_,
                                               external_forces_ ? &f_applied_ : nullptr))
    return false;  // a singular configuration: Method 2 reveals the rank
  cd_.mu = sparse_.mu;
  const int nk = mech_.sparse->loop_rows;
  for (int r = 0; r < nl; ++r) loop_drives_[r].mu = cd_.mu[nk + nd + r];
  qdd = data_.qdd;
  return true;
}

void Simulation::constrained_accelerations(double, const VecX& q, const VecX& v, VecX& qdd) {
  if (mech_.sparse && !cd_.minimum_norm && sparse_accelerations(q, v, qdd)) return;
  const double a = 1.0 / opt_.stabilization_time;  // α = β = 1/T_stab
  // The planar solve for stepping; reported forces (minimum norm) take the spatial one.
  const bool planar = planar_ && !cd_.minimum_norm;
  if (planar)
    planar_loop_constraints(*mech_.planar_dynamics, *planar_, q, v, a, a, delta_, K_, k_);
  else
    loop_constraints(model_, data_, mech_.compiled.loops, q, v, a, a, delta_, K_, k_);
  const int nk = static_cast<int>(K_.rows()), nd = static_cast<int>(driven_v_.size());
  const int nl = static_cast<int>(loop_drives_.size());
  // Without drives G = K and g = k: solve with those directly (no copy).
  const bool loops_only = nd + nl == 0;
  if (!loops_only) {
    G_.setZero(nk + nd + nl, model_.nv);
    g_.resize(nk + nd + nl);
    G_.topRows(nk) = K_;
    g_.head(nk) = k_;
  }
  const MatX& G = loops_only ? K_ : G_;
  const VecX& g = loops_only ? k_ : g_;
  for (int r = 0; r < nd; ++r) {  // a motion drive is the rheonomic constraint q̈_i = q̈_d(t)
    G_(nk + r, driven_v_[r]) = 1.0;
    g_(nk + r) = qdd_in_[driven_v_[r]];
  }
  for (int r = 0; r < nl; ++r) {  // on a loop joint: P^T a_rel = q̈_d, stabilised like the loops
    LoopDrive& ld = loop_drives_[r];
    loop_drive_terms(ld);
    relative_velocity_row(model_, data_, mech_.compiled.loops[ld.loop], ld.P, G_.row(nk + nd + r));
    g_(nk + nd + r) = loop_drive_rhs(ld, a);
  }
  // loop_constraints ran the kinematics at (q, v): H and C reuse it
  if (planar) {
    planar_crba(*mech_.planar_dynamics, *planar_, data_.H);
    planar_bias_forces(*mech_.planar_dynamics, *planar_, data_.C);
  } else {
    crba_from_kinematics(model_, data_);
    nonlinear_effects_from_bias_kinematics(model_, data_, external_forces_ ? &f_applied_ : nullptr);
  }
  if (ltdl_factor(model_, data_)) {
    constrained_forward_dynamics(model_, data_, G, g, tau_in_, cd_);
  } else if (!augmented_forward_dynamics(model_, data_, G, g, tau_in_, cd_)) {
    // Massless bodies that not even the constraints move: name their joints.
    check_mass_matrix(q, " at t = " + std::to_string(last_t_) +
                             ", and the loops and drives do not determine their motion either");
  }
  for (int r = 0; r < nl; ++r) loop_drives_[r].mu = cd_.mu[nk + nd + r];  // actuator force
  qdd = data_.qdd;
}

void Simulation::project(VecX& q, VecX& qd) {
  // Gauss-Newton with minimum-norm steps on the loop errors δ(q) and the errors of motion drives
  // on loop joints; tree motion drives are held (their coordinates are exact already).
  // The minimum-norm step J^+ e is J^T y with (J J^T) y = e: J J^T is small (constraint rows)
  // and its pivoted L D L^T reveals redundant rows, without allocating once sized.
  const auto& loops = mech_.compiled.loops;
  const int nk = constraint_rows(loops), nl = static_cast<int>(loop_drives_.size());
  MatX& J = proj_J_;
  VecX& e = proj_e_;
  J.resize(nk + nl, model_.nv);
  e.resize(nk + nl);
  auto linearise = [&](const VecX& qq, bool with_errors) {
    // Loop-joint drives need velocities and accelerations (loop_drive_terms); loops alone need
    // the positions only. δ and K share one X_sp per loop.
    if (planar_) {  // no loop-joint drives here (nl = 0)
      planar_kinematics(*mech_.planar_dynamics, *planar_, qq, nullptr);
      planar_loop_errors_and_jacobian(*mech_.planar_dynamics, *planar_, delta_, K_);
      e.head(nk) = delta_;
    } else {
      if (nl > 0)
        forward_kinematics_bias(model_, data_, qq, qd);
      else
        forward_kinematics(model_, data_, qq);
      if (with_errors)
        loop_errors_and_jacobian(model_, data_, loops, delta_, K_), e.head(nk) = delta_;
      else
        loop_jacobian(model_, data_, loops, K_);
    }
    J.topRows(nk) = K_;
    for (int r = 0; r < nl; ++r) {
      loop_drive_terms(loop_drives_[r]);
      relative_velocity_row(model_, data_, loops[loop_drives_[r].loop], loop_drives_[r].P,
                            J.row(nk + r));
      e(nk + r) = loop_drive_error(loop_drives_[r], t_);
    }
  };
  auto min_norm_step = [&](VecX& rhs_y, VecX& out) {  // out = J^+ rhs
    for (int v : driven_v_) J.col(v).setZero();
    // Rows of J below 1e-12 of the largest (a planar loop's out-of-plane rows) give pivots far
    // under kProjectionRankTolerance: the factor would drop them, so they are left out up front.
    significant_rows(J, 1e-24, proj_rows_);
    const int mc = static_cast<int>(proj_rows_.size());
    lower_gram(J, proj_rows_, proj_JJt_);  // J J^T: the factor reads the lower triangle only
    proj_ldlt_.factor(proj_JJt_, kProjectionRankTolerance);
    proj_yc_.resize(mc);
    for (int c = 0; c < mc; ++c) proj_yc_[c] = rhs_y[proj_rows_[c]];
    proj_ldlt_.solve(proj_yc_);
    rhs_y.setZero();
    for (int c = 0; c < mc; ++c) rhs_y[proj_rows_[c]] = proj_yc_[c];
    transpose_times(J, rhs_y, out);
  };
  const double tolerance =
      mech_.closure_tolerance(opt_.projection_tolerance);  // far from the origin: round-off
  double err = 0.0;
  bool fresh = false;  // J was linearised at the final q (and not modified since)
  for (int it = 0; it < 8; ++it) {
    linearise(q, true);
    err = e.size() ? e.cwiseAbs().maxCoeff() : 0.0;
    fresh = err <= 0.01 * tolerance;
    if (fresh) break;
    proj_y_ = e;
    min_norm_step(proj_y_, proj_dq_);
    integrate_in_place(model_, q, proj_dq_, -1.0);
  }
  if (!(err <= tolerance)) {
    std::ostringstream os;
    os << "at t = " << t_ << " the loops cannot be kept closed (loop error " << err << "): ";
    bool any = false;
    for (const DriveBinding& d : drives_)
      if (d.kind == DriveSpec::Kind::Motion)
        os << (any ? ", '" : "the driven joint(s) '") << mech_.spec.joints[d.user_joint].name
           << "'",
            any = true;
    os << (any ? " drove the mechanism past a dead point or the end of its range"
               : "the mechanism reached the end of its range");
    throw SetupError(os.str());
  }
  if (!fresh) linearise(q, false);
  proj_y_.resize(J.rows());  // target: K q̇ = 0 and q̇_l = q̇_d on driven loop joints
  for (int r = 0; r < J.rows(); ++r) {
    double x = 0.0;
    for (int j = 0; j < J.cols(); ++j) x -= J(r, j) * qd[j];
    proj_y_[r] = x;
  }
  for (int r = 0; r < nl; ++r) proj_y_(nk + r) += drives_[loop_drives_[r].drive].eval(t_).d1;
  min_norm_step(proj_y_, proj_dq_);
  qd += proj_dq_;
}

void Simulation::step(double h, Integrator integrator) {
  if (integrator == Integrator::RK45) {
    advance(t_ + h, 1e-8, 1e-10, h);
    return;
  }
  save_state(h, integrator);
  stage_ = 0;
  try {
    if (integrator == Integrator::RK4) {
      rk4_step(model_, f_, t_, h, q_, qd_, ws_);
      const double* P = stage_power_;
      const double* D = stage_dissipation_;
      work_ += h / 6 * (P[0] + 2 * P[1] + 2 * P[2] + P[3]);  // the same quadrature as the states
      dissipated_ += h / 6 * (D[0] + 2 * D[1] + 2 * D[2] + D[3]);
    } else {
      euler_step(model_, f_, t_, h, q_, qd_, ws_);
      work_ += h * stage_power_[0];
      dissipated_ += h * stage_dissipation_[0];
    }
  } catch (...) {
    restore_state();  // a stage failed (bad drive value, singular dynamics): keep the last state
    throw;
  }
  stage_ = -1;
  t_ += h;
  finish_step();
}

void Simulation::finish_step() {
  try {
    if (!q_.allFinite() || !qd_.allFinite()) bad_state();
    impose_motion_drives(t_, q_, qd_);  // driven coordinates follow their law exactly
    if (constrained_) project(q_, qd_);
    if (!q_.allFinite() || !qd_.allFinite()) bad_state();
  } catch (...) {
    restore_state();  // the run stops at the last good state
    throw;
  }
}

void Simulation::advance(double t_end, double rtol, double atol, double max_step) {
  if (!aws_) aws_ = std::make_unique<AdaptiveWorkspace>(model_);
  if (h_adaptive_ <= 0.0) h_adaptive_ = std::min(max_step, 1e-3);
  while (t_ < t_end - 1e-12 * std::max(1.0, std::abs(t_end))) {
    const double h = std::min({h_adaptive_, max_step, t_end - t_});
    stage_ = 0;
    double err = 0.0;
    try {
      err = dopri5_attempt(model_, f_, t_, h, q_, qd_, rtol, atol, q_try_, qd_try_, *aws_);
    } catch (...) {
      stage_ = -1;  // q_, qd_ untouched: the attempt works on copies
      throw;
    }
    stage_ = -1;
    // Standard controller: safety 0.9, growth limited to [0.2, 5].
    const double factor = err > 0 ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0) : 5.0;
    if (!(err <= 1.0)) {
      ++rejected_;
      h_adaptive_ = h * std::min(factor, 0.9);
      if (h_adaptive_ < 1e-12 * std::max(1.0, t_))
        throw SetupError("at t = " + std::to_string(t_) +
                         " the adaptive integrator needs a step below 1e-12 s: the motion is "
                         "singular or the tolerances too tight");
      continue;
    }
    ++accepted_;
    save_state(h, Integrator::RK45);
    for (int s = 0; s < 7; ++s) {
      work_ += h * kDopri5Weights[s] * stage_power_[s];
      dissipated_ += h * kDopri5Weights[s] * stage_dissipation_[s];
    }
    q_ = q_try_;
    qd_ = qd_try_;
    t_ += h;
    finish_step();
    h_adaptive_ = h * factor;
  }
}

void Simulation::loop_wrenches() {
  // Loop joint k transmits f = T λ_k to its successor (successor joint-frame coordinates).
  for (Force& f : f_loop_) f.setZero();
  VecN d;
  Mat6X T;
  for (std::size_t l = 0; l < mech_.compiled.loops.size(); ++l) {
    const LoopJoint& lj = mech_.compiled.loops[l];
    loop_jcalc(lj.joint, loop_transform(data_, lj), d, T);
    Force f = T * cd_.mu.segment(lj.row, lj.joint.nc());  // constraint force (and actuator)
    for (const LoopDrive& ld : loop_drives_)
      if (ld.loop == static_cast<int>(l)) f += ld.P * ld.mu;
    for (std::size_t j = 0; j < mech_.compiled.joint_map.size(); ++j)
      if (mech_.compiled.joint_map[j].loop &&
          mech_.compiled.joint_map[j].index == static_cast<int>(l))
        wrench_[j] = f + loop_applied_wrench_[l];
    const Transform Xs = lj.successor == 0 ? lj.X_S : lj.X_S * data_.X0[lj.successor];
    const Force f0 = Xs.transpose_apply(f);  // base coordinates
    f_loop_[lj.successor] += f0;
    f_loop_[lj.predecessor] -= f0;
  }
}

void Simulation::evaluate() {
  cd_.minimum_norm = true;  // reported joint forces: the minimum-norm split over redundant rows
  accelerations(t_, q_, qd_, qdd_);
  cd_.minimum_norm = false;
  if (constrained_) {
    check_drives_independent(("at t = " + std::to_string(t_)).c_str());
    forward_kinematics(model_, data_, q_);
    loop_position_errors(model_, data_, mech_.compiled.loops, delta_);
    loop_error_ = delta_.size() ? delta_.cwiseAbs().maxCoeff() : 0.0;
    loop_wrenches();
  }
  // Tree joint forces: RNEA with the loop-joint forces and applied forces as external forces.
  for (int i = 0; i <= model_.nb; ++i)
    f_total_[i] = (constrained_ ? f_loop_[i] : Force::Zero()) +
                  (external_forces_ ? f_applied_[i] : Force::Zero());
  tau_ = rnea(model_, data_, q_, qd_, qdd_, &f_total_);
  if (!tau_.allFinite())
    throw SetupError(
        "at t = " + std::to_string(t_) + " the joint forces are not finite (joint '" +
        joint_of_velocity(
            mech_, static_cast<int>(std::find_if(tau_.begin(), tau_.end(),
                                                 [](double x) { return !std::isfinite(x); }) -
                                    tau_.begin())) +
        "')");
  for (std::size_t j = 0; j < wrench_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    if (map.loop) continue;
    const int i = map.index;
    // RNEA's f_i acts on model body i, whose frame is the tree joint's successor frame. For a
    // reversed joint that is the user's parent: flip the sign and move it to the child frame.
    wrench_[j] =
        model_.joints[i].reversed ? Force(-data_.jc[i].XJ.transpose_apply(data_.f[i])) : data_.f[i];
  }
  joint_outputs();
  compute_energy();
}

void Simulation::compute_energy() {
  // Needs applied_forces() at the current state (spring-damper lengths, loop-joint coordinates).
  forward_kinematics(model_, data_, q_, qd_);
  energy_.kinetic = kinetic_energy(model_, data_);
  double V = potential_energy(model_, data_);
  for (const SpringBinding& s : mech_.springs) {
    const int l = s.q >= 0 ? -1 : mech_.compiled.joint_map[s.user_joint].index;
    const double x = (s.q >= 0 ? q_[s.q] : loop_q_[l][0]) - s.rest;
    V += 0.5 * s.stiffness * x * x;
  }
  for (std::size_t i = 0; i < mech_.forces.size(); ++i) {
    const double x = sd_length_[i] - mech_.forces[i].rest_length;
    V += 0.5 * mech_.forces[i].stiffness * x * x;
  }
  energy_.potential = V;
  const double E = energy_.kinetic + energy_.potential;
  energy_.work = work_;
  energy_.dissipated = dissipated_;
  energy_.residual = E - initial_energy_ - work_ + dissipated_;
  double p = 0.0;
  for (std::size_t j = 0; j < joints_.size(); ++j)
    for (const DriveBinding& d : drives_)
      if (d.user_joint == static_cast<int>(j)) p += joints_[j].tau.dot(joints_[j].qd);
  energy_.power = p;
}

void Simulation::loop_joint_motion(const LoopJoint& l, JointState& out) const {
  // Frames of the loop joint: velocities and accelerations in their own coordinates.
  auto frame_motion = [&](int body, const Transform& X, const std::vector<Motion>& m) {
    return body == 0 ? Motion::Zero() : Motion(X.apply(m[body]));
  };
  const Transform X_sp = loop_transform(data_, l);
  const Motion vs = frame_motion(l.successor, l.X_S, data_.v);
  const Motion vJ = vs - X_sp.apply(frame_motion(l.predecessor, l.X_P, data_.v));
  const Motion a_rel = frame_motion(l.successor, l.X_S, data_.a) -
                       X_sp.apply(frame_motion(l.predecessor, l.X_P, data_.a));
  out.q.resize(l.joint.nq());
  joint_coordinates(l.joint, X_sp, out.q.data());
  JointCalc jc;
  const VecN zero = VecN::Zero(l.joint.nv());
  jcalc(l.joint, out.q.data(), zero.data(), jc);
  const auto pinv = jc.S.completeOrthogonalDecomposition();
  out.qd = pinv.solve(vJ);  // S q̇ = v_J
  jcalc(l.joint, out.q.data(), out.qd.data(), jc);
  out.qdd = pinv.solve(
      Motion(a_rel - jc.cJ - cross_motion(vs, vJ)));  // a_s = X a_p + S q̈ + c_J + v_s × v_J
  const int index = static_cast<int>(&l - mech_.compiled.loops.data());
  out.tau = loop_tau_[index];
  for (const LoopDrive& ld : loop_drives_)
    if (ld.loop == index) out.tau[0] += ld.mu;
}

void Simulation::joint_outputs() {
  // data_ holds v and a of every body from the last RNEA pass (body coordinates).
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    JointState& js = joints_[j];
    if (map.loop) {
      loop_joint_motion(mech_.compiled.loops[map.index], js);
      continue;
    }
    const int i = map.index;
    const int nq = model_.joints[i].nq(), nv = model_.joints[i].nv();
    js.q = q_.segment(model_.q_index[i], nq);
    js.qd = qd_.segment(model_.v_index[i], nv);
    js.qdd = qdd_.segment(model_.v_index[i], nv);
    // J.tau is what the drive and spring produce: exactly the applied force on passive joints,
    // the inverse-dynamics force on motion-driven ones.
    js.tau = fd_[i] ? tau_in_.segment(model_.v_index[i], nv) : tau_.segment(model_.v_index[i], nv);
  }
}

}  // namespace articula
