#include <sstream>

#include "core/io/visual_json.hpp"
#include "interchange/urdf.hpp"

namespace articula {
namespace {

const char* urdf_type(const Joint& j, const JointSpec& js) {
  switch (j.type) {
    case JointType::Revolute:
      return js.limits && js.limits->lower && js.limits->upper ? "revolute" : "continuous";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Fixed:
      return "fixed";
    case JointType::Free:
      return "floating";
    case JointType::Planar:
      return "planar";
    default:
      return nullptr;
  }
}

std::string limit_element(const JointSpec& js, const char* type) {
  const std::string t = type;
  if (t != "revolute" && t != "prismatic") return "";
  const double lo = js.limits ? js.limits->lower.value_or(-1e16) : -1e16;
  const double hi = js.limits ? js.limits->upper.value_or(1e16) : 1e16;
  return "<limit lower='" + num(lo) + "' upper='" + num(hi) + "' effort='0' velocity='0'/>";
}

// The body's visuals, moved from the user's body frame to the link frame (the model body's).
void write_visuals(std::ostream& os, const Mechanism& mech, int i) {
  const BodySpec& body = mech.spec.bodies[mech.compiled.user_body[i]];
  const Transform X_body_link = mech.compiled.X_body[i].inverse();  // ^{body} X_{link}
  for (const VisualSpec& v : body_visuals(body)) {
    const Pose p = Pose::of(v.frame.transform() * X_body_link);  // the visual's pose in the link
    os << "    <visual>\n      <origin xyz='" << nums(p.p) << "' rpy='" << nums(rpy_of(p.R))
       << "'/>\n      <geometry>";
    if (v.shape == VisualSpec::Shape::Box)
      os << "<box size='" << nums(v.size) << "'/>";
    else if (v.shape == VisualSpec::Shape::Cylinder)
      os << "<cylinder radius='" << num(v.radius) << "' length='" << num(v.length) << "'/>";
    else
      os << "<sphere radius='" << num(v.radius) << "'/>";
    os << "</geometry>\n    </visual>\n";
  }
}

void write_link(std::ostream& os, const Mechanism& mech, int i) {
  const RigidBodyInertia& I = mech.model().inertia[i];
  const Mat3 Ic = I.inertia_about_com();
  os << "  <link name='" << xml_escape(mech.model().body_names[i])
     << "'>\n    <inertial>\n      <origin xyz='" << nums(I.com())
     << "' rpy='0 0 0'/>\n      <mass value='" << num(I.m) << "'/>\n      <inertia ixx='"
     << num(Ic(0, 0)) << "' iyy='" << num(Ic(1, 1)) << "' izz='" << num(Ic(2, 2)) << "' ixy='"
     << num(Ic(0, 1)) << "' ixz='" << num(Ic(0, 2)) << "' iyz='" << num(Ic(1, 2))
     << "'/>\n    </inertial>\n";
  write_visuals(os, mech, i);
  os << "  </link>\n";
}

// <mimic> for a coupling between two tree joints: q_B = ratio q_A + (q_B(0) - ratio q_A(0)).
std::string mimic_of(const Mechanism& mech, const std::string& joint) {
  for (const CouplingBinding& c : mech.couplings) {
    const CouplingSpec& cs = mech.spec.couplings[c.index];
    if (cs.joints[1] != joint) continue;
    return "    <mimic joint='" + xml_escape(cs.joints[0]) + "' multiplier='" + num(c.ratio) +
           "' offset='" + num(c.b.q0 - c.ratio * c.a.q0) + "'/>\n";
  }
  return "";
}

void write_joint(std::ostream& os, const Mechanism& mech, int i,
                 std::vector<std::string>& warnings) {
  const Model& model = mech.model();
  const std::string& name = model.joint_names[i];
  const JointSpec& js = mech.spec.joints[mech.spec.joint_index(name)];
  const Joint& j = model.joints[i];
  const char* type = urdf_type(j, js);
  if (!type)
    throw InterchangeError("joint '" + name + "': URDF has no " +
                           std::string(joint_type_name(j.type)) +
                           " joint (export to SDFormat or MJCF)");
  if (j.reversed && j.type != JointType::Revolute && j.type != JointType::Prismatic &&
      j.type != JointType::Fixed)
    throw InterchangeError("joint '" + name + "': a " + std::string(joint_type_name(j.type)) +
                           " joint traversed from child to parent cannot be written as URDF; swap "
                           "its parent and child");
  const Pose origin = Pose::of(model.X_tree[i]);
  const std::string parent = model.parent[i] ? model.body_names[model.parent[i]] : "world";
  os << "  <joint name='" << xml_escape(name) << "' type='" << type << "'>\n    <parent link='"
     << xml_escape(parent) << "'/>\n    <child link='" << xml_escape(model.body_names[i])
     << "'/>\n    <origin xyz='" << nums(origin.p) << "' rpy='" << nums(rpy_of(origin.R))
     << "'/>\n";
  if (j.type != JointType::Fixed && j.type != JointType::Free)
    os << "    <axis xyz='0 0 " << (j.reversed ? "-1" : "1") << "'/>\n";
  const std::string limit = limit_element(js, type);
  if (!limit.empty()) os << "    " << limit << "\n";
  if (js.friction)
    os << "    <dynamics damping='" << num(js.friction->viscous) << "' friction='"
       << num(js.friction->coulomb) << "'/>\n";
  os << mimic_of(mech, name) << "  </joint>\n";
  if (js.limits && js.limits->restitution != 0)
    warnings.push_back("joint '" + name +
                       "': restitution of its limits not exported (URDF has none)");
  if (js.drive) warnings.push_back("joint '" + name + "': drive not exported (URDF has none)");
  if (std::string(type) == "continuous" && js.limits && (js.limits->lower || js.limits->upper))
    warnings.push_back("joint '" + name +
                       "': a one-sided limit not exported (URDF revolute limits have both bounds)");
  if (js.spring) warnings.push_back("joint '" + name + "': spring not exported (URDF has none)");
}
}  // namespace

std::string to_urdf(const Mechanism& mech, std::vector<std::string>& warnings) {
  const Model& model = mech.model();
  if (!mech.compiled.loops.empty()) {
    std::string names;
    for (const LoopJoint& l : mech.compiled.loops)
      names += (names.empty() ? "'" : ", '") + l.name + "'";
    throw InterchangeError("URDF cannot hold closed loops (loop joints " + names +
                           "); export to SDFormat (.sdf) or MJCF (.xml) instead");
  }
  for (const CouplingSpec& c : mech.spec.couplings) {
    int mimics = 0;
    for (const CouplingSpec& o : mech.spec.couplings) mimics += o.joints[1] == c.joints[1];
    if (mimics > 1)
      throw InterchangeError("coupling '" + c.name + "': joint '" + c.joints[1] +
                             "' is the driven joint of two couplings; URDF's <mimic> holds one");
  }
  std::ostringstream os;
  os << "<?xml version='1.0'?>\n<!-- written by Articula; link frames are joint frames -->\n<robot "
        "name='"
     << xml_escape(mech.spec.name.empty() ? "mechanism" : mech.spec.name)
     << "'>\n  <link name='world'/>\n";
  for (int i = 1; i <= model.nb; ++i) write_link(os, mech, i);
  for (int i = 1; i <= model.nb; ++i) write_joint(os, mech, i, warnings);
  os << "</robot>\n";
  if (mech.spec.gravity != Vec3(0, 0, -9.81))
    warnings.push_back("gravity not exported: URDF readers assume -9.81 m/s^2 along z");
  if (!mech.spec.forces.empty())
    warnings.push_back("spring-dampers (forces) not exported (URDF has none)");
  if (!mech.spec.contacts.empty()) warnings.push_back("contacts not exported (URDF has none)");
  return os.str();
}

}  // namespace articula
