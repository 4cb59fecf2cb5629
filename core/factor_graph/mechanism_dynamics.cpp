#include "core/factor_graph/mechanism_dynamics.hpp"

#include <bit>

#include "core/sim/applied_forces.hpp"

namespace articula::fg {

namespace {
// Loop forces the equations leave indeterminate beyond the planar rows (a spatially redundant
// loop such as Bennett's): then soft λ = 0 priors pick the minimum-norm ones, as Method 2 does.
// Lighter than the drive priors so that a redundant actuation split stays the minimum-torque one.
double loop_force_sigma(const Mechanism& m, bool redundant_drives) {
  int planar_rows = 0;
  for (const LoopJoint& l : m.compiled.loops) planar_rows += std::popcount(l.zero_rows);
  if (m.mobility.redundant <= planar_rows) return 0.0;
  return redundant_drives ? 1e3 : 1.0;
}
}  // namespace

InstantInput mechanism_instant_input(const Mechanism& m, double t, const VecX& q, const VecX& qd,
                                     Data& data, const MechanismDynamicsOptions& options,
                                     std::vector<int>& loop_drive_of_drive) {
  if (!m.couplings.empty())
    throw SetupError("the factor graph does not model joint couplings yet (coupling '" +
                     m.spec.couplings[m.couplings[0].index].name + "')");
  const Model& model = m.model();
  AppliedForces applied(m);
  applied.evaluate(m.drives, t, q, qd, data);
  InstantInput in;
  in.q = q, in.qd = qd;
  in.qdd = VecX::Zero(model.nv);
  in.tau = applied.tree_tau();
  if (applied.body()) in.f_ext = *applied.body();
  in.qdd_given.assign(model.nb + 1, false);
  in.torque_sigma.assign(model.nb + 1, 0.0);
  loop_drive_of_drive.assign(m.drives.size(), -1);
  int motion = 0;
  for (const DriveBinding& d : m.drives) motion += d.kind == DriveSpec::Kind::Motion;
  const bool redundant = motion > m.mobility.mobility;
  for (size_t k = 0; k < m.drives.size(); ++k) {
    const DriveBinding& d = m.drives[k];
    if (d.kind != DriveSpec::Kind::Motion) continue;
    const double sigma = options.drive_sigma.empty() ? 1.0 : options.drive_sigma[k];
    const double a = d.eval(t).d2;
    if (d.v >= 0) {
      const int body = model.v_body[d.v];
      in.qdd_given[body] = true;
      in.qdd[d.v] = a;
      if (redundant) in.torque_sigma[body] = sigma;
    } else {
      loop_drive_of_drive[k] = static_cast<int>(in.loop_drives.size());
      in.loop_drives.push_back(
          {m.compiled.joint_map[d.user_joint].index, a, redundant ? sigma : 0.0});
    }
  }
  in.loop_force_sigma = loop_force_sigma(m, redundant);
  return in;
}

MechanismDynamicsResult mechanism_dynamics(const Mechanism& m, double t, const VecX& q,
                                           const VecX& qd,
                                           const MechanismDynamicsOptions& options) {
  Data data(m.model());
  std::vector<int> loop_drive;
  const InstantInput in = mechanism_instant_input(m, t, q, qd, data, options, loop_drive);
  InstantDynamicsGraph graph(m.model(), m.compiled.loops, data, in);
  MechanismDynamicsResult out;
  const InstantResult r = graph.solve(options.order, &out.net);
  out.qdd = r.qdd;
  out.tau = r.tau;
  out.mobility = m.mobility.mobility;
  for (size_t k = 0; k < m.drives.size(); ++k) {
    const DriveBinding& d = m.drives[k];
    const bool motion = d.kind == DriveSpec::Kind::Motion;
    out.motion_drives += motion;
    double force = 0.0, acc = 0.0;
    if (d.v >= 0) {
      force = motion ? r.tau[d.v] - in.tau[d.v] : d.value(t);
      acc = r.qdd[d.v];
    } else if (motion) {
      force = r.loop_drive_tau[loop_drive[k]];
      acc = in.loop_drives[loop_drive[k]].qdd;
    } else {
      force = d.value(t);
    }
    out.drive_force.push_back(force);
    out.drive_qdd.push_back(acc);
  }
  out.redundant = out.motion_drives > out.mobility;
  return out;
}

}  // namespace articula::fg
