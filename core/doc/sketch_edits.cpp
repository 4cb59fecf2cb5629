#include "core/doc/sketch_edits.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "core/algorithms/kinematics.hpp"
#include "core/doc/attachment_upkeep.hpp"
#include "core/doc/coupling_edits.hpp"
#include "core/model/model.hpp"
#include "core/sim/expression.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/motion_law.hpp"
#include "core/spec/coupling_rules.hpp"

namespace articula {

namespace {
constexpr double kSamePointTolerance = 1e-9;

nlohmann::json json_point(const Vec3& p) {
  return nlohmann::json::array({p.x(), p.y(), p.z()});
}

std::string name_of(const MechanismSpec& spec, int body) {
  return body < 0 ? std::string("ground") : spec.bodies.at(body).name;
}

PoseSpec planar_pose(const Vec3& at, double angle) {
  PoseSpec p;
  p.position = at;
  p.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
  return p;
}

double body_angle(const MechanismSpec& spec, int body) {
  if (body < 0 || !spec.bodies[body].pose) return 0.0;
  const Mat3 R = spec.bodies[body].pose->orientation.toRotationMatrix();
  return std::atan2(R(1, 0), R(0, 0));
}

JointSpec revolute_at(const MechanismSpec& spec, int a, int b, const Vec3& world) {
  JointSpec j;
  j.name = unique_name(spec, "J");
  j.joint = Joint::revolute();
  j.parent = name_of(spec, a);
  j.child = name_of(spec, b);
  j.parent_frame.position = to_local(spec, a, world);
  j.child_frame.position = to_local(spec, b, world);
  return j;
}

// Mass properties that follow the drawn outline, and the outline itself, in the body's extra.
void set_sketch_points(BodySpec& b, const std::vector<Vec3>& pts) {
  nlohmann::json arr = nlohmann::json::array();
  for (const Vec3& p : pts) arr.push_back(json_point(p));
  b.extra["sketch"]["points"] = arr;
  if (mass_from_sketch(b)) bar_mass_properties(pts, LinkStock::of(b), b);
}

std::vector<Vec3> stored_points(const BodySpec& b) {
  std::vector<Vec3> pts;
  if (b.extra.contains("sketch") && b.extra["sketch"].contains("points"))
    for (const auto& p : b.extra["sketch"]["points"])
      pts.emplace_back(p[0].get<double>(), p[1].get<double>(),
                       p.size() > 2 ? p[2].get<double>() : 0.0);
  return pts;
}

bool same(const Vec3& a, const Vec3& b) {
  return (a - b).norm() < kSamePointTolerance;
}
}  // namespace

std::string unique_name(const MechanismSpec& spec, const std::string& stem) {
  for (int k = 1;; ++k) {
    const std::string n = stem + std::to_string(k);
    if (spec.body_index(n) < 0 && spec.joint_index(n) < 0 && spec.coupling_index(n) < 0 &&
        n != "ground")
      return n;
  }
}

Edit add_ground_point(const EditableMechanism& doc, const Vec3& p) {
  MechanismHeader h = doc.header();
  h.extra["sketch"]["ground_points"].push_back(json_point(p));
  return {"Add ground pivot", {replace_header(doc, h)}};
}

Edit remove_ground_point(const EditableMechanism& doc, const Vec3& p) {
  MechanismHeader h = doc.header();
  nlohmann::json kept = nlohmann::json::array();
  for (const Vec3& q : ground_points(doc.spec()))
    if (!same(q, p)) kept.push_back(json_point(q));
  h.extra["sketch"]["ground_points"] = kept;
  return {"Delete ground pivot", {replace_header(doc, h)}};
}

Edit add_link(EditableMechanism& doc, const std::vector<Vec3>& points,
              const std::vector<std::optional<Attachment>>& attach) {
  if (points.size() < 2 || points.size() > 3)
    throw std::invalid_argument("a link has two or three points");
  for (std::size_t i = 1; i < points.size(); ++i)
    if (same(points[i], points[i - 1]) || same(points[i], points.front()))
      throw std::invalid_argument("the points of a link must be distinct");
  const Vec3 d = points[1] - points[0];
  BodySpec b;
  b.name = unique_name(doc.spec(), points.size() == 2 ? "link" : "ternary");
  b.pose = planar_pose(points[0], std::atan2(d.y(), d.x()));
  b.extra["sketch"]["mass"] = "bars";
  MechanismSpec after = doc.spec();  // names and frames see the new body
  after.bodies.push_back(b);
  const int me = static_cast<int>(after.bodies.size()) - 1;
  std::vector<Vec3> local;
  for (const Vec3& p : points) local.push_back(to_local(after, me, p));
  set_sketch_points(after.bodies[me], local);
  Edit e{points.size() == 2 ? "Draw link" : "Draw ternary link",
         {insert_body(doc, after.bodies[me])}};
  for (std::size_t i = 0; i < points.size() && i < attach.size(); ++i) {
    if (!attach[i]) continue;
    JointSpec j = revolute_at(after, attach[i]->body, me, points[i]);
    after.joints.push_back(j);
    e.changes.push_back(insert_joint(doc, j));
  }
  return e;
}

Edit add_pin(EditableMechanism& doc, int a, int b, const Vec3& at) {
  if (a == b) throw std::invalid_argument("a pin joins two different links");
  if (a > b) std::swap(a, b);  // ground (-1) first: it becomes the parent
  const JointSpec j = revolute_at(doc.spec(), a, b, at);
  return {"Pin", {insert_joint(doc, j)}};
}

Edit add_slider(EditableMechanism& doc, int guide, const Vec3& at, const Vec3& direction) {
  const Vec3 dir(direction.x(), direction.y(), 0.0);
  if (dir.norm() < 1e-12) throw std::invalid_argument("a slider needs a direction");
  const MechanismSpec& spec = doc.spec();
  BodySpec block;
  block.name = unique_name(spec, "slider");
  // The block keeps the guide's orientation, so both joint frames share one axis direction.
  block.pose = planar_pose(at, body_angle(spec, guide));
  block.extra["sketch"]["mass"] = "bars";
  set_sketch_points(block, {Vec3::Zero()});
  MechanismSpec after = spec;
  after.bodies.push_back(block);
  const int me = static_cast<int>(after.bodies.size()) - 1;
  const Vec3 d = to_local(after, me, at + dir.normalized()) - to_local(after, me, at);
  // Joint frame: z along the slide, y along world z (so x = y × z stays in the plane).
  Mat3 R;
  R.col(2) = d.normalized();
  R.col(1) = Vec3::UnitZ();
  R.col(0) = R.col(1).cross(R.col(2));
  JointSpec j;
  j.name = unique_name(after, "P");
  j.joint = Joint::prismatic();
  j.parent = name_of(spec, guide);
  j.child = block.name;
  j.parent_frame.position = to_local(after, guide, at);
  j.parent_frame.orientation = Quat(R);
  j.child_frame.orientation = Quat(R);
  j.extra["sketch"]["rail"] = json_point(to_local(after, guide, at + dir));
  return {guide < 0 ? "Ground slider" : "Slider", {insert_body(doc, block), insert_joint(doc, j)}};
}

Edit remove_joint(const EditableMechanism& doc, int joint) {
  const JointSpec& j = doc.spec().joints.at(joint);
  Edit e{"Delete joint " + j.name, {}};
  remove_couplings_on(doc, {j.name}, e);
  remove_attached(doc, {}, {j.name}, e);
  e.changes.push_back(Change{Change::Kind::Joint, doc.joint_id(joint), joint, j, {}});
  return e;
}

Edit remove_force(const EditableMechanism& doc, int force) {
  const ForceSpec& f = doc.spec().forces.at(force);
  return {"Delete force " + f.name,
          {Change{Change::Kind::Force, doc.force_id(force), force, f, {}}}};
}

Edit remove_body(const EditableMechanism& doc, int body) {
  const MechanismSpec& spec = doc.spec();
  const std::string& name = spec.bodies.at(body).name;
  Edit e{"Delete " + name, {}};
  std::vector<std::string> joints;
  for (const JointSpec& js : spec.joints)
    if (js.parent == name || js.child == name) joints.push_back(js.name);
  remove_couplings_on(doc, joints, e);
  remove_attached(doc, {name}, joints, e);
  // Back to front, so that the recorded indices restore the original order on undo.
  for (int j = static_cast<int>(spec.joints.size()) - 1; j >= 0; --j)
    if (spec.joints[j].parent == name || spec.joints[j].child == name)
      e.changes.push_back({Change::Kind::Joint, doc.joint_id(j), j, spec.joints[j], {}});
  for (int f = static_cast<int>(spec.forces.size()) - 1; f >= 0; --f)
    if (spec.forces[f].body1 == name || spec.forces[f].body2 == name)
      e.changes.push_back({Change::Kind::Force, doc.force_id(f), f, spec.forces[f], {}});
  e.changes.push_back({Change::Kind::Body, doc.body_id(body), body, spec.bodies[body], {}});
  return e;
}

namespace {
// A body with a typed mass whose outline changed: the mass is kept (the user's number), its
// centre of mass and inertia follow the drawing as bars along the new outline, made as the Link
// tool makes them, scaled to that mass (as a CAD mass override scales the geometry's inertia).
void follow_outline(BodySpec& b, const std::vector<Vec3>& after) {
  if (mass_from_sketch(b) || after.size() < 2 || !(b.mass > 0)) return;
  BodySpec bars = b;
  try {
    bar_mass_properties(after, LinkStock::of(b), bars);
  } catch (const std::invalid_argument&) {
    return;  // points on top of each other: no bar to measure (the edit itself stays valid)
  }
  if (!(bars.mass > 0)) return;
  b.com = bars.com;
  for (std::size_t k = 0; k < b.inertia.size(); ++k)
    b.inertia[k] = bars.inertia[k] * (b.mass / bars.mass);
}
}  // namespace

Edit move_point(const EditableMechanism& doc, const Vec3& from, const Vec3& to) {
  const MechanismSpec& spec = doc.spec();
  Edit e{"Move point", {}};
  MechanismSpec after = spec;  // with the point moved: the outlines the mass properties follow
  std::vector<bool> body_changed(spec.bodies.size(), false);
  for (int b = 0; b < static_cast<int>(after.bodies.size()); ++b) {
    const Vec3 old_local = to_local(spec, b, from);
    std::vector<Vec3> pts = stored_points(after.bodies[b]);
    bool hit = false;
    for (Vec3& p : pts)
      if (same(p, old_local)) p = to_local(spec, b, to), hit = true;
    if (hit) set_sketch_points(after.bodies[b], pts), body_changed[b] = true;
  }
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    JointSpec& js = after.joints[j];
    bool hit = false;
    for (auto [name, frame] :
         {std::pair{js.parent, &js.parent_frame}, std::pair{js.child, &js.child_frame}}) {
      const int b = spec.body_index(name);
      if (!same(frame->position, to_local(spec, b, from))) continue;
      frame->position = to_local(spec, b, to), hit = true;
      if (b >= 0) body_changed[b] = true;
    }
    if (hit) e.changes.push_back(replace_joint(doc, j, js));
  }
  for (int b = 0; b < static_cast<int>(after.bodies.size()); ++b) {
    if (!body_changed[b]) continue;
    follow_outline(after.bodies[b], body_points(after, b));
    if (!(after.bodies[b] == spec.bodies[b]))
      e.changes.push_back(replace_body(doc, b, after.bodies[b]));
  }
  std::vector<Vec3> ground = ground_points(spec);
  for (const Vec3& g : ground)
    if (same(g, from)) {
      MechanismHeader h = doc.header();
      nlohmann::json arr = nlohmann::json::array();
      for (const Vec3& q : ground) arr.push_back(json_point(same(q, from) ? to : q));
      h.extra["sketch"]["ground_points"] = arr;
      e.changes.push_back(replace_header(doc, h));
      break;
    }
  return e;
}

