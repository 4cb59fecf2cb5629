// URDF import: TinyXML (urdfdom's own parser) first, for the checks that need line numbers, then
// urdfdom for the values.
#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <map>
#include <set>

#include "core/io/visual_json.hpp"
#include "interchange/urdf.hpp"

namespace articula {
namespace {

// urdfdom reports through console_bridge; keep its errors for our message.
struct CaptureLog : console_bridge::OutputHandler {
  std::string errors;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors += (errors.empty() ? "" : "; ") + text;
  }
};

struct Located {
  int line = 0;
  const TiXmlElement* element = nullptr;
};

struct Outline {  // what the checks found, by name
  std::map<std::string, Located> links, joints;
  std::vector<std::string> link_order, joint_order;  // document order
};

std::string where(const std::string& source, int line, const std::string& element,
                  const std::string& name) {
  return source + ":" + std::to_string(line) + ": <" + element + " name='" + name + "'>: ";
}

std::string attr(const TiXmlElement* e, const char* name) {
  const char* v = e ? e->Attribute(name) : nullptr;
  return v ? v : "";
}

void check_link(const std::string& source, const TiXmlElement* e, Outline& o,
                std::vector<std::string>& warnings) {
  const std::string name = attr(e, "name");
  if (name.empty())
    throw InterchangeError(source + ":" + std::to_string(e->Row()) + ": <link> without a name");
  if (o.links.count(name))
    throw InterchangeError(where(source, e->Row(), "link", name) + "defined twice");
  o.links[name] = {e->Row(), e};
  o.link_order.push_back(name);
  for (const TiXmlElement* v = e->FirstChildElement("visual"); v;
       v = v->NextSiblingElement("visual")) {
    const TiXmlElement* g = v->FirstChildElement("geometry");
    const TiXmlElement* mesh = g ? g->FirstChildElement("mesh") : nullptr;
    if (mesh)
      warnings.push_back(where(source, mesh->Row(), "link", name) + "mesh '" +
                         attr(mesh, "filename") + "' not imported (meshes are not drawn)");
  }
}

void check_joint(const std::string& source, const TiXmlElement* e, Outline& o) {
  static const std::set<std::string> kTypes = {"revolute", "continuous", "prismatic",
                                               "fixed",    "floating",   "planar"};
  const std::string name = attr(e, "name");
  const int line = e->Row();
  if (name.empty())
    throw InterchangeError(source + ":" + std::to_string(line) + ": <joint> without a name");
  if (o.joints.count(name))
    throw InterchangeError(where(source, line, "joint", name) + "defined twice");
  const std::string type = attr(e, "type");
  if (!kTypes.count(type))
    throw InterchangeError(
        where(source, line, "joint", name) + "unknown type '" + type +
        "' (URDF joints: revolute, continuous, prismatic, fixed, floating, planar)");
  for (const char* end : {"parent", "child"}) {
    const TiXmlElement* c = e->FirstChildElement(end);
    if (!c || attr(c, "link").empty())
      throw InterchangeError(where(source, line, "joint", name) + "missing <" + end + " link=...>");
  }
  o.joints[name] = {line, e};
  o.joint_order.push_back(name);
}

// Every joint's links exist, no link has two parents, and the parent links lead to a root: a
// cycle (of fixed joints or any others) is named with the joints in it.
void check_graph(const std::string& source, const Outline& o) {
  std::map<std::string, std::string> parent_joint;  // child link -> joint
  for (const std::string& j : o.joint_order) {
    const Located& J = o.joints.at(j);
    for (const char* end : {"parent", "child"}) {
      const std::string link = attr(J.element->FirstChildElement(end), "link");
      if (!o.links.count(link))
        throw InterchangeError(where(source, J.line, "joint", j) + "unknown " + end + " link '" +
                               link + "'");
    }
    const std::string child = attr(J.element->FirstChildElement("child"), "link");
    if (parent_joint.count(child))
      throw InterchangeError(where(source, J.line, "joint", j) + "link '" + child +
                             "' already has parent joint '" + parent_joint[child] +
                             "' (URDF is a tree; use SDFormat for closed loops)");
    parent_joint[child] = j;
  }
  for (const std::string& start : o.link_order) {
    std::set<std::string> seen;
    std::string cycle;
    for (std::string l = start; parent_joint.count(l);) {
      if (!seen.insert(l).second) {
        const std::string& j = parent_joint.at(l);
        throw InterchangeError(where(source, o.joints.at(j).line, "joint", j) +
                               "joints form a cycle:" + cycle + " (URDF is a tree)");
      }
      const std::string& j = parent_joint.at(l);
      cycle += " " + j;
      l = attr(o.joints.at(j).element->FirstChildElement("parent"), "link");
    }
  }
}

Outline check(const std::string& text, const std::string& source,
              std::vector<std::string>& warnings) {
  TiXmlDocument doc;
  doc.Parse(text.c_str());
  if (doc.Error())
    throw InterchangeError(source + ":" + std::to_string(doc.ErrorRow()) +
                           ": malformed XML: " + doc.ErrorDesc());
  const TiXmlElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Value()) != "robot")
    throw InterchangeError(source + ":1: not a URDF file (no <robot> element)");
  Outline o;
  for (const TiXmlElement* e = robot->FirstChildElement("link"); e;
       e = e->NextSiblingElement("link"))
    check_link(source, e, o, warnings);
  for (const TiXmlElement* e = robot->FirstChildElement("joint"); e;
       e = e->NextSiblingElement("joint"))
    check_joint(source, e, o);
  if (o.links.empty())
    throw InterchangeError(source + ":" + std::to_string(robot->Row()) + ": <robot> has no links");
  check_graph(source, o);
  // The Outline keeps element pointers only for check_graph; the document dies here.
  for (auto& [name, loc] : o.links) loc.element = nullptr;
  for (auto& [name, loc] : o.joints) loc.element = nullptr;
  return o;
}

