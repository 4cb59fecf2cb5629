#include "core/sim/simulation.hpp"

#include "core/algorithms/hybrid_dynamics.hpp"
#include "core/algorithms/rnea.hpp"

namespace articula {

Integrator integrator_from_name(const std::string& name) {
  if (name == "rk4") return Integrator::RK4;
  if (name == "euler") return Integrator::Euler;
  throw std::invalid_argument("unknown integrator '" + name + "' (known: rk4, euler)");
}

Simulation::Simulation(const Mechanism& mechanism)
    : mech_(mechanism), model_(mechanism.model()), data_(model_), ws_(model_) {
  if (mech_.has_loops())
    throw SetupError("closed-loop dynamics is not available yet: this mechanism has " +
                     std::to_string(mech_.compiled.loops.size()) + " loop joint(s) (first: '" +
                     mech_.compiled.loops.front().name + "')");
  fd_.assign(model_.nb + 1, true);
  for (const DriveBinding& d : mech_.drives)
    if (d.kind == DriveSpec::Kind::Motion) fd_[mech_.compiled.joint_map[d.user_joint].index] = false;
  q_ = mech_.q0;
  qd_ = mech_.qd0;
  qdd_ = VecX::Zero(model_.nv);
  tau_ = VecX::Zero(model_.nv);
  tau_in_ = VecX::Zero(model_.nv);
  qdd_in_ = VecX::Zero(model_.nv);
  wrench_.assign(mech_.spec.joints.size(), Force::Zero());
  f_ = [this](double t, const VecX& q, const VecX& v, VecX& qdd) { accelerations(t, q, v, qdd); };
  impose_motion_drives(0.0, q_, qd_);
}

void Simulation::impose_motion_drives(double t, VecX& q, VecX& qd) const {
  for (const DriveBinding& d : mech_.drives) {
    if (d.kind != DriveSpec::Kind::Motion) continue;
    const TimeJet j = d.expression.eval(t);
    q[d.q] = j.value;
    qd[d.v] = j.d1;
  }
}

void Simulation::accelerations(double t, const VecX& q, const VecX& v, VecX& qdd) {
  tau_in_.setZero();
  for (const SpringBinding& s : mech_.springs)
    tau_in_[s.v] -= s.stiffness * (q[s.q] - s.rest) + s.damping * v[s.v];
  for (const DriveBinding& d : mech_.drives) {
    const TimeJet j = d.expression.eval(t);
    if (d.kind == DriveSpec::Kind::Force) tau_in_[d.v] += j.value;
    else qdd_in_[d.v] = j.d2;  // exact second derivative of the prescribed motion
  }
  hybrid_dynamics(model_, data_, q, v, qdd_in_, tau_in_, fd_);
  qdd = data_.qdd;
}

void Simulation::step(double h, Integrator integrator) {
  if (integrator == Integrator::RK4) rk4_step(model_, f_, t_, h, q_, qd_, ws_);
  else euler_step(model_, f_, t_, h, q_, qd_, ws_);
  t_ += h;
  impose_motion_drives(t_, q_, qd_);  // driven coordinates follow their law exactly
}

void Simulation::evaluate() {
  accelerations(t_, q_, qd_, qdd_);
  tau_ = rnea(model_, data_, q_, qd_, qdd_);
  for (std::size_t j = 0; j < wrench_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    const int i = map.index;
    // RNEA's f_i acts on model body i, whose frame is the tree joint's successor frame. For a
    // reversed joint that is the user's parent: flip the sign and move it to the child frame.
    wrench_[j] = model_.joints[i].reversed ? Force(-data_.jc[i].XJ.transpose_apply(data_.f[i]))
                                           : data_.f[i];
  }
}

}  // namespace articula