Edit set_configuration(const EditableMechanism& doc, const Mechanism& mech, const VecX& q) {
  const CompiledMechanism& c = mech.compiled;
  Data data(c.model);
  forward_kinematics(c.model, data, q);
  Edit e{"Drag", {}};
  const MechanismSpec& spec = doc.spec();
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    const int i = mech.spec.body_index(spec.bodies[b].name);
    if (i < 0) continue;
    const int m = c.model_body[i];
    const Transform X = c.X_body[m].inverse() * data.X0[m];  // ^{user body}X_0
    BodySpec body = spec.bodies[b];
    PoseSpec pose = body.pose.value_or(PoseSpec{});
    pose.position = X.r;
    pose.orientation = Quat(X.rotation());
    body.pose = pose;
    if (!(body == spec.bodies[b])) e.changes.push_back(replace_body(doc, b, body));
  }
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const int uj = mech.spec.joint_index(spec.joints[j].name);
    if (uj < 0 || !spec.joints[j].q0 || c.joint_map[uj].loop) continue;
    JointSpec js = spec.joints[j];
    const int i = c.joint_map[uj].index;
    js.q0 = std::vector<double>(q.data() + c.model.q_index[i],
                                q.data() + c.model.q_index[i] + c.model.joints[i].nq());
    if (!(js == spec.joints[j])) e.changes.push_back(replace_joint(doc, j, js));
  }
  return e;
}

