#include "ui/channel.hpp"

#include <QCoreApplication>
#include <memory>

#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot.hpp"

namespace articula {

namespace {

using Q = Channel::Quantity;

// Whether coordinate k (position if `position`, else velocity) of the joint is a length.
bool isLinear(const Joint& j, int k, bool position) {
  switch (j.type) {
    case JointType::Prismatic:
      return true;
    case JointType::Cylindrical:
      return k == 1;
    case JointType::Planar:
      return k >= 1;
    case JointType::Free:
      return position ? k < 3 : k >= 3;
    default:
      return false;
  }
}

bool isQuaternion(const Joint& j, int k) {
  return (j.type == JointType::Spherical) || (j.type == JointType::Free && k >= 3);
}

const Joint& jointOf(const Channel& c, const Mechanism& m) {
  return m.spec.joints[c.joint].joint;
}

QString coordinateSuffix(const Channel& c, const Mechanism& m) {
  const Joint& j = jointOf(c, m);
  const int n = c.quantity == Q::Q ? j.nq() : j.nv();
  return n > 1 ? QStringLiteral("[%1]").arg(c.index) : QString();
}

// The coupling's joint B, whose coordinate its force acts on.
const Joint& couplingJoint(const Channel& c, const Mechanism& m) {
  return m.spec.joints[m.couplings[c.index].b.user_joint].joint;
}

QString couplingName(const Channel& c, const Mechanism& m) {
  return QString::fromStdString(m.spec.couplings[m.couplings[c.index].index].name);
}

// The model's limits and contacts, bound once per model. bind_unilaterals runs forward
// kinematics at q0 and parses every cam profile, and a stop channel's name and unit are asked for
// on every hover readout, axis title and menu entry (a menu of n stops bound them 2n times). The
// key is the shared_ptr owning the model (Mechanism::weak_from_this), not its address: a freed
// model's address is reused by the next one, while the weak_ptr held here keeps its control block
// from being reused. The GUI holds its models as shared_ptr<const Mechanism>, never edited in
// place, so a key always means the same model. A model not owned by a shared_ptr (a copy on the
// stack) is bound on every call, as before. One entry per thread: the plots show one model.
std::shared_ptr<const std::vector<Unilateral>> boundUnilaterals(const Mechanism& m) {
  thread_local std::weak_ptr<const Mechanism> cached_model;
  thread_local std::shared_ptr<const std::vector<Unilateral>> cached;
  const std::weak_ptr<const Mechanism> owner = m.weak_from_this();
  if (owner.expired()) return std::make_shared<const std::vector<Unilateral>>(bind_unilaterals(m));
  const bool same = !owner.owner_before(cached_model) && !cached_model.owner_before(owner);
  if (!same || !cached) {
    cached = std::make_shared<const std::vector<Unilateral>>(bind_unilaterals(m));
    cached_model = owner;
  }
  return cached;
}

// The limit or contact a StopForce / Gap channel shows.
Unilateral unilateralOf(const Channel& c, const Mechanism& m) {
  const std::shared_ptr<const std::vector<Unilateral>> u = boundUnilaterals(m);
  return c.index >= 0 && c.index < static_cast<int>(u->size()) ? (*u)[c.index] : Unilateral{};
}

QString stopName(const Channel& c, const Mechanism& m, bool key) {
  const Unilateral u = unilateralOf(c, m);
  const QString name = QString::fromStdString(u.name);
  const bool gap = c.quantity == Q::Gap;
  if (u.friction()) return name + (key ? ".friction_force" : ".friction force");
  if (u.slide()) {  // a contact's friction along one tangent
    const QString which = u.partner < 0 ? QString() : u.primary() ? "(t1)" : "(t2)";
    return name + (key ? ".ft" + which : ".friction force " + which).trimmed();
  }
  if (u.kind == Unilateral::Kind::Contact || u.slot())
    return name + (gap ? QStringLiteral(".gap") : QStringLiteral(".fn"));
  const QString side = u.kind == Unilateral::Kind::LowerLimit ? "lower" : "upper";
  if (key) return name + (gap ? ".gap_" : ".limit_force_") + side;
  return name +
         (gap ? QStringLiteral(".gap (%1 stop)") : QStringLiteral(".stop force (%1)")).arg(side);
}

// Metres or radians for a limit on a joint of that kind, metres for contacts.
bool stopIsLinear(const Channel& c, const Mechanism& m) {
  const Unilateral u = unilateralOf(c, m);
  return u.kind == Unilateral::Kind::Contact || u.slide() || u.slot() ||
         isLinear(m.spec.joints[u.user_joint].joint, 0, true);
}

}  // namespace

QString channelName(const Channel& c, const Mechanism& m) {
  if (!c.perJoint()) {
    switch (c.quantity) {
      case Q::CouplingTau:
        return couplingName(c, m) + QStringLiteral(".τ");
      case Q::StopForce:
      case Q::Gap:
        return stopName(c, m, false);
      case Q::ImpactLoss:
        return QStringLiteral("impact loss");
      case Q::Kinetic:
        return QStringLiteral("kinetic energy");
      case Q::Potential:
        return QStringLiteral("potential energy");
      case Q::Total:
        return QStringLiteral("total energy");
      case Q::LoopError:
        return QStringLiteral("loop error");
      default:
        return QStringLiteral("drive power");
    }
  }
  const QString joint = QString::fromStdString(m.spec.joints[c.joint].name);
  static const char* kSymbols[] = {"q",  "qd", "qdd", "τ",  "Fx",  "Fy",
                                   "Fz", "Mx", "My",  "Mz", "|F|", "|M|"};
  QString name = joint + "." + QString::fromUtf8(kSymbols[static_cast<int>(c.quantity)]);
  if (c.quantity <= Q::Tau) name += coordinateSuffix(c, m);
  return name;
}

QString channelKey(const Channel& c, const Mechanism& m) {
  if (c.quantity == Q::CouplingTau) return couplingName(c, m) + QStringLiteral(".tau");
  if (c.quantity == Q::StopForce || c.quantity == Q::Gap) return stopName(c, m, true);
  if (!c.perJoint()) return channelName(c, m).replace(' ', '_');
  static const char* kKeys[] = {"q",  "qd", "qdd", "tau", "Fx", "Fy",
                                "Fz", "Mx", "My",  "Mz",  "F",  "M"};
  QString key = QString::fromStdString(m.spec.joints[c.joint].name) + "." +
                kKeys[static_cast<int>(c.quantity)];
  if (c.quantity <= Q::Tau) key += coordinateSuffix(c, m);
  return key;
}

QString channelUnit(const Channel& c, const Mechanism& m) {
  switch (c.quantity) {
    case Q::CouplingTau:
      return isLinear(couplingJoint(c, m), 0, false) ? QStringLiteral("N") : QStringLiteral("N·m");
    case Q::Fx:
    case Q::Fy:
    case Q::Fz:
    case Q::ForceMagnitude:
      return QStringLiteral("N");
    case Q::Mx:
    case Q::My:
    case Q::Mz:
    case Q::MomentMagnitude:
      return QStringLiteral("N·m");
    case Q::Kinetic:
    case Q::Potential:
    case Q::Total:
      return QStringLiteral("J");
    case Q::LoopError:
      return QString();
    case Q::Power:
      return QStringLiteral("W");
    case Q::StopForce:
      return stopIsLinear(c, m) ? QStringLiteral("N") : QStringLiteral("N·m");
    case Q::Gap:
      return stopIsLinear(c, m) ? QStringLiteral("m") : QStringLiteral("rad");
    case Q::ImpactLoss:
      return QStringLiteral("J");
    default:
      break;
  }
  const Joint& j = jointOf(c, m);
  if (c.quantity == Q::Q && isQuaternion(j, c.index)) return QString();
  const bool lin = isLinear(j, c.index, c.quantity == Q::Q);
  switch (c.quantity) {
    case Q::Q:
      return lin ? "m" : "rad";
    case Q::Qd:
      return lin ? "m/s" : "rad/s";
    case Q::Qdd:
      return lin ? "m/s²" : "rad/s²";
    default:
      return lin ? "N" : "N·m";
  }
}

QString channelKind(const Channel& c, const Mechanism& m) {
  switch (c.quantity) {
    case Q::Q:
      return QStringLiteral("position q");
    case Q::Qd:
      return QStringLiteral("velocity qd");
    case Q::Qdd:
      return QStringLiteral("acceleration qdd");
    case Q::Tau:
      return channelUnit(c, m) == "N" ? QStringLiteral("drive force τ")
                                      : QStringLiteral("drive torque τ");
    case Q::Fx:
    case Q::Fy:
    case Q::Fz:
    case Q::ForceMagnitude:
      return QStringLiteral("reaction force");
    case Q::Mx:
    case Q::My:
    case Q::Mz:
    case Q::MomentMagnitude:
      return QStringLiteral("reaction moment");
    case Q::Kinetic:
    case Q::Potential:
    case Q::Total:
    case Q::ImpactLoss:
      return QStringLiteral("energy");
    case Q::StopForce:
      return QStringLiteral("contact force λ");
    case Q::Gap:
      return QStringLiteral("gap φ");
    case Q::LoopError:
      return QStringLiteral("loop error");
    case Q::Power:
      return QStringLiteral("power");
    case Q::CouplingTau:
      return channelUnit(c, m) == "N" ? QStringLiteral("coupling force τ")
                                      : QStringLiteral("coupling torque τ");
  }
  return {};
}

namespace {
double entry(const std::vector<double>& v, int i) {  // 0 for a channel of an older snapshot
  return i >= 0 && i < static_cast<int>(v.size()) ? v[i] : 0.0;
}
}  // namespace

double channelValue(const Channel& c, const Snapshot& s, const Mechanism& m) {
  switch (c.quantity) {
    case Q::Kinetic:
      return s.kinetic_energy;
    case Q::Potential:
      return s.potential_energy;
    case Q::Total:
      return s.kinetic_energy + s.potential_energy;
    case Q::LoopError:
      return s.loop_error;
    case Q::CouplingTau:
      return entry(s.coupling_tau, c.index);
    case Q::StopForce:
      return entry(s.unilateral_force, c.index);
    case Q::Gap:
      return entry(s.gap, c.index);
    case Q::ImpactLoss:
      return s.impact_loss;
    case Q::Power: {
      double p = 0.0;
      for (const DriveBinding& d : m.drives)
        p += s.joints[d.user_joint].tau.dot(s.joints[d.user_joint].qd);
      return p;
    }
    default:
      break;
  }
  if (c.joint < 0 || c.joint >= static_cast<int>(s.joints.size())) return 0.0;
  const Simulation::JointState& js = s.joints[c.joint];
  const Force& w = s.wrench[c.joint];  // [n; f]
  const auto at = [&](const auto& v) { return c.index < v.size() ? v[c.index] : 0.0; };
  switch (c.quantity) {
    case Q::Q:
      return at(js.q);
    case Q::Qd:
      return at(js.qd);
    case Q::Qdd:
      return at(js.qdd);
    case Q::Tau:
      return at(js.tau);
    case Q::Fx:
      return w[3];
    case Q::Fy:
      return w[4];
    case Q::Fz:
      return w[5];
    case Q::Mx:
      return w[0];
    case Q::My:
      return w[1];
    case Q::Mz:
      return w[2];
    case Q::ForceMagnitude:
      return w.tail<3>().norm();
    case Q::MomentMagnitude:
      return w.head<3>().norm();
    default:
      return 0.0;
  }
}

std::vector<Channel> jointChannels(const Mechanism& m, int joint) {
  std::vector<Channel> out;
  const Joint& j = m.spec.joints[joint].joint;
  for (int k = 0; k < j.nq(); ++k) out.push_back({Q::Q, joint, k});
  for (Q q : {Q::Qd, Q::Qdd, Q::Tau})
    for (int k = 0; k < j.nv(); ++k) out.push_back({q, joint, k});
  for (Q q : {Q::ForceMagnitude, Q::Fx, Q::Fy, Q::Fz, Q::MomentMagnitude, Q::Mx, Q::My, Q::Mz})
    out.push_back({q, joint, 0});
  return out;
}

std::vector<Channel> mechanismChannels(const Mechanism& m) {
  std::vector<Channel> out{{Q::Kinetic}, {Q::Potential}, {Q::Total}, {Q::Power}, {Q::LoopError}};
  for (std::size_t i = 0; i < m.couplings.size(); ++i)
    out.push_back({Q::CouplingTau, -1, static_cast<int>(i)});
  const std::shared_ptr<const std::vector<Unilateral>> u = boundUnilaterals(m);
  const int stops = static_cast<int>(u->size());
  for (int i = 0; i < stops; ++i) out.push_back({Q::StopForce, -1, i});
  for (int i = 0; i < stops; ++i)
    if ((*u)[i].has_gap()) out.push_back({Q::Gap, -1, i});
  if (stops > 0) out.push_back({Q::ImpactLoss});
  return out;
}

}  // namespace articula
