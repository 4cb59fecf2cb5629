#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/io/visual_json.hpp"
#include "core/model/data.hpp"
#include "interchange/sdf.hpp"

namespace articula {
namespace {

std::string pose_text(const Pose& p) {
  return nums(p.p) + " " + nums(rpy_of(p.R));
}

struct Exporter {
  const Mechanism& mech;
  std::vector<std::string>& warnings;
  std::vector<Pose> world;  // per user body: pose in the model (world) frame, assembled
  std::ostringstream os;
};

void body_poses(Exporter& x) {
  const Model& model = x.mech.model();
  Data data(model);
  forward_kinematics(model, data, x.mech.q0);
  for (std::size_t b = 0; b < x.mech.spec.bodies.size(); ++b) {
    const int i = x.mech.compiled.model_body[b];
    x.world.push_back(Pose::of(data.X0[i]) * Pose::of(x.mech.compiled.X_body[i]).inverse());
  }
}

Pose pose_of(const PoseSpec& s) {
  return {s.orientation.normalized().toRotationMatrix(), s.position};
}

void write_link(Exporter& x, std::size_t b) {
  const BodySpec& body = x.mech.spec.bodies[b];
  const auto& I = body.inertia;
  x.os << "    <link name='" << xml_escape(body.name) << "'>\n      <pose>" << pose_text(x.world[b])
       << "</pose>\n      <inertial>\n        <pose>" << nums(body.com)
       << " 0 0 0</pose>\n        <mass>" << num(body.mass) << "</mass>\n        <inertia><ixx>"
       << num(I[0]) << "</ixx><iyy>" << num(I[1]) << "</iyy><izz>" << num(I[2]) << "</izz><ixy>"
       << num(I[3]) << "</ixy><ixz>" << num(I[4]) << "</ixz><iyz>" << num(I[5])
       << "</iyz></inertia>\n      </inertial>\n";
  const std::vector<VisualSpec> visuals = body_visuals(body);
  for (std::size_t k = 0; k < visuals.size(); ++k) {
    const VisualSpec& v = visuals[k];
    x.os << "      <visual name='visual_" << k << "'>\n        <pose>"
         << pose_text(pose_of(v.frame)) << "</pose>\n        <geometry>";
    if (v.shape == VisualSpec::Shape::Box)
      x.os << "<box><size>" << nums(v.size) << "</size></box>";
    else if (v.shape == VisualSpec::Shape::Cylinder)
      x.os << "<cylinder><radius>" << num(v.radius) << "</radius><length>" << num(v.length)
           << "</length></cylinder>";
    else
      x.os << "<sphere><radius>" << num(v.radius) << "</radius></sphere>";
    x.os << "</geometry>\n      </visual>\n";
  }
  x.os << "    </link>\n";
}

// The assembled coordinates of a joint: SDF's zero is the written configuration.
std::vector<double> assembled_q(const Exporter& x, int j) {
  const JointSpec& js = x.mech.spec.joints[j];
  std::vector<double> q(7, 0.0);
  const JointMapping& m = x.mech.compiled.joint_map[j];
  if (!m.loop) {
    const int i = x.mech.compiled.q_index(j);
    std::copy(x.mech.q0.data() + i, x.mech.q0.data() + i + js.joint.nq(), q.begin());
    return q;
  }
  auto frame = [&](const std::string& body, const PoseSpec& f) {
    const int b = x.mech.spec.body_index(body);
    return (b < 0 ? Pose{} : x.world[b]) * pose_of(f);
  };
  // pose of the child joint frame in the parent joint frame gives ^{child}X_{parent}
  const Pose rel = frame(js.parent, js.parent_frame).inverse() * frame(js.child, js.child_frame);
  joint_coordinates(js.joint, rel.transform(), q.data());
  return q;
}

std::string axis_element(const Exporter& x, int j, const std::string& xyz) {
  const JointSpec& js = x.mech.spec.joints[j];
  std::ostringstream a;
  a << "      <axis>\n        <xyz>" << xyz << "</xyz>\n";
  if (js.joint.nv() == 1) {
    const double q0 = assembled_q(x, j)[0];
    if (js.limits)
      a << "        <limit><lower>" << num(js.limits->lower ? *js.limits->lower - q0 : -1e16)
        << "</lower><upper>" << num(js.limits->upper ? *js.limits->upper - q0 : 1e16)
        << "</upper></limit>\n";
    const double damping =
        (js.friction ? js.friction->viscous : 0) + (js.spring ? js.spring->damping : 0);
    if (js.friction || js.spring) {
      a << "        <dynamics><damping>" << num(damping) << "</damping><friction>"
        << num(js.friction ? js.friction->coulomb : 0) << "</friction>";
      if (js.spring)
        a << "<spring_reference>" << num(js.spring->rest - q0)
          << "</spring_reference><spring_stiffness>" << num(js.spring->stiffness)
          << "</spring_stiffness>";
      a << "</dynamics>\n";
    }
  }
  a << "      </axis>\n";
  return a.str();
}

const char* sdf_type(const Joint& j) {
  switch (j.type) {
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Helical:
      return "screw";
    case JointType::Universal:
      return "universal";
    case JointType::Spherical:
      return "ball";
    case JointType::Fixed:
      return "fixed";
    default:
      return nullptr;
  }
}

void write_joint(Exporter& x, int j) {
  const JointSpec& js = x.mech.spec.joints[j];
  if (js.joint.type == JointType::Free && js.parent == "ground") return;  // a free link
  const char* type = sdf_type(js.joint);
  if (!type)
    throw InterchangeError("joint '" + js.name + "': SDFormat has no " +
                           std::string(joint_type_name(js.joint.type)) +
                           " joint between two links");
  if (js.child == "ground")
    throw InterchangeError(
        "joint '" + js.name +
        "': SDFormat joints cannot have the world as child; swap its parent and child");
  x.os << "    <joint name='" << xml_escape(js.name) << "' type='" << type << "'>\n      <parent>"
       << (js.parent == "ground" ? "world" : xml_escape(js.parent)) << "</parent>\n      <child>"
       << xml_escape(js.child) << "</child>\n      <pose>" << pose_text(pose_of(js.child_frame))
       << "</pose>\n";
  if (js.joint.type == JointType::Helical)
    x.os << "      <thread_pitch>" << num(1.0 / js.joint.pitch) << "</thread_pitch>\n";
  if (js.joint.type == JointType::Universal) {
    // axis: the parent's z, seen from the child joint frame at the assembled angles (rz(α) ry(β))
    const double beta = assembled_q(x, j)[1];
    x.os << axis_element(x, j, nums(Vec3(-std::sin(beta), 0, std::cos(beta))));
    x.os << "      <axis2><xyz>0 1 0</xyz></axis2>\n";
  } else if (js.joint.nv() == 1) {
    x.os << axis_element(x, j, "0 0 1");
  }
  x.os << "    </joint>\n";
  if (js.drive)
    x.warnings.push_back("joint '" + js.name + "': drive not exported (SDFormat has none)");
}

// A coupling as a gearbox when its joints share a body (the reference body).
void write_gearbox(Exporter& x, const CouplingSpec& c) {
  const JointSpec& A = x.mech.spec.joints[x.mech.spec.joint_index(c.joints[0])];
  const JointSpec& B = x.mech.spec.joints[x.mech.spec.joint_index(c.joints[1])];
  std::string ref;
  for (const std::string& a : {A.parent, A.child})
    for (const std::string& b : {B.parent, B.child})
      if (a == b) ref = a;
  if (ref.empty() || A.joint.type != JointType::Revolute || B.joint.type != JointType::Revolute) {
    x.warnings.push_back("coupling '" + c.name +
                         "': not exported (a gearbox needs two revolute joints sharing a body)");
    return;
  }
  auto axis = [&](const JointSpec& J) {
    const int b = x.mech.spec.body_index(J.child);
    return Vec3((x.world[b] * pose_of(J.child_frame)).R.col(2));
  };
  const std::string pa = A.parent == ref ? A.child : A.parent,
                    cb = B.parent == ref ? B.child : B.parent;
  const double sa = A.parent == ref ? 1 : -1, sb = B.parent == ref ? 1 : -1;
  auto link = [](const std::string& b) {
    return b == "ground" ? std::string("world") : xml_escape(b);
  };
  x.os << "    <joint name='" << xml_escape(c.name) << "' type='gearbox'>\n      <parent>"
       << link(pa) << "</parent>\n      <child>" << link(cb)
       << "</child>\n      <gearbox_reference_body>" << link(ref)
       << "</gearbox_reference_body>\n      <gearbox_ratio>" << num(-c.ratio * sa * sb)
       << "</gearbox_ratio>\n      <axis><xyz expressed_in='__model__'>" << nums(axis(A))
       << "</xyz></axis>\n      <axis2><xyz expressed_in='__model__'>" << nums(axis(B))
       << "</xyz></axis2>\n    </joint>\n";
}
}  // namespace

std::string to_sdf(const Mechanism& mech, std::vector<std::string>& warnings) {
  Exporter x{mech, warnings, {}, {}};
  body_poses(x);
  const std::string name = mech.spec.name.empty() ? "mechanism" : mech.spec.name;
  x.os << "<?xml version='1.0'?>\n<!-- written by Articula: poses at the assembled configuration "
          "-->\n"
       << "<sdf version='1.9'>\n  <world name='articula'>\n    <gravity>" << nums(mech.spec.gravity)
       << "</gravity>\n  <model name='" << xml_escape(name) << "'>\n";
  for (std::size_t b = 0; b < mech.spec.bodies.size(); ++b) write_link(x, b);
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j) write_joint(x, static_cast<int>(j));
  for (const CouplingSpec& c : mech.spec.couplings) write_gearbox(x, c);
  x.os << "  </model>\n  </world>\n</sdf>\n";
  if (!mech.spec.forces.empty())
    warnings.push_back("spring-dampers (forces) not exported (SDFormat has none)");
  if (!mech.spec.contacts.empty()) warnings.push_back("contacts not exported");
  return x.os.str();
}

}  // namespace articula
