#include <tinyxml.h>

#include <functional>
#include <map>
#include <sdf/Box.hh>
#include <sdf/Console.hh>
#include <sdf/Cylinder.hh>
#include <sdf/Error.hh>
#include <sdf/Geometry.hh>
#include <sdf/Joint.hh>
#include <sdf/JointAxis.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/Sphere.hh>
#include <sdf/Visual.hh>
#include <sdf/World.hh>
#include <set>

#include "core/io/visual_json.hpp"
#include "interchange/sdf.hpp"

namespace articula {
namespace {

using ignition::math::Pose3d;
using ignition::math::Vector3d;

Vec3 vec(const Vector3d& v) {
  return {v.X(), v.Y(), v.Z()};
}
Pose pose(const Pose3d& p) {
  const auto& q = p.Rot();
  return {Quat(q.W(), q.X(), q.Y(), q.Z()).normalized().toRotationMatrix(), vec(p.Pos())};
}

std::string at(const std::string& source, const sdf::ElementPtr& e, const std::string& what) {
  const auto line = e ? e->LineNumber() : std::nullopt;
  return source + ":" + (line ? std::to_string(*line) : std::string("?")) + ": " + what + ": ";
}

// libsdformat's first errors (the later ones follow from them), with their lines when known.
void throw_errors(const sdf::Errors& errors, const std::string& source) {
  if (errors.empty()) return;
  std::string text;
  for (std::size_t k = 0; k < errors.size() && k < 3; ++k) {
    const sdf::Error& e = errors[k];
    if (!text.empty()) text += "\n";
    text += source + (e.LineNumber() ? ":" + std::to_string(*e.LineNumber()) : std::string()) +
            ": " + e.Message();
  }
  throw InterchangeError(text);
}

// Checks that need line numbers libsdformat does not give: well-formed XML, joint types.
void check_xml(const TiXmlElement* e, const std::string& source) {
  static const std::set<std::string> kTypes = {"revolute", "continuous", "prismatic",
                                               "screw",    "universal",  "revolute2",
                                               "ball",     "fixed",      "gearbox"};
  for (; e; e = e->NextSiblingElement()) {
    if (std::string(e->Value()) == "joint" && e->Attribute("type") &&
        !kTypes.count(e->Attribute("type"))) {
      const char* name = e->Attribute("name");
      throw InterchangeError(
          source + ":" + std::to_string(e->Row()) + ": <joint name='" + (name ? name : "") +
          "'>: unknown type '" + e->Attribute("type") +
          "' (SDFormat joints: revolute, continuous, prismatic, screw, universal, revolute2, "
          "ball, fixed, gearbox)");
    }
    check_xml(e->FirstChildElement(), source);
  }
}

void check_xml(const std::string& text, const std::string& source) {
  TiXmlDocument doc;
  doc.Parse(text.c_str());
  if (doc.Error())
    throw InterchangeError(source + ":" + std::to_string(doc.ErrorRow()) +
                           ": malformed XML: " + doc.ErrorDesc());
  check_xml(doc.RootElement(), source);
}

Pose resolve(const sdf::SemanticPose& sp, const std::string& source, const std::string& what) {
  Pose3d p;
  throw_errors(sp.Resolve(p, "__model__"), source + " (" + what + ")");
  return pose(p);
}

Vec3 axis_in_model(const sdf::Joint& j, unsigned index, const std::string& where_) {
  const sdf::JointAxis* a = j.Axis(index);
  if (!a) throw InterchangeError(where_ + "missing <axis" + (index ? "2" : "") + ">");
  Vector3d xyz;
  if (!a->ResolveXyz(xyz, "__model__").empty() || !(vec(xyz).norm() > 1e-12))
    throw InterchangeError(where_ + "cannot resolve <axis" + (index ? "2" : "") + ">");
  return vec(xyz).normalized();
}

// Limits, friction and springs of the first axis of a 1-DoF joint.
void axis_extras(const sdf::JointAxis& a, JointSpec& j, const std::string& where_) {
  const bool lo = std::abs(a.Lower()) < 1e15, hi = std::abs(a.Upper()) < 1e15;
  if ((lo || hi) && a.Lower() >= a.Upper()) throw InterchangeError(where_ + "limit lower >= upper");
  if (lo || hi) {
    j.limits = LimitSpec{};
    if (lo) j.limits->lower = a.Lower();
    if (hi) j.limits->upper = a.Upper();
  }
  if (a.Friction() < 0 || a.Damping() < 0 || a.SpringStiffness() < 0)
    throw InterchangeError(where_ + "negative friction, damping or spring stiffness");
  if (a.Friction() > 0) j.friction = JointFrictionSpec{a.Friction(), 0.0, {}};
  if (a.SpringStiffness() > 0 || a.Damping() > 0)
    j.spring = SpringSpec{a.SpringStiffness(), a.SpringReference(), a.Damping(), {}};
}

// The joint frame's orientation in the model frame, and the Articula joint.
Mat3 joint_axes(const sdf::Joint& sj, const Pose& X_MJ, JointSpec& j, const std::string& where_) {
  switch (sj.Type()) {
    case sdf::JointType::REVOLUTE:
    case sdf::JointType::CONTINUOUS:
      j.joint = Joint::revolute();
      break;
    case sdf::JointType::PRISMATIC:
      j.joint = Joint::prismatic();
      break;
    case sdf::JointType::SCREW:
      if (sj.ThreadPitch() == 0) throw InterchangeError(where_ + "thread_pitch 0");
      j.joint = Joint::helical(1.0 / sj.ThreadPitch());
      break;
    case sdf::JointType::UNIVERSAL:
    case sdf::JointType::REVOLUTE2: {
      j.joint = Joint::universal();
      const Vec3 z = axis_in_model(sj, 0, where_), y = axis_in_model(sj, 1, where_);
      if (std::abs(z.dot(y)) > 1e-9)
        throw InterchangeError(where_ +
                               "axis and axis2 are not perpendicular (Articula's universal joint)");
      Mat3 R;
      R.col(2) = z;
      R.col(1) = (y - z.dot(y) * z).normalized();
      R.col(0) = R.col(1).cross(R.col(2));
      return R;
    }
    case sdf::JointType::BALL:
      j.joint = Joint::spherical();
      return X_MJ.R;
    case sdf::JointType::FIXED:
      j.joint = Joint::fixed();
      return X_MJ.R;
    default:
      throw InterchangeError(where_ + "unsupported joint type");
  }
  return rotation_z_to(axis_in_model(sj, 0, where_));
}

struct Links {
  std::map<std::string, Pose> X_ML;  // link poses in the model frame
};

JointSpec joint_of(const sdf::Joint& sj, const Links& links, const std::string& where_) {
  JointSpec j;
  j.name = sj.Name();
  std::string parent, child;
  if (!sj.ResolveParentLink(parent).empty() || !sj.ResolveChildLink(child).empty())
    throw InterchangeError(where_ + "cannot resolve its parent or child link");
  if (parent == child)
    throw InterchangeError(where_ + "parent and child are the same link '" + child + "'");
  j.parent = parent == "world" ? "ground" : parent;
  j.child = child == "world" ? "ground" : child;
  Pose X_MJ = resolve(sj.SemanticPose(), where_, "pose");
  X_MJ.R = joint_axes(sj, X_MJ, j, where_);
  const Pose world{};
  const Pose& X_MP = parent == "world" ? world : links.X_ML.at(parent);
  const Pose& X_MC = child == "world" ? world : links.X_ML.at(child);
  j.parent_frame = pose_spec(X_MP.inverse() * X_MJ);
  j.child_frame = pose_spec(X_MC.inverse() * X_MJ);
  if (j.joint.nv() == 1 && sj.Axis(0)) axis_extras(*sj.Axis(0), j, where_);
  return j;
}

BodySpec body_of(const sdf::Link& link, const Pose& X_ML) {
  BodySpec b;
  b.name = link.Name();
  const auto& in = link.Inertial();
  b.mass = in.MassMatrix().Mass();
  b.com = vec(in.Pose().Pos());
  const auto I = in.Moi();  // about the centre of mass, link axes
  b.inertia = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
  b.pose = pose_spec(X_ML);
  return b;
}

// One <visual> as a body visual in the link frame, or nullopt with a warning (meshes, planes...).
std::optional<VisualSpec> visual_of(const sdf::Visual& v, const Pose& X_ML,
                                    const std::string& where_, std::vector<std::string>& warnings) {
  const sdf::Geometry* g = v.Geom();
  VisualSpec s;
  s.frame = pose_spec(X_ML.inverse() * resolve(v.SemanticPose(), where_, "visual pose"));
  if (g && g->Type() == sdf::GeometryType::BOX && g->BoxShape()) {
    s.shape = VisualSpec::Shape::Box;
    s.size = vec(g->BoxShape()->Size());
  } else if (g && g->Type() == sdf::GeometryType::CYLINDER && g->CylinderShape()) {
    s.shape = VisualSpec::Shape::Cylinder;
    s.radius = g->CylinderShape()->Radius();
    s.length = g->CylinderShape()->Length();
  } else if (g && g->Type() == sdf::GeometryType::SPHERE && g->SphereShape()) {
    s.shape = VisualSpec::Shape::Sphere;
    s.radius = g->SphereShape()->Radius();
  } else {
    warnings.push_back(where_ + "<visual name='" + v.Name() +
                       "'> not imported (only boxes, cylinders and spheres are drawn)");
    return std::nullopt;
  }
  if (!drawable(s)) {
    warnings.push_back(where_ + "<visual name='" + v.Name() +
                       "'>: a size <= 0 or not finite, or a pose not finite, not imported");
    return std::nullopt;
  }
  return s;
}

// The side of a gearbox: the 1-DoF joint between the reference body and `link`, and its sign.
std::pair<std::string, double> gear_side(const MechanismSpec& spec, const std::string& ref,
                                         const std::string& link, const Vec3& axis,
                                         const std::map<std::string, Vec3>& axes,
                                         const std::string& where_) {
  for (const JointSpec& j : spec.joints) {
    if (j.joint.nv() != 1) continue;
    const bool forward = j.parent == ref && j.child == link,
               backward = j.parent == link && j.child == ref;
    if (!forward && !backward) continue;
    // theta = rotation of `link` relative to `ref` about the gearbox axis
    const double s = axis.dot(axes.at(j.name)) >= 0 ? 1.0 : -1.0;
    return {j.name, forward ? s : -s};
  }
  throw InterchangeError(where_ + "no 1-DoF joint between reference body '" + ref + "' and link '" +
                         link + "'");
}

void add_gearbox(const sdf::Joint& sj, MechanismSpec& spec, const std::map<std::string, Vec3>& axes,
                 const std::string& where_) {
  const sdf::ElementPtr e = sj.Element();
  const std::string ref = e->Get<std::string>("gearbox_reference_body");
  const double ratio = e->Get<double>("gearbox_ratio");
  const std::string parent = sj.ParentLinkName() == "world" ? "ground" : sj.ParentLinkName();
  const std::string child = sj.ChildLinkName() == "world" ? "ground" : sj.ChildLinkName();
  const auto [a, sa] = gear_side(spec, ref == "world" ? "ground" : ref, parent,
                                 axis_in_model(sj, 0, where_), axes, where_);
  const auto [b, sb] = gear_side(spec, ref == "world" ? "ground" : ref, child,
                                 axis_in_model(sj, 1, where_), axes, where_);
  CouplingSpec c;
  c.name = sj.Name();
  c.type = CouplingSpec::Type::Gear;
  c.joints = {a, b};
  c.ratio = -ratio * sa * sb;  // theta2 = -ratio theta1 (Gazebo's gearbox)
  spec.couplings.push_back(c);
}

// Links no joint chain connects to the world float: a free joint from ground each (static
// models: fixed).
void ground_floating(MechanismSpec& spec, bool is_static, std::vector<std::string>& warnings) {
  const std::vector<bool> grounded = spec.grounded_bodies();
  std::vector<bool> done = grounded;
  for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
    if (done[b]) continue;
    JointSpec j;
    j.name = spec.bodies[b].name + (is_static ? "_fixed" : "_free");
    j.joint = is_static ? Joint::fixed() : Joint::free();
    j.parent = "ground";
    j.child = spec.bodies[b].name;
    j.parent_frame = *spec.bodies[b].pose;
    spec.joints.push_back(j);
    warnings.push_back("link '" + j.child + "' is not joined to the world: joint '" + j.name +
                       "' added");
    done = spec.grounded_bodies();
  }
}

const sdf::Model* find_model(const sdf::Root& root, Vec3& gravity, const std::string& source) {
  gravity = Vec3(0, 0, -9.81);
  if (root.Model()) return root.Model();
  if (root.WorldCount() > 0 && root.WorldByIndex(0)->ModelCount() > 0) {
    gravity = vec(root.WorldByIndex(0)->Gravity());
    return root.WorldByIndex(0)->ModelByIndex(0);
  }
  throw InterchangeError(source + ": no <model> in the file");
}
}  // namespace

