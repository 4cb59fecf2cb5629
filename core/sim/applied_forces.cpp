#include "core/sim/applied_forces.hpp"

#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/sim/diagnostics.hpp"

namespace articula {

AppliedForces::AppliedForces(const Mechanism& mech) : mech_(mech) {
  const Model& model = mech.model();
  tau_ = VecX::Zero(model.nv);
  f_.assign(model.nb + 1, Force::Zero());
  const std::size_t nl = mech.compiled.loops.size();
  loop_wrench_.assign(nl, Force::Zero());
  loop_q_.resize(nl);
  loop_qd_.resize(nl);
  loop_tau_.resize(nl);
  for (std::size_t l = 0; l < nl; ++l) loop_tau_[l] = VecN::Zero(mech.compiled.loops[l].joint.nv());
  for (const SpringBinding& sp : mech.springs) loop_inputs_ = loop_inputs_ || sp.v < 0;
  for (const DriveBinding& d : mech.drives)
    loop_inputs_ = loop_inputs_ || (d.v < 0 && d.kind == DriveSpec::Kind::Force);
  external_ = loop_inputs_ || !mech.forces.empty();
  length_.assign(mech.forces.size(), 0.0);
  rate_.assign(mech.forces.size(), 0.0);
}

void AppliedForces::evaluate(const std::vector<DriveBinding>& drives, double t, const VecX& q,
                             const VecX& v, Data& data) {
  t_ = t;
  tau_.setZero();
  for (const SpringBinding& s : mech_.springs)
    if (s.v >= 0) tau_[s.v] -= s.stiffness * (q[s.q] - s.rest) + s.damping * v[s.v];
  for (const DriveBinding& d : drives) {
    if (d.v < 0 || d.kind != DriveSpec::Kind::Force) continue;
    const double x = d.value(t);
    if (!std::isfinite(x)) throw_bad_drive(mech_, d, t, "force");
    tau_[d.v] += x;
  }
  if (!external_) return;
  forward_kinematics(mech_.model(), data, q, v);
  for (Force& f : f_) f.setZero();
  if (loop_inputs_) loop_forces(drives, t, data);
  spring_dampers(data);
}

void AppliedForces::loop_joint_velocity(int l, const Data& data) {
  // Coordinates from the frames' relative placement, velocities from S q̇ = v_J.
  const LoopJoint& lj = mech_.compiled.loops[l];
  LoopMotion m;
  loop_motion(data, lj, LoopLevel::Velocity, m);
  loop_q_[l].resize(lj.joint.nq());
  joint_coordinates(lj.joint, m.X_sp, loop_q_[l].data());
  JointCalc jc;
  const VecN zero = VecN::Zero(lj.joint.nv());
  jcalc(lj.joint, loop_q_[l].data(), zero.data(), jc);
  loop_qd_[l] = jc.S.completeOrthogonalDecomposition().solve(m.vJ);
}

void AppliedForces::loop_forces(const std::vector<DriveBinding>& drives, double t,
                                const Data& data) {
  const auto& loops = mech_.compiled.loops;
  for (std::size_t l = 0; l < loops.size(); ++l) loop_tau_[l].setZero();
  auto loop_index = [&](int user_joint) { return mech_.compiled.joint_map[user_joint].index; };
  for (const SpringBinding& sp : mech_.springs) {
    if (sp.v >= 0) continue;
    const int l = loop_index(sp.user_joint);
    loop_joint_velocity(l, data);
    loop_tau_[l][0] -= sp.stiffness * (loop_q_[l][0] - sp.rest) + sp.damping * loop_qd_[l][0];
  }
  for (const DriveBinding& d : drives) {
    if (d.v >= 0 || d.kind != DriveSpec::Kind::Force) continue;
    const int l = loop_index(d.user_joint);
    loop_joint_velocity(l, data);
    loop_tau_[l][0] += d.value(t);
  }
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const LoopJoint& lj = loops[l];
    if (lj.joint.nv() == 0 || loop_tau_[l].isZero(0.0)) {
      loop_wrench_[l].setZero();
      continue;
    }
    // The joint's generalized force as the minimum-norm wrench with S^T f = τ.
    JointCalc jc;
    jcalc(lj.joint, loop_q_[l].data(), loop_qd_[l].data(), jc);
    const Force f = jc.S * (jc.S.transpose() * jc.S).ldlt().solve(loop_tau_[l]);
    loop_wrench_[l] = f;
    const Force f0 = frame_from_base(data, lj.successor, lj.X_S).transpose_apply(f);
    f_[lj.successor] += f0;
    f_[lj.predecessor] -= f0;
  }
}

void AppliedForces::spring_dampers(const Data& data) {
  for (std::size_t i = 0; i < mech_.forces.size(); ++i) {
    const ForceBinding& fb = mech_.forces[i];
    auto world = [&](int b, const Vec3& p) { return b == 0 ? p : point_position(data, b, p); };
    auto velocity = [&](int b, const Vec3& p) {
      return b == 0 ? Vec3::Zero() : point_velocity(data, b, p);
    };
    const Vec3 p1 = world(fb.body1, fb.point1), p2 = world(fb.body2, fb.point2);
    const Vec3 d = p2 - p1;
    const double L = d.norm();
    const Vec3 u = L > 0 ? Vec3(d / L) : Vec3::Zero();  // coincident points: no direction, no force
    const double Ldot = u.dot(velocity(fb.body2, fb.point2) - velocity(fb.body1, fb.point1));
    length_[i] = L;
    rate_[i] = Ldot;
    const Vec3 F = (fb.stiffness * (L - fb.rest_length) + fb.damping * Ldot) * u;  // on body 1
    f_[fb.body1] += make_spatial(p1.cross(F), F);  // base coordinates, about the origin
    f_[fb.body2] -= make_spatial(p2.cross(F), F);
  }
}

double AppliedForces::power(const std::vector<DriveBinding>& drives, const VecX& v) const {
  double p = 0.0;
  for (const DriveBinding& d : drives) {
    if (d.kind != DriveSpec::Kind::Force) continue;
    if (d.v >= 0)
      p += d.value(t_) * v[d.v];
    else if (loop_inputs_)
      p += d.value(t_) * loop_qd_[mech_.compiled.joint_map[d.user_joint].index][0];
  }
  return p;
}

double AppliedForces::dissipation(const VecX& v) const {
  double d = 0.0;
  for (const SpringBinding& s : mech_.springs) {
    const double rate =
        s.v >= 0 ? v[s.v] : loop_qd_[mech_.compiled.joint_map[s.user_joint].index][0];
    d += s.damping * rate * rate;
  }
  for (std::size_t i = 0; i < mech_.forces.size(); ++i)
    d += mech_.forces[i].damping * rate_[i] * rate_[i];
  return d;
}

double AppliedForces::potential(const VecX& q) const {
  double V = 0.0;
  for (const SpringBinding& s : mech_.springs) {
    const int l = s.q >= 0 ? -1 : mech_.compiled.joint_map[s.user_joint].index;
    const double x = (s.q >= 0 ? q[s.q] : loop_q_[l][0]) - s.rest;
    V += 0.5 * s.stiffness * x * x;
  }
  for (std::size_t i = 0; i < mech_.forces.size(); ++i) {
    const double x = length_[i] - mech_.forces[i].rest_length;
    V += 0.5 * mech_.forces[i].stiffness * x * x;
  }
  return V;
}

}  // namespace articula