Edit set_body(const EditableMechanism& doc, int body, BodySpec after) {
  const MechanismSpec& spec = doc.spec();
  if (const std::string why = check_body(spec, body, after); !why.empty())
    throw std::invalid_argument(why);
  const std::string old = spec.bodies.at(body).name;
  Edit e{"Edit " + old, {replace_body(doc, body, after)}};
  if (after.name == old) return e;
  e.label = "Rename " + old;
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    JointSpec js = spec.joints[j];
    if (js.parent != old && js.child != old) continue;
    if (js.parent == old) js.parent = after.name;
    if (js.child == old) js.child = after.name;
    e.changes.push_back(replace_joint(doc, j, js));
  }
  for (int f = 0; f < static_cast<int>(spec.forces.size()); ++f) {
    ForceSpec fs = spec.forces[f];
    if (fs.body1 != old && fs.body2 != old) continue;
    if (fs.body1 == old) fs.body1 = after.name;
    if (fs.body2 == old) fs.body2 = after.name;
    e.changes.push_back(replace_force(doc, f, fs));
  }
  rename_body_in_attached(doc, old, after.name, e);
  return e;
}

Edit set_joint(const EditableMechanism& doc, int joint, JointSpec after) {
  if (const std::string why = check_joint(doc.spec(), joint, after); !why.empty())
    throw std::invalid_argument(why);
  const std::string old = doc.spec().joints.at(joint).name;
  Edit e{"Edit " + old, {}};
  if (after.name != old) e.label = "Rename " + old;
  rename_in_couplings(doc, old, after.name, e);
  rename_joint_in_attached(doc, old, after.name, e);
  e.changes.insert(e.changes.begin(), replace_joint(doc, joint, std::move(after)));
  return e;
}

