#include "interchange/mjcf_export.hpp"

#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/io/visual_json.hpp"
#include "core/model/data.hpp"
#include "interchange/xml_text.hpp"

namespace articula {
namespace {

struct Writer {
  const Mechanism& mech;
  const Model& model;
  std::vector<std::string>& warnings;
  Data data;  // kinematics at the assembled state, for the keyframe
  std::ostringstream os;
  std::vector<double> key;                 // keyframe qpos, in MuJoCo's order (the order written)
  std::ostringstream equality;             // <equality> children
  std::vector<std::vector<int>> loops_at;  // per model body: loops whose predecessor it is
  std::string solref;

  Writer(const Mechanism& m, std::vector<std::string>& w)
      : mech(m), model(m.model()), warnings(w), data(m.model()) {}
};

const JointSpec* user_joint(const Mechanism& mech, const std::string& name) {
  const int j = mech.spec.joint_index(name);
  return j < 0 ? nullptr : &mech.spec.joints[j];
}

// Limits, friction and spring of a 1-DoF joint as attributes of its (first) MuJoCo joint.
std::string joint_extras(const Writer& w, const JointSpec* js) {
  if (!js || js->joint.nv() != 1) return "";
  std::string out;
  if (js->limits) {
    const double lo = js->limits->lower.value_or(-1e10), hi = js->limits->upper.value_or(1e10);
    out += " limited='true' range='" + num(lo) + " " + num(hi) + "'";
  }
  double damping = 0;
  if (js->friction) {
    out += " frictionloss='" + num(js->friction->coulomb) + "'";
    damping += js->friction->viscous;
  }
  if (js->spring) {
    out +=
        " stiffness='" + num(js->spring->stiffness) + "' springref='" + num(js->spring->rest) + "'";
    damping += js->spring->damping;
  }
  if (damping != 0) out += " damping='" + num(damping) + "'";
  if (js->drive) w.warnings.push_back("joint '" + js->name + "': drive not exported to MJCF");
  return out;
}

void element(Writer& w, const std::string& indent, const std::string& type, const std::string& name,
             const char* axis, const std::string& extras = "") {
  w.os << indent << "<joint name='" << xml_escape(name) << "' type='" << type << "' axis='" << axis
       << "'" << extras << "/>\n";
}

// The MuJoCo joints of one Articula joint at a body whose frame is the joint's successor frame;
// q: the joint's assembled coordinates (keyframe).
void write_joint(Writer& w, const std::string& indent, const std::string& name, const Joint& j,
                 const double* q) {
  const JointSpec* js = user_joint(w.mech, name);
  const std::string extras = joint_extras(w, js);
  const char* z = j.reversed ? "0 0 -1" : "0 0 1";
  switch (j.type) {
    case JointType::Revolute:
      element(w, indent, "hinge", name, z, extras);
      w.key.push_back(q[0]);
      break;
    case JointType::Prismatic:
      element(w, indent, "slide", name, z, extras);
      w.key.push_back(q[0]);
      break;
    case JointType::Helical:  // translation = pitch * angle, a joint equality
      element(w, indent, "hinge", name, z, extras);
      element(w, indent, "slide", name + "/slide", z);
      w.equality << "  <joint name='" << xml_escape(name) << "/screw' joint1='" << xml_escape(name)
                 << "/slide' joint2='" << xml_escape(name) << "' polycoef='0 " << num(j.pitch)
                 << " 0 0 0' solref='" << w.solref << "'/>\n";
      w.key.insert(w.key.end(), {q[0], j.pitch * q[0]});
      break;
    case JointType::Cylindrical:
      element(w, indent, "hinge", name, z);
      element(w, indent, "slide", name + "/slide", z);
      w.key.insert(w.key.end(), {q[0], q[1]});
      break;
    case JointType::Universal:  // rz(α) then ry(β) about the new y: MuJoCo applies joints in order
      element(w, indent, "hinge", name, "0 0 1");
      element(w, indent, "hinge", name + "/y", "0 1 0");
      w.key.insert(w.key.end(), {q[0], q[1]});
      break;
    case JointType::Spherical:
      w.os << indent << "<joint name='" << xml_escape(name) << "' type='ball'/>\n";
      w.key.insert(w.key.end(), q, q + 4);
      break;
    case JointType::Planar:  // rotation, then x and y along the rotated axes (RBDA Table 4.1)
      element(w, indent, "hinge", name, "0 0 1");
      element(w, indent, "slide", name + "/x", "1 0 0");
      element(w, indent, "slide", name + "/y", "0 1 0");
      w.key.insert(w.key.end(), {q[0], q[1], q[2]});
      break;
    case JointType::Free:
    case JointType::Fixed:
      break;
  }
}

void write_inertial(Writer& w, const std::string& indent, const RigidBodyInertia& I,
                    const std::string& body) {
  if (I.m <= 0) {
    w.warnings.push_back("body '" + body + "': massless; written with mass " + num(kAuxMass) +
                         " kg (MuJoCo needs mass on moving bodies)");
    w.os << indent << "<inertial pos='0 0 0' mass='" << num(kAuxMass) << "' diaginertia='"
         << num(kAuxMass) << " " << num(kAuxMass) << " " << num(kAuxMass) << "'/>\n";
    return;
  }
  const Mat3 Ic = I.inertia_about_com();
  w.os << indent << "<inertial pos='" << nums(I.com()) << "' mass='" << num(I.m)
       << "' fullinertia='" << num(Ic(0, 0)) << " " << num(Ic(1, 1)) << " " << num(Ic(2, 2)) << " "
       << num(Ic(0, 1)) << " " << num(Ic(0, 2)) << " " << num(Ic(1, 2)) << "'/>\n";
}

// The body's visuals as geoms that neither collide nor weigh (inertiafromgeom='false'), in the
// MuJoCo body frame (the model body's).
void write_geoms(Writer& w, const std::string& indent, int i) {
  const BodySpec& body = w.mech.spec.bodies[w.mech.compiled.user_body[i]];
  const Transform X_body_model = w.mech.compiled.X_body[i].inverse();
  for (const VisualSpec& v : body_visuals(body)) {
    const Pose p = Pose::of(v.frame.transform() * X_body_model);
    const char* type = v.shape == VisualSpec::Shape::Box        ? "box"
                       : v.shape == VisualSpec::Shape::Cylinder ? "cylinder"
                                                                : "sphere";
    const std::string size = v.shape == VisualSpec::Shape::Box ? nums(0.5 * v.size)
                             : v.shape == VisualSpec::Shape::Cylinder
                                 ? num(v.radius) + " " + num(0.5 * v.length)
                                 : num(v.radius);
    w.os << indent << "<geom type='" << type << "' size='" << size << "' pos='" << nums(p.p)
         << "' quat='" << quat_text(p.R) << "' contype='0' conaffinity='0'/>\n";
  }
}

// The loop joint's own degrees of freedom on an auxiliary body, welded to the successor.
void write_loop(Writer& w, const std::string& indent, int k) {
  const LoopJoint& l = w.mech.compiled.loops[k];
  const Pose pose_kp = Pose::of(l.X_P), pose_s_in_ks = Pose::of(l.X_S).inverse();
  const std::string succ = l.successor ? w.model.body_names[l.successor] : "world";
  const std::string pred = l.predecessor ? w.model.body_names[l.predecessor] : "world";
  if (l.joint.type == JointType::Fixed) {
    const Pose rel = pose_kp * pose_s_in_ks;
    w.equality << "  <weld name='" << xml_escape(l.name) << "' body1='" << xml_escape(pred)
               << "' body2='" << xml_escape(succ) << "' relpose='" << nums(rel.p) << " "
               << quat_text(rel.R) << "' solref='" << w.solref << "'/>\n";
    return;
  }
  if (l.joint.type == JointType::Free) {
    w.warnings.push_back("loop joint '" + l.name +
                         "': a free loop joint constrains nothing; left out of the MJCF");
    return;
  }
  const std::string aux = l.name + "/loop";
  w.os << indent << "<body name='" << xml_escape(aux) << "' pos='" << nums(pose_kp.p) << "' quat='"
       << quat_text(pose_kp.R) << "'>\n";
  w.os << indent << "  <inertial pos='0 0 0' mass='" << num(kAuxMass) << "' diaginertia='"
       << num(kAuxMass) << " " << num(kAuxMass) << " " << num(kAuxMass) << "'/>\n";
  // assembled coordinates of the loop joint: X_rel = ^{ks}X_{kp}
  const Transform X_rel =
      l.X_S * w.data.X0[l.successor] * w.data.X0[l.predecessor].inverse() * l.X_P.inverse();
  double q[7] = {0, 0, 0, 0, 0, 0, 0};
  joint_coordinates(l.joint, X_rel, q);
  write_joint(w, indent + "  ", l.name, l.joint, q);
  w.os << indent << "</body>\n";
  w.equality << "  <weld name='" << xml_escape(l.name) << "' body1='" << xml_escape(aux)
             << "' body2='" << xml_escape(succ) << "' relpose='" << nums(pose_s_in_ks.p) << " "
             << quat_text(pose_s_in_ks.R) << "' solref='" << w.solref << "'/>\n";
}

void write_free(Writer& w, const std::string& indent, int i) {
  if (w.model.parent[i] != 0)
    throw InterchangeError("joint '" + w.model.joint_names[i] +
                           "': MuJoCo allows free joints only on bodies attached to the world");
  w.warnings.push_back("joint '" + w.model.joint_names[i] +
                       "': MuJoCo's free joint has its own coordinates (world position, "
                       "quaternion; linear velocity in world axes)");
  w.os << indent << "<freejoint name='" << xml_escape(w.model.joint_names[i]) << "'/>\n";
  const Pose world = Pose::of(w.data.X0[i]);
  const Quat qw(world.R);
  w.key.insert(w.key.end(),
               {world.p.x(), world.p.y(), world.p.z(), qw.w(), qw.x(), qw.y(), qw.z()});
}

void write_body(Writer& w, int i, int depth) {
  const std::string indent(2 * depth, ' ');
  const Pose pose = Pose::of(w.model.X_tree[i]);
  const Joint& j = w.model.joints[i];
  if (j.reversed && j.nv() > 1 && j.type != JointType::Cylindrical)
    throw InterchangeError("joint '" + w.model.joint_names[i] + "': a " +
                           std::string(joint_type_name(j.type)) +
                           " joint traversed from child to parent cannot be written as MJCF; "
                           "swap its parent and child");
  w.os << indent << "<body name='" << xml_escape(w.model.body_names[i]) << "' pos='" << nums(pose.p)
       << "' quat='" << quat_text(pose.R) << "'>\n";
  write_inertial(w, indent + "  ", w.model.inertia[i], w.model.body_names[i]);
  write_geoms(w, indent + "  ", i);
  if (j.type == JointType::Free) {
    write_free(w, indent + "  ", i);
  } else {
    write_joint(w, indent + "  ", w.model.joint_names[i], j, w.mech.q0.data() + w.model.q_index[i]);
  }
  for (int k : w.loops_at[i]) write_loop(w, indent + "  ", k);
  for (int c : w.model.children[i]) write_body(w, c, depth + 1);
  w.os << indent << "</body>\n";
}

void write_couplings(Writer& w) {
  for (const CouplingBinding& c : w.mech.couplings) {
    const CouplingSpec& cs = w.mech.spec.couplings[c.index];
    // MuJoCo: q1 - q1(qpos0) = c0 + c1 (q2 - q2(qpos0)), with qpos0 = 0 here
    const double c0 = c.b.q0 - c.ratio * c.a.q0;
    w.equality << "  <joint name='" << xml_escape(cs.name) << "' joint1='"
               << xml_escape(cs.joints[1]) << "' joint2='" << xml_escape(cs.joints[0])
               << "' polycoef='" << num(c0) << " " << num(c.ratio) << " 0 0 0' solref='" << w.solref
               << "'/>\n";
  }
}

void warn_dropped(Writer& w) {
  const MechanismSpec& s = w.mech.spec;
  if (!s.forces.empty()) w.warnings.push_back("spring-dampers (forces) not exported to MJCF");
  if (!s.contacts.empty()) w.warnings.push_back("contacts not exported to MJCF");
}
}  // namespace

std::string to_mjcf(const Mechanism& mech, std::vector<std::string>& warnings) {
  Writer w(mech, warnings);
  forward_kinematics(w.model, w.data, mech.q0);
  w.loops_at.resize(w.model.nb + 1);
  for (std::size_t k = 0; k < mech.compiled.loops.size(); ++k)
    w.loops_at[mech.compiled.loops[k].predecessor].push_back(static_cast<int>(k));
  const double step = mech.spec.simulation ? mech.spec.simulation->step : 0.001;
  w.solref = num(std::max(2 * step, 0.002)) + " 1";  // MuJoCo wants time constants >= 2 steps
  w.os << "<mujoco model='" << xml_escape(mech.spec.name) << "'>\n"
       << "  <!-- written by Articula: loops as auxiliary bodies (mass " << num(kAuxMass)
       << " kg) welded to their successors -->\n"
       << "  <compiler angle='radian' inertiafromgeom='false'/>\n"
       << "  <option gravity='" << nums(mech.spec.gravity) << "' timestep='" << num(step)
       << "'/>\n  <size njmax='1000' nconmax='100'/>\n  <worldbody>\n";
  for (int k : w.loops_at[0]) write_loop(w, "    ", k);
  for (int c : w.model.children[0]) write_body(w, c, 2);
  w.os << "  </worldbody>\n";
  write_couplings(w);
  const std::string eq = w.equality.str();
  if (!eq.empty()) w.os << "  <equality>\n" << eq << "  </equality>\n";
  if (!w.key.empty()) {
    w.os << "  <keyframe>\n    <key name='assembled' qpos='";
    for (std::size_t k = 0; k < w.key.size(); ++k) w.os << (k ? " " : "") << num(w.key[k]);
    w.os << "'/>\n  </keyframe>\n";
  }
  w.os << "</mujoco>\n";
  warn_dropped(w);
  return w.os.str();
}

}  // namespace articula