MechanismSpec import_sdf(const std::string& text, const std::string& source,
                         std::vector<std::string>& warnings) {
  check_xml(text, source);
  sdf::Console::Instance()->SetQuiet(true);  // its errors come back to us as sdf::Errors
  sdf::Root root;
  throw_errors(root.LoadSdfString(text), source);
  MechanismSpec spec;
  const sdf::Model* model = find_model(root, spec.gravity, source);
  spec.name = model->Name();
  if (model->ModelCount() > 0) warnings.push_back(source + ": nested models are not imported");
  Links links;
  for (uint64_t k = 0; k < model->LinkCount(); ++k) {
    const sdf::Link& link = *model->LinkByIndex(k);
    links.X_ML[link.Name()] =
        resolve(link.SemanticPose(),
                at(source, link.Element(), "<link name='" + link.Name() + "'>"), "pose");
    spec.bodies.push_back(body_of(link, links.X_ML[link.Name()]));
    const std::string where_ = at(source, link.Element(), "<link name='" + link.Name() + "'>");
    std::vector<VisualSpec> visuals;
    for (uint64_t v = 0; v < link.VisualCount(); ++v)
      if (auto s = visual_of(*link.VisualByIndex(v), links.X_ML[link.Name()], where_, warnings))
        visuals.push_back(*s);
    set_body_visuals(spec.bodies.back(), visuals);
  }
  std::map<std::string, Vec3> axes;  // 1-DoF joint axes in the model frame, for gearboxes
  for (uint64_t k = 0; k < model->JointCount(); ++k) {
    const sdf::Joint& sj = *model->JointByIndex(k);
    if (sj.Type() == sdf::JointType::GEARBOX) continue;
    const std::string where_ = at(source, sj.Element(), "<joint name='" + sj.Name() + "'>");
    spec.joints.push_back(joint_of(sj, links, where_));
    if (spec.joints.back().joint.nv() == 1) axes[sj.Name()] = axis_in_model(sj, 0, where_);
  }
  for (uint64_t k = 0; k < model->JointCount(); ++k) {
    const sdf::Joint& sj = *model->JointByIndex(k);
    if (sj.Type() == sdf::JointType::GEARBOX)
      add_gearbox(sj, spec, axes, at(source, sj.Element(), "<joint name='" + sj.Name() + "'>"));
  }
  ground_floating(spec, model->Static(), warnings);
  return spec;
}

}  // namespace articula
