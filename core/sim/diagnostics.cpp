#include "core/sim/diagnostics.hpp"

#include <cmath>
#include <sstream>

#include "core/algorithms/crba.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

namespace {
// The user joint whose tree joint is model body i.
std::string joint_of_body(const Mechanism& mech, int i) {
  for (std::size_t j = 0; j < mech.compiled.joint_map.size(); ++j)
    if (!mech.compiled.joint_map[j].loop && mech.compiled.joint_map[j].index == i)
      return mech.spec.joints[j].name;
  return "?";
}

std::string fmt(double x) {
  std::ostringstream os;
  os.precision(3);
  os << x;
  return os.str();
}
}  // namespace

std::string joint_of_velocity(const Mechanism& mech, int v) {
  const Model& m = mech.model();
  for (int i = 1; i <= m.nb; ++i)
    if (v >= m.v_index[i] && v < m.v_index[i] + m.joints[i].nv()) return joint_of_body(mech, i);
  return "?";
}

std::string joint_of_position(const Mechanism& mech, int q) {
  const Model& m = mech.model();
  for (int i = 1; i <= m.nb; ++i)
    if (q >= m.q_index[i] && q < m.q_index[i] + m.joints[i].nq()) return joint_of_body(mech, i);
  return "?";
}

std::string singular_mass_diagnosis(const Mechanism& mech, Data& data, const VecX& q,
                                    const std::vector<bool>& held) {
  const Model& model = mech.model();
  if (model.nv == 0) return "";
  crba(model, data, q);
  MatX H = data.H;
  for (int v = 0; v < model.nv; ++v)  // held coordinates leave the problem: decouple them
    if (held[v]) H.row(v).setZero(), H.col(v).setZero(), H(v, v) = 1.0;
  const double scale = H.diagonal().cwiseAbs().maxCoeff();
  if (!std::isfinite(scale)) return "the mass matrix is not finite (check masses and inertias)";
  // L^T D L (RBDA Table 6.3) in the tree's sparsity: a zero pivot at k means joint k's motion,
  // with everything beyond it, moves no inertia that the coordinates nearer the root do not
  // already account for. The row is dropped and the factorisation goes on to find all of them.
  std::vector<std::string> names;
  const std::vector<int>& lambda = model.lambda_v;
  for (int k = model.nv - 1; k >= 0; --k) {
    if (!(H(k, k) > 1e-12 * scale)) {
      const std::string name = joint_of_velocity(mech, k);
      if (names.empty() || names.back() != name) names.push_back(name);
      for (int i = lambda[k]; i >= 0; i = lambda[i]) H(k, i) = 0.0;
      continue;
    }
    for (int i = lambda[k]; i >= 0; i = lambda[i]) {
      const double a = H(k, i) / H(k, k);
      for (int j = i; j >= 0; j = lambda[j]) H(i, j) -= a * H(k, j);
      H(k, i) = a;
    }
  }
  if (names.empty()) return "";
  std::ostringstream os;
  os << "the mass matrix is singular: joint(s)";
  for (auto it = names.rbegin(); it != names.rend(); ++it) os << " '" << *it << "'";
  os << " move no mass or inertia (the bodies they carry are massless, or their mass lies on the"
        " joint axis): give those bodies mass and rotational inertia, or fix the joint";
  return os.str();
}

std::vector<std::string> stiffness_limits(const Mechanism& mech, Data& data, const VecX& q,
                                          double h, Integrator integrator) {
  std::vector<std::string> out;
  if (integrator == Integrator::RK45 || mech.springs.empty()) return out;
  const double limit = integrator == Integrator::RK4 ? 2.78 : 2.0;  // stability bound on h·|λ|
  const char* name = integrator == Integrator::RK4 ? "rk4" : "euler";
  crba(mech.model(), data, q);
  for (const SpringBinding& s : mech.springs) {
    if (s.v < 0) continue;  // loop-joint springs: no single diagonal entry to compare with
    const double m = data.H(s.v, s.v);
    if (!(m > 0)) continue;
    const double rate =
        std::max(std::sqrt(std::max(s.stiffness, 0.0) / m), std::max(s.damping, 0.0) / m);
    if (h * rate <= limit) continue;
    std::ostringstream os;
    os << "the spring-damper on joint '" << mech.spec.joints[s.user_joint].name << "' (stiffness "
       << fmt(s.stiffness) << ", damping " << fmt(s.damping) << ", rate " << fmt(rate)
       << " 1/s) is too stiff for " << name << " with step " << fmt(h) << " s: it is stable below "
       << fmt(limit / rate) << " s; use a smaller step or the adaptive integrator (rk45)";
    out.push_back(os.str());
  }
  return out;
}

void throw_bad_drive(const Mechanism& mech, const DriveBinding& d, double t, const char* quantity) {
  std::ostringstream os;
  const JointSpec& js = mech.spec.joints[d.user_joint];
  os << "at t = " << t << " the " << (d.kind == DriveSpec::Kind::Motion ? "motion" : "force")
     << " drive on joint '" << js.name << "' gives a non-finite " << quantity << " ("
     << (d.law ? js.drive->law.dump() : "'" + d.expression.text() + "'")
     << " is not defined there); the simulation stops at the last good state";
  throw SetupError(os.str());
}

void check_mass_matrix(const Mechanism& mech, const VecX& q, const std::vector<int>& held_v,
                       bool constrained, const std::string& when) {
  if (constrained && when.empty()) return;
  std::vector<bool> held(mech.model().nv, false);
  if (!constrained)
    for (int v : held_v) held[v] = true;
  Data scratch(mech.model());
  const std::string why = singular_mass_diagnosis(mech, scratch, q, held);
  if (!why.empty()) throw SetupError(why + when);
  if (!when.empty())  // called because the factorisation failed: say so even without a name
    throw SetupError("the mass matrix is not positive definite" + when +
                     " (check masses and inertias)");
}

namespace {
// The most a motion law may move its joint in one step before the step cannot follow it: an
// angle of 0.5 rad (RK4's stages then sample the law too coarsely to close the loops), or half
// the mechanism's size for a translation.
constexpr double kMaxStepAngle = 0.5, kMaxStepFraction = 0.5;

bool finite_jet(const TimeJet& j) {
  return std::isfinite(j.value) && std::isfinite(j.d1) && std::isfinite(j.d2);
}
}  // namespace

std::string drive_outran_step(const Mechanism& mech, const std::vector<DriveBinding>& drives,
                              double t0, double t1) {
  for (const DriveBinding& d : drives) {
    if (d.kind != DriveSpec::Kind::Motion || !(t1 > t0)) continue;
    const TimeJet a = d.eval(t0), b = d.eval(t1);
    const bool linear = mech.spec.joints[d.user_joint].joint.type == JointType::Prismatic;
    const double reach = linear ? kMaxStepFraction * mech.length_scale : kMaxStepAngle;
    const char* unit = linear ? " m" : " rad";
    std::ostringstream os;
    os << "at t = " << t1 << " the motion law of joint '" << mech.spec.joints[d.user_joint].name
       << "' ";
    if (!finite_jet(b)) {
      os << "is not finite (q = " << b.value << unit << ", q' = " << b.d1 << unit << "/s)";
      return os.str();
    }
    const double moved = std::abs(b.value - a.value);
    if (!(moved > reach)) continue;
    os << "moves it by " << moved << unit << " in one step of " << t1 - t0 << " s (q = " << b.value
       << unit << ", q' = " << b.d1 << unit << "/s), more than a step can follow (" << reach << unit
       << "): check the law, or use a smaller step";
    return os.str();
  }
  return "";
}

}  // namespace articula