Edit toggle_motor(const EditableMechanism& doc, const Mechanism* mech, int joint) {
  JointSpec j = doc.spec().joints.at(joint);
  if (j.joint.nv() != 1) throw std::invalid_argument("a motor needs a revolute or sliding joint");
  if (j.drive) {
    j.drive.reset();
  } else {
    double q = 0.0;
    if (mech && !mech->compiled.joint_map.at(joint).loop)
      q = mech->q0[mech->compiled.q_index(joint)];
    char text[64];
    const bool slide = j.joint.type == JointType::Prismatic;
    std::snprintf(text, sizeof text, slide ? "%.12g + 0.05*sin(2*pi*t)" : "%.12g + 2*pi*t", q);
    j.drive = DriveSpec{DriveSpec::Kind::Motion, text, {}, nlohmann::json::object()};
  }
  const std::string name = j.name;
  const bool on = j.drive.has_value();
  Edit e = set_joint(doc, joint, std::move(j));
  e.label = on ? "Add motor to " + name : "Remove motor from " + name;
  return e;
}

Edit set_force(const EditableMechanism& doc, int force, ForceSpec after) {
  if (const std::string why = check_force(doc.spec(), force, after); !why.empty())
    throw std::invalid_argument(why);
  return {"Edit " + doc.spec().forces.at(force).name,
          {replace_force(doc, force, std::move(after))}};
}

