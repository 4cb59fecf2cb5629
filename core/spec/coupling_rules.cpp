// Validity of a coupling (see coupling_rules.hpp).
#include "core/spec/coupling_rules.hpp"

#include <charconv>
#include <cmath>

namespace articula {
namespace {

// Shortest round-trip form, as a file would show the number.
std::string show(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string a_joint(const JointSpec& js) {
  return "a " + std::string(joint_type_name(js.joint.type)) + " joint";
}

bool one_dof(const JointSpec& js) {
  const JointType t = js.joint.type;
  return t == JointType::Revolute || t == JointType::Prismatic || t == JointType::Helical;
}

std::optional<CouplingProblem> name_problem(const MechanismSpec& spec, int index,
                                            const CouplingSpec& c) {
  if (c.name.empty()) return CouplingProblem{"name", "name must not be empty"};
  if (spec.joint_index(c.name) >= 0)
    return CouplingProblem{"name", "'" + c.name + "' is already the name of a joint"};
  const int other = spec.coupling_index(c.name);
  if (other >= 0 && other != index)
    return CouplingProblem{"name", "the coupling name '" + c.name + "' is taken"};
  return std::nullopt;
}

std::optional<CouplingProblem> joints_problem(const MechanismSpec& spec, const CouplingSpec& c) {
  for (int k = 0; k < 2; ++k) {
    const std::string field = "joints/" + std::to_string(k);
    const int j = spec.joint_index(c.joints[k]);
    if (j < 0) return CouplingProblem{field, "unknown joint '" + c.joints[k] + "'"};
    if (!one_dof(spec.joints[j]))
      return CouplingProblem{field, "joint '" + c.joints[k] + "' is " + a_joint(spec.joints[j]) +
                                        "; a coupling needs a 1-DOF joint (revolute, prismatic "
                                        "or helical)"};
  }
  if (c.joints[0] == c.joints[1])
    return CouplingProblem{"joints/1",
                           "a coupling joins two different joints; both are '" + c.joints[0] + "'"};
  if (c.type != CouplingSpec::Type::RackPinion) return std::nullopt;
  const JointSpec& a = spec.joints[spec.joint_index(c.joints[0])];
  const JointSpec& b = spec.joints[spec.joint_index(c.joints[1])];
  if (a.joint.type != JointType::Revolute)
    return CouplingProblem{"joints/0", "a rack and pinion needs a revolute pinion joint A; '" +
                                           a.name + "' is " + a_joint(a)};
  if (b.joint.type != JointType::Prismatic)
    return CouplingProblem{"joints/1", "a rack and pinion needs a prismatic rack joint B; '" +
                                           b.name + "' is " + a_joint(b)};
  return std::nullopt;
}

std::optional<CouplingProblem> ratio_problem(const CouplingSpec& c) {
  using Type = CouplingSpec::Type;
  if (!std::isfinite(c.ratio)) return CouplingProblem{"ratio", "ratio must be finite"};
  if (c.ratio == 0.0) return CouplingProblem{"ratio", "ratio must not be 0"};
  if (c.type == Type::Gear && !(c.ratio < 0.0))
    return CouplingProblem{"ratio",
                           "an external gear pair turns the other way: ratio must be "
                           "< 0, got " +
                               show(c.ratio)};
  if (c.type == Type::Belt && !(c.ratio > 0.0))
    return CouplingProblem{"ratio",
                           "a belt turns both pulleys the same way: ratio must be > 0, "
                           "got " +
                               show(c.ratio)};
  if (!c.radii) return std::nullopt;
  for (int k = 0; k < 2; ++k)
    if (!((*c.radii)[k] > 0.0) || !std::isfinite((*c.radii)[k]))
      return CouplingProblem{"radii/" + std::to_string(k),
                             "a radius must be a finite number > 0, got " + show((*c.radii)[k])};
  if (c.type != Type::Gear && c.type != Type::Belt) return std::nullopt;
  const double expected = *ratio_from_radii(c.type, (*c.radii)[0], (*c.radii)[1]);
  if (std::abs(c.ratio - expected) > 1e-12 * std::abs(expected))
    return CouplingProblem{"ratio", "ratio " + show(c.ratio) + " does not match the radii: " +
                                        (c.type == Type::Gear ? "-rA/rB = " : "rA/rB = ") +
                                        show(expected)};
  return std::nullopt;
}

}  // namespace

std::optional<CouplingProblem> coupling_problem(const MechanismSpec& spec, int index,
                                                const CouplingSpec& c) {
  if (auto p = name_problem(spec, index, c)) return p;
  if (auto p = joints_problem(spec, c)) return p;
  return ratio_problem(c);
}

std::optional<double> ratio_from_radii(CouplingSpec::Type type, double rA, double rB) {
  switch (type) {
    case CouplingSpec::Type::Gear:
      return -rA / rB;
    case CouplingSpec::Type::Belt:
      return rA / rB;
    case CouplingSpec::Type::RackPinion:
      return rA;
    case CouplingSpec::Type::Linear:
      break;
  }
  return std::nullopt;
}

std::array<double, 2> radii_for_ratio(CouplingSpec::Type type, double ratio,
                                      const std::array<double, 2>& radii) {
  const double k = std::abs(ratio);  // rA / rB
  if (type == CouplingSpec::Type::Gear && k > 0) {
    const double rB = (radii[0] + radii[1]) / (1.0 + k);
    return {k * rB, rB};
  }
  if (type == CouplingSpec::Type::Belt && k > 0) return {k * radii[1], radii[1]};
  return radii;
}

std::vector<int> couplings_on_joint(const MechanismSpec& spec, const std::string& name) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(spec.couplings.size()); ++i)
    if (spec.couplings[i].joints[0] == name || spec.couplings[i].joints[1] == name)
      out.push_back(i);
  return out;
}

}  // namespace articula