Pose pose_of(const urdf::Pose& p) {
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  return {Quat(w, x, y, z).normalized().toRotationMatrix(),
          Vec3(p.position.x, p.position.y, p.position.z)};
}

BodySpec body_of(const urdf::Link& link) {
  BodySpec b;
  b.name = link.name;
  b.mass = 0.0;
  if (!link.inertial) return b;
  const urdf::Inertial& in = *link.inertial;
  const Pose frame = pose_of(in.origin);
  Mat3 I;
  I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  const Mat3 Ib = frame.R * I * frame.R.transpose();  // inertial frame axes -> link axes
  b.mass = in.mass;
  b.com = frame.p;
  b.inertia = {Ib(0, 0), Ib(1, 1), Ib(2, 2), Ib(0, 1), Ib(0, 2), Ib(1, 2)};
  return b;
}

// <visual> boxes, cylinders and spheres, in the link frame (= the body frame). Meshes were warned
// about by check_link.
void add_visuals(const urdf::Link& link, BodySpec& b, const std::string& where_,
                 std::vector<std::string>& warnings) {
  std::vector<VisualSpec> visuals;
  for (const urdf::VisualSharedPtr& v : link.visual_array) {
    if (!v || !v->geometry) continue;
    VisualSpec s;
    s.frame = pose_spec(pose_of(v->origin));
    const urdf::Geometry& g = *v->geometry;
    if (g.type == urdf::Geometry::BOX) {
      const auto& d = static_cast<const urdf::Box&>(g).dim;
      s.shape = VisualSpec::Shape::Box;
      s.size = Vec3(d.x, d.y, d.z);
    } else if (g.type == urdf::Geometry::CYLINDER) {
      const auto& c = static_cast<const urdf::Cylinder&>(g);
      s.shape = VisualSpec::Shape::Cylinder;
      s.radius = c.radius;
      s.length = c.length;
    } else if (g.type == urdf::Geometry::SPHERE) {
      s.shape = VisualSpec::Shape::Sphere;
      s.radius = static_cast<const urdf::Sphere&>(g).radius;
    } else {
      continue;
    }
    if (!drawable(s)) {
      warnings.push_back(where_ + "a <visual> " + visual_shape_name(s.shape) +
                         " with a size <= 0 or not finite, or a pose not finite, not imported");
      continue;
    }
    visuals.push_back(s);
  }
  set_body_visuals(b, visuals);
}

std::optional<double> bound(double x) {
  return std::abs(x) >= 1e15 ? std::nullopt : std::optional<double>(x);
}

JointSpec joint_of(const urdf::Joint& uj, const std::string& ground, const std::string& where_,
                   std::vector<std::string>& warnings) {
  JointSpec j;
  j.name = uj.name;
  j.parent = uj.parent_link_name == ground ? "ground" : uj.parent_link_name;
  j.child = uj.child_link_name;
  const Vec3 axis(uj.axis.x, uj.axis.y, uj.axis.z);
  const bool has_axis = uj.type != urdf::Joint::FIXED && uj.type != urdf::Joint::FLOATING;
  if (has_axis && !(axis.norm() > 1e-12)) throw InterchangeError(where_ + "zero <axis>");
  const Mat3 align = has_axis ? rotation_z_to(axis) : Mat3::Identity();
  const Pose origin = pose_of(uj.parent_to_joint_origin_transform);
  j.parent_frame = pose_spec({origin.R * align, origin.p});
  j.child_frame = pose_spec({align, Vec3::Zero()});
  switch (uj.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      j.joint = Joint::revolute();
      break;
    case urdf::Joint::PRISMATIC:
      j.joint = Joint::prismatic();
      break;
    case urdf::Joint::FLOATING:
      j.joint = Joint::free();
      break;
    case urdf::Joint::PLANAR:
      j.joint = Joint::planar();
      break;
    default:
      j.joint = Joint::fixed();
  }
  const bool one_dof = j.joint.nv() == 1;
  if (one_dof && uj.type != urdf::Joint::CONTINUOUS && uj.limits) {
    LimitSpec lim;
    lim.lower = bound(uj.limits->lower);
    lim.upper = bound(uj.limits->upper);
    if (uj.limits->lower == uj.limits->upper) {
      warnings.push_back(where_ + "limit lower == upper: taken as no limits");
    } else if (uj.limits->lower > uj.limits->upper) {
      throw InterchangeError(where_ + "limit lower > upper");
    } else if (lim.lower || lim.upper) {
      j.limits = lim;
    }
  }
  if (one_dof && uj.dynamics && (uj.dynamics->friction != 0 || uj.dynamics->damping != 0)) {
    if (uj.dynamics->friction < 0 || uj.dynamics->damping < 0)
      throw InterchangeError(where_ + "negative <dynamics> friction or damping");
    j.friction = JointFrictionSpec{uj.dynamics->friction, uj.dynamics->damping, {}};
  }
  return j;
}