Edit set_header(const EditableMechanism& doc, MechanismHeader after) {
  return {"Edit mechanism", {replace_header(doc, std::move(after))}};
}

Edit add_body(EditableMechanism& doc, BodySpec body) {
  if (const std::string why = check_body(doc.spec(), -1, body); !why.empty())
    throw std::invalid_argument(why);
  return {"Add body " + body.name, {insert_body(doc, std::move(body))}};
}

Edit add_joint(EditableMechanism& doc, JointSpec joint) {
  if (const std::string why = check_joint(doc.spec(), -1, joint); !why.empty())
    throw std::invalid_argument(why);
  return {"Add joint " + joint.name, {insert_joint(doc, std::move(joint))}};
}

Edit add_force(EditableMechanism& doc, ForceSpec force) {
  if (const std::string why = check_force(doc.spec(), -1, force); !why.empty())
    throw std::invalid_argument(why);
  return {"Add force " + force.name, {insert_force(doc, std::move(force))}};
}

namespace {
// A coupled joint must stay what its couplings need (1-DOF; a rack's joint prismatic, ...).
std::string check_joint_couplings(const MechanismSpec& spec, int index, const JointSpec& j) {
  const std::vector<int> on = couplings_on_joint(spec, spec.joints[index].name);
  if (on.empty()) return "";
  MechanismSpec after = spec;
  after.joints[index] = j;
  for (int c : on) {
    CouplingSpec coupling = spec.couplings[c];
    for (std::string& name : coupling.joints)
      if (name == spec.joints[index].name) name = j.name;
    after.couplings[c] = coupling;
  }
  for (int c : on)
    if (const auto problem = coupling_problem(after, c, after.couplings[c]))
      return "coupling '" + after.couplings[c].name + "': " + problem->message;
  return "";
}

bool finite(const Vec3& v) {
  return v.allFinite();
}

std::string check_name(const std::string& name, bool taken) {
  if (name.empty()) return "the name is empty";
  if (name == "ground") return "'ground' is reserved for the fixed world";
  if (taken) return "the name '" + name + "' is taken";
  return "";
}

std::string check_drive(const DriveSpec& d) {
  try {
    if (!d.law.is_null()) {
      if (d.kind != DriveSpec::Kind::Motion) return "drive: a motion law needs a motion drive";
      (void)MotionLaw::from_json(d.law);
    } else {
      (void)Expression::parse(d.expression);
    }
  } catch (const std::exception& e) {
    return std::string("drive: ") + e.what();
  }
  return "";
}
}  // namespace

