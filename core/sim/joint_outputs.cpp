#include "core/sim/joint_outputs.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/sim/diagnostics.hpp"

namespace articula {

JointOutputs::JointOutputs(const Mechanism& mech) : mech_(mech) {
  const Model& model = mech.model();
  f_total_.assign(model.nb + 1, Force::Zero());
  tau_ = VecX::Zero(model.nv);
  wrench_.assign(mech.spec.joints.size(), Force::Zero());
  joints_.resize(mech.spec.joints.size());
  driven_body_.assign(model.nb + 1, false);
  for (const DriveBinding& d : mech.drives)
    if (d.kind == DriveSpec::Kind::Motion && d.v >= 0)
      driven_body_[mech.compiled.joint_map[d.user_joint].index] = true;
}

void JointOutputs::compute(Data& data, double t, const VecX& q, const VecX& qd, const VecX& qdd,
                           const AppliedForces& applied, const ConstraintForces& constraint) {
  const Model& model = mech_.model();
  // Tree joint forces: RNEA with the loop-joint forces and applied forces as external forces.
  const ExternalForces* fa = applied.body();
  for (int i = 0; i <= model.nb; ++i)
    f_total_[i] = constraint.body[i] + (fa ? (*fa)[i] : Force::Zero());
  tau_ = rnea(model, data, q, qd, qdd, &f_total_);
  if (!tau_.allFinite()) {
    const auto bad =
        std::find_if(tau_.begin(), tau_.end(), [](double x) { return !std::isfinite(x); });
    throw SetupError("at t = " + std::to_string(t) + " the joint forces are not finite (joint '" +
                     joint_of_velocity(mech_, static_cast<int>(bad - tau_.begin())) + "')");
  }
  tree_wrenches(data);
  // data holds v and a of every body from the RNEA pass (body coordinates).
  const VecX& tau_in = applied.tree_tau();
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    JointState& js = joints_[j];
    if (map.loop) {
      loop_joint_motion(data, map.index, js, true);
      js.tau = applied.loop_tau(map.index) + constraint.joint_tau[j];
      wrench_[j] = constraint.joint_wrench[j] + applied.loop_wrench(map.index);
      continue;
    }
    const int i = map.index, nv = model.joints[i].nv();
    tree_joint_motion(i, q, qd, qdd, js);
    // J.tau is what the drive and spring produce: exactly the applied force on passive joints,
    // on motion-driven ones the inverse-dynamics force less what couplings apply there.
    js.tau = driven_body_[i] ? VecN(tau_.segment(model.v_index[i], nv) -
                                    constraint.tree_tau.segment(model.v_index[i], nv))
                             : VecN(tau_in.segment(model.v_index[i], nv));
  }
}

// Loop joints' motion from the bodies' relative motion: gravity, which RNEA's pass adds to every
// body's acceleration and forward kinematics does not, cancels in it.
void JointOutputs::motion(Data& data, const VecX& q, const VecX& qd, const VecX& qdd) {
  forward_kinematics(mech_.model(), data, q, qd, qdd);
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    if (map.loop)
      loop_joint_motion(data, map.index, joints_[j], true);
    else
      tree_joint_motion(map.index, q, qd, qdd, joints_[j]);
  }
}

void JointOutputs::motion(Data& data, const VecX& q, const VecX& qd) {
  const Model& model = mech_.model();
  forward_kinematics(model, data, q, qd);
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    JointState& js = joints_[j];
    if (map.loop) {
      loop_joint_motion(data, map.index, js, false);
      continue;
    }
    const int i = map.index;
    js.q = q.segment(model.q_index[i], model.joints[i].nq());
    js.qd = qd.segment(model.v_index[i], model.joints[i].nv());
  }
}

void JointOutputs::tree_joint_motion(int i, const VecX& q, const VecX& qd, const VecX& qdd,
                                     JointState& out) const {
  const Model& model = mech_.model();
  const int nq = model.joints[i].nq(), nv = model.joints[i].nv();
  out.q = q.segment(model.q_index[i], nq);
  out.qd = qd.segment(model.v_index[i], nv);
  out.qdd = qdd.segment(model.v_index[i], nv);
}

void JointOutputs::tree_wrenches(const Data& data) {
  const Model& model = mech_.model();
  for (std::size_t j = 0; j < wrench_.size(); ++j) {
    const JointMapping& map = mech_.compiled.joint_map[j];
    if (map.loop) continue;
    const int i = map.index;
    // RNEA's f_i acts on model body i, whose frame is the tree joint's successor frame. For a
    // reversed joint that is the user's parent: flip the sign and move it to the child frame.
    wrench_[j] =
        model.joints[i].reversed ? Force(-data.jc[i].XJ.transpose_apply(data.f[i])) : data.f[i];
  }
}

void JointOutputs::loop_joint_motion(const Data& data, int index, JointState& out,
                                     bool accelerations) const {
  const LoopJoint& l = mech_.compiled.loops[index];
  LoopMotion m;
  loop_motion(data, l, accelerations ? LoopLevel::Bias : LoopLevel::Velocity, m);
  out.q.resize(l.joint.nq());
  joint_coordinates(l.joint, m.X_sp, out.q.data());
  JointCalc jc;
  const VecN zero = VecN::Zero(l.joint.nv());
  jcalc(l.joint, out.q.data(), zero.data(), jc);
  // S has full column rank (a motion subspace), so its least-squares solves go through the
  // nv x nv normal equations: a COD per call was a sixth of the estimator's placements.
  const Eigen::LDLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>> StS(
      jc.S.transpose() * jc.S);
  out.qd = StS.solve(jc.S.transpose() * m.vJ);  // S q̇ = v_J
  if (!accelerations) return;
  jcalc(l.joint, out.q.data(), out.qd.data(), jc);
  out.qdd = StS.solve(jc.S.transpose() *
                      Motion(m.a_bias - jc.cJ));  // a_s = X a_p + S q̈ + c_J + v_s × v_J
}

double JointOutputs::drive_power(const std::vector<DriveBinding>& drives) const {
  double p = 0.0;
  for (std::size_t j = 0; j < joints_.size(); ++j)
    for (const DriveBinding& d : drives)
      if (d.user_joint == static_cast<int>(j)) p += joints_[j].tau.dot(joints_[j].qd);
  return p;
}

}  // namespace articula