// <mimic>: q = multiplier q_A + offset, a coupling with q0 = offset.
void add_mimic(const urdf::Joint& uj, MechanismSpec& spec, const std::string& where_,
               std::vector<std::string>& warnings) {
  const int a = spec.joint_index(uj.mimic->joint_name);
  if (a < 0)
    throw InterchangeError(where_ + "<mimic> names unknown joint '" + uj.mimic->joint_name + "'");
  CouplingSpec c;
  c.name = uj.name + "_mimic";
  c.joints = {uj.mimic->joint_name, uj.name};
  c.ratio = uj.mimic->multiplier;
  spec.couplings.push_back(c);
  if (uj.mimic->offset != 0) {
    spec.joints[spec.joint_index(uj.name)].q0 = std::vector<double>{uj.mimic->offset};
    warnings.push_back(where_ + "<mimic> offset kept as the joint's initial position");
  }
}

// urdfdom names the element in brackets ("Joint [elbow] is of type REVOLUTE but it does not
// specify limits"): the message gets that element's line.
std::string locate(const std::string& errors, const Outline& o, const std::string& source) {
  for (const auto& [kind, table] :
       {std::pair<const char*, const std::map<std::string, Located>*>{"joint", &o.joints},
        {"link", &o.links}})
    for (const auto& [name, loc] : *table)
      if (errors.find("[" + name + "]") != std::string::npos)
        return where(source, loc.line, kind, name);
  return source + ": ";
}

urdf::ModelInterfaceSharedPtr parse(const std::string& text, const std::string& source,
                                    const Outline& outline) {
  CaptureLog log;
  console_bridge::useOutputHandler(&log);
  urdf::ModelInterfaceSharedPtr model;
  try {
    model = urdf::parseURDF(text);
  } catch (const std::exception& e) {
    log.errors += e.what();
  }
  console_bridge::restorePreviousOutputHandler();
  if (!model)
    throw InterchangeError(locate(log.errors, outline, source) + "urdfdom: " +
                           (log.errors.empty() ? "cannot read the model" : log.errors));
  return model;
}
}  // namespace

MechanismSpec import_urdf(const std::string& text, const std::string& source,
                          std::vector<std::string>& warnings) {
  const Outline outline = check(text, source, warnings);
  const urdf::ModelInterfaceSharedPtr model = parse(text, source, outline);
  MechanismSpec spec;
  spec.name = model->getName();
  spec.gravity = Vec3(0, 0, -9.81);
  const urdf::Link& root = *model->getRoot();
  const bool root_is_ground = root.name == "world" || !root.inertial;
  const std::string ground = root_is_ground ? root.name : "";
  for (const std::string& name : outline.link_order) {
    const urdf::Link& link = *model->getLink(name);
    if (name == ground) {
      if (!link.visual_array.empty())
        warnings.push_back(where(source, outline.links.at(name).line, "link", name) +
                           "the ground link's visuals are not drawn");
      continue;
    }
    if (!link.inertial)
      warnings.push_back(where(source, outline.links.at(name).line, "link", name) +
                         "no <inertial>: massless");
    spec.bodies.push_back(body_of(link));
    add_visuals(link, spec.bodies.back(), where(source, outline.links.at(name).line, "link", name),
                warnings);
  }
  if (!root_is_ground) {
    warnings.push_back(
        where(source, outline.links.at(root.name).line, "link", root.name) +
        "root link fixed to ground (add a floating joint from a link 'world' to let it move)");
    JointSpec fix;
    fix.name = root.name + "_to_ground";
    fix.parent = "ground";
    fix.child = root.name;
    fix.joint = Joint::fixed();
    spec.joints.push_back(fix);
  }
  for (const std::string& name : outline.joint_order) {
    const std::string w = where(source, outline.joints.at(name).line, "joint", name);
    spec.joints.push_back(joint_of(*model->getJoint(name), ground, w, warnings));
  }
  for (const std::string& name : outline.joint_order) {
    const urdf::Joint& uj = *model->getJoint(name);
    if (uj.mimic)
      add_mimic(uj, spec, where(source, outline.joints.at(name).line, "joint", name), warnings);
  }
  return spec;
}

}  // namespace articula