std::string check_body(const MechanismSpec& spec, int index, const BodySpec& b) {
  const int other = spec.body_index(b.name);
  if (std::string why = check_name(b.name, other >= 0 && other != index); !why.empty()) return why;
  if (!std::isfinite(b.mass) || b.mass <= 0) return "mass must be a positive number (kg)";
  if (!std::isfinite(b.mass * 1e6)) {  // weight and momentum must stay finite
    std::ostringstream why;
    why << "mass " << b.mass << " kg is too large to compute with (its weight overflows)";
    return why.str();
  }
  if (!finite(b.com)) return "centre of mass must be finite";
  const Mat3 I = b.inertia_matrix();
  if (!I.allFinite()) return "inertia must be finite";
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(I);
  const Vec3 p = eig.eigenvalues();
  const double tol = 1e-12 * std::max(1.0, p.cwiseAbs().maxCoeff());
  if (p.minCoeff() < -tol) return "inertia must be positive semi-definite";
  if (p(0) + p(1) < p(2) - tol)
    return "principal moments violate the triangle inequality (I1 + I2 >= I3)";
  // The dynamics keep the inertia about the body origin, Ic - m c× c× (RBDA Eq. 2.62): a mass so
  // large that m |c|² swamps Ic in double precision loses the inertia (1e308 kg at 0.1 m).
  const RigidBodyInertia spatial = RigidBodyInertia::from_mass_com(b.mass, b.com, I);
  if (inertia_problem(b.mass, I).empty() &&
      (!spatial.Ibar.allFinite() ||
       !inertia_problem(b.mass, spatial.inertia_about_com()).empty())) {
    std::ostringstream why;
    why << "mass " << b.mass
        << " kg is too large to compute with: m |c|^2 = " << b.mass * b.com.squaredNorm()
        << " kg m^2 swamps the inertia (" << p(2) << " kg m^2) in double precision";
    return why.str();
  }
  if (b.pose && (!finite(b.pose->position) || std::abs(b.pose->orientation.norm() - 1.0) > 1e-6))
    return "pose needs a finite position and a unit quaternion";
  return "";
}

std::string check_joint(const MechanismSpec& spec, int index, const JointSpec& j) {
  const int other = spec.joint_index(j.name);
  if (std::string why = check_name(j.name, other >= 0 && other != index); !why.empty()) return why;
  for (const std::string& b : {j.parent, j.child})
    if (b != "ground" && spec.body_index(b) < 0) return "unknown body '" + b + "'";
  if (j.parent == j.child) return "parent and child must be different bodies";
  if (!std::isfinite(j.joint.pitch)) return "pitch must be finite";
  if (j.q0 && static_cast<int>(j.q0->size()) != j.joint.nq())
    return "q0 needs " + std::to_string(j.joint.nq()) + " values for this joint type";
  if (j.qd0 && static_cast<int>(j.qd0->size()) != j.joint.nv())
    return "qd0 needs " + std::to_string(j.joint.nv()) + " values for this joint type";
  if (j.q0)
    for (double x : *j.q0)
      if (!std::isfinite(x)) return "q0 must be finite";
  if (index >= 0)
    if (std::string why = check_joint_couplings(spec, index, j); !why.empty()) return why;
  if (j.drive && j.drive->kind == DriveSpec::Kind::Motion && j.joint.nv() != 1)
    return "drive: a motion drive needs a one-coordinate joint (revolute, prismatic, helical)";
  if (j.drive && j.joint.nv() == 0) return "drive: a fixed joint cannot be driven";
  if (j.drive)
    if (std::string why = check_drive(*j.drive); !why.empty()) return why;
  if (j.spring) {
    if (j.joint.nv() != 1) return "spring: only one-coordinate joints take a spring";
    if (!(j.spring->stiffness >= 0) || !(j.spring->damping >= 0) || !std::isfinite(j.spring->rest))
      return "spring: stiffness and damping must be >= 0, rest finite";
  }
  for (const PoseSpec* f : {&j.parent_frame, &j.child_frame})
    if (!finite(f->position) || std::abs(f->orientation.norm() - 1.0) > 1e-6)
      return "frames need a finite position and a unit quaternion";
  return "";
}

std::string check_force(const MechanismSpec& spec, int index, const ForceSpec& f) {
  int other = -1;
  for (std::size_t i = 0; i < spec.forces.size(); ++i)
    if (spec.forces[i].name == f.name) other = static_cast<int>(i);
  if (std::string why = check_name(f.name, other >= 0 && other != index); !why.empty()) return why;
  for (const std::string& b : {f.body1, f.body2})
    if (b != "ground" && spec.body_index(b) < 0) return "unknown body '" + b + "'";
  if (!(f.stiffness >= 0) || !(f.rest_length >= 0) || !(f.damping >= 0))
    return "stiffness, rest_length and damping must be >= 0";
  if (!finite(f.point1) || !finite(f.point2)) return "points must be finite";
  return "";
}

}  // namespace articula
