// Loading and validating project files, format v1 (shared/docs/project-format-v1.md). Each reader
// checks one JSON object, names the offending field by JSON pointer, and keeps unknown fields in
// `extra` so that files written by newer or other tools survive a load/save cycle.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string_view>

#include "core/io/json_read.hpp"
#include "core/io/project.hpp"
#include "core/io/sensor_json.hpp"
#include "core/io/unilateral_json.hpp"
#include "core/io/visual_json.hpp"
#include "core/model/model.hpp"
#include "core/sim/expression.hpp"
#include "core/sim/motion_law.hpp"
#include "core/spec/coupling_rules.hpp"

namespace articula {
namespace {

using namespace json_read;
using Warnings = std::vector<std::string>;

constexpr std::array<std::string_view, 3> kIntegrators{"rk4", "euler", "rk45"};
constexpr std::array<std::string_view, 5> kSolvers{"auto", "method2", "sparse", "embedding",
                                                   "operator"};

// Four numbers [w, x, y, z] in place. A zero quaternion is no rotation at all; a non-unit one is
// normalised with a warning, because the file then does not say exactly what is simulated.
void unit_quaternion(double* q, const std::string& ptr, Warnings& warnings) {
  double scale = 0.0;
  for (int i = 0; i < 4; ++i) scale = std::max(scale, std::abs(q[i]));
  if (scale == 0.0) fail(ptr, "zero-length quaternion; expected a unit quaternion [w, x, y, z]");
  double sum = 0.0;  // of squares after scaling, so that huge components cannot overflow
  for (int i = 0; i < 4; ++i) sum += (q[i] / scale) * (q[i] / scale);
  const double norm = scale * std::sqrt(sum);
  if (std::abs(norm - 1.0) <= 1e-12) return;  // keep exact values: reloading changes nothing
  for (int i = 0; i < 4; ++i) q[i] = (q[i] / scale) / std::sqrt(sum);
  warnings.push_back(ptr + ": quaternion not unit length (norm " + show(norm) + "); normalised");
}

Quat quaternion(const json& j, const std::string& ptr, Warnings& warnings) {
  auto q = numbers(j, ptr, 4);
  unit_quaternion(q.data(), ptr, warnings);
  return Quat(q[0], q[1], q[2], q[3]);
}

PoseSpec read_pose(const json& j, const std::string& ptr, Warnings& warnings) {
  expect_object(j, ptr);
  PoseSpec pose;
  if (const json* v = find(j, "position")) pose.position = vec3(*v, at(ptr, "position"));
  if (const json* v = find(j, "quaternion"))
    pose.orientation = quaternion(*v, at(ptr, "quaternion"), warnings);
  pose.extra = extra_fields(j, {"position", "quaternion"});
  return pose;
}

BodySpec read_body(const json& j, const std::string& ptr, Warnings& warnings) {
  expect_object(j, ptr);
  BodySpec b;
  b.name = name_value(required(j, ptr, "name"), at(ptr, "name"));
  if (b.name == "ground")
    fail(at(ptr, "name"), "'ground' is the fixed world frame and must not be listed as a body");
  b.mass = nonnegative(required(j, ptr, "mass"), at(ptr, "mass"));
  b.com = vec3(required(j, ptr, "com"), at(ptr, "com"));
  const auto inertia = numbers(required(j, ptr, "inertia"), at(ptr, "inertia"), 6,
                               " [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]");
  std::copy(inertia.begin(), inertia.end(), b.inertia.begin());
  // A massless body (an ideal link, docs/format-extensions.md) has no inertia at all; the
  // simulation names the joints that then move nothing.
  if (b.mass == 0.0) {
    if (std::any_of(inertia.begin(), inertia.end(), [](double x) { return x != 0.0; }))
      fail(at(ptr, "inertia"), "a massless body (mass 0) must have zero inertia");
  } else if (const std::string why = inertia_problem(b.mass, b.inertia_matrix()); !why.empty()) {
    fail(at(ptr, "inertia"), "not a physically valid inertia about the centre of mass: " + why);
  }
  if (const json* v = find(j, "pose")) b.pose = read_pose(*v, at(ptr, "pose"), warnings);
  b.extra = extra_fields(j, {"name", "mass", "com", "inertia", "pose"});
  if (const json* v = find(j, "visuals"))  // kept in extra, checked (core/io/visual_json.hpp)
    set_body_visuals(b, read_visuals(*v, at(ptr, "visuals"), warnings));
  return b;
}

std::string known_joint_types() {
  std::string list;
  for (int t = 0; t <= static_cast<int>(JointType::Fixed); ++t)
    list += (t ? ", " : "") + std::string(joint_type_name(static_cast<JointType>(t)));
  return list;
}

std::string describe(const Joint& joint) {
  return "a " + std::string(joint_type_name(joint.type)) + " joint";
}

// Type and, for helical joints, pitch.
Joint read_joint_type(const json& j, const std::string& ptr) {
  const std::string name = string_value(required(j, ptr, "type"), at(ptr, "type"));
  const auto type = joint_type_from_name(name);
  if (!type)
    fail(at(ptr, "type"),
         "unknown joint type '" + name + "'; expected one of: " + known_joint_types());
  Joint joint{*type};
  const json* pitch = find(j, "pitch");
  if (joint.type == JointType::Helical) {
    if (!pitch) fail(at(ptr, "pitch"), "required for a helical joint (m/rad)");
    joint.pitch = number(*pitch, at(ptr, "pitch"));
  } else if (pitch) {
    fail(at(ptr, "pitch"), "only helical joints have a pitch; this is " + describe(joint));
  }
  return joint;
}

std::string read_link(const json& j, const std::string& ptr, const char* key,
                      const MechanismSpec& spec) {
  const std::string name = string_value(required(j, ptr, key), at(ptr, key));
  if (name != "ground" && spec.body_index(name) < 0)
    fail(at(ptr, key), "unknown body '" + name + "'; expected a body name or \"ground\"");
  return name;
}

void read_coordinates(const json& j, const std::string& ptr, JointSpec& js, Warnings& warnings) {
  const std::string context = " for " + describe(js.joint);
  if (const json* v = find(j, "q0")) {
    js.q0 = numbers(*v, at(ptr, "q0"), js.joint.nq(), context);
    // The quaternion part must be a rotation, as in the poses.
    if (js.joint.type == JointType::Spherical)
      unit_quaternion(js.q0->data(), at(ptr, "q0"), warnings);
    if (js.joint.type == JointType::Free)
      unit_quaternion(js.q0->data() + 3, at(ptr, "q0"), warnings);
  }
  if (const json* v = find(j, "qd0")) js.qd0 = numbers(*v, at(ptr, "qd0"), js.joint.nv(), context);
}

DriveSpec read_drive(const json& j, const std::string& ptr, const Joint& joint) {
  expect_object(j, ptr);
  const std::string type = string_value(required(j, ptr, "type"), at(ptr, "type"));
  DriveSpec d;
  const char* key = "q";
  if (type == "motion") {
    if (joint.nv() != 1)
      fail(ptr, "a motion drive needs a 1-DOF joint; this is " + describe(joint) + " with " +
                    std::to_string(joint.nv()) + " degrees of freedom");
  } else if (type == "unknown") {  // the force estimate finds (contract-additions-2 §5)
    if (joint.nv() != 1)
      fail(ptr, "an unknown drive needs a 1-DOF joint; this is " + describe(joint) + " with " +
                    std::to_string(joint.nv()) + " degrees of freedom");
    d.kind = DriveSpec::Kind::Force;
    d.unknown = true;
    d.expression = "0";
    d.extra = extra_fields(j, {"type"});
    return d;
  } else if (type == "force") {
    d.kind = DriveSpec::Kind::Force;
    key = "value";
    if (joint.nv() == 0) fail(ptr, "a force drive needs a joint that can move; this is fixed");
  } else {
    fail(at(ptr, "type"), "unknown drive type '" + type + "'; expected \"motion\" or \"force\"");
  }
  if (const json* law = find(j, "law"); law && d.kind == DriveSpec::Kind::Motion) {
    if (find(j, "q")) fail(at(ptr, "law"), "give either \"q\" or \"law\", not both");
    try {
      (void)MotionLaw::from_json(*law);
    } catch (const MotionLawError& e) {
      fail(e.field.empty() ? at(ptr, "law") : at(ptr, "law") + "/" + e.field, e.what());
    }
    d.law = *law;
    d.extra = extra_fields(j, {"type", "law"});
    return d;
  }
  d.expression = string_value(required(j, ptr, key), at(ptr, key));
  try {
    (void)Expression::parse(d.expression);
  } catch (const ExpressionError& e) {
    std::string what = e.what();
    if (what.find("position") == std::string::npos)
      what += " at position " + std::to_string(e.position);
    fail(at(ptr, key), "invalid expression \"" + d.expression + "\": " + what);
  }
  d.extra = extra_fields(j, {"type", key});
  return d;
}

SpringSpec read_spring(const json& j, const std::string& ptr, const Joint& joint) {
  expect_object(j, ptr);
  if (joint.nv() != 1)
    fail(ptr, "a spring needs a 1-DOF joint; this is " + describe(joint) + " with " +
                  std::to_string(joint.nv()) + " degrees of freedom");
  SpringSpec s;
  if (const json* v = find(j, "stiffness")) s.stiffness = nonnegative(*v, at(ptr, "stiffness"));
  if (const json* v = find(j, "rest")) s.rest = number(*v, at(ptr, "rest"));
  if (const json* v = find(j, "damping")) s.damping = nonnegative(*v, at(ptr, "damping"));
  s.extra = extra_fields(j, {"stiffness", "rest", "damping"});
  return s;
}

JointSpec read_joint(const json& j, const std::string& ptr, const MechanismSpec& spec,
                     Warnings& warnings) {
  expect_object(j, ptr);
  JointSpec js;
  js.name = name_value(required(j, ptr, "name"), at(ptr, "name"));
  js.joint = read_joint_type(j, ptr);
  js.parent = read_link(j, ptr, "parent", spec);
  js.child = read_link(j, ptr, "child", spec);
  if (js.parent == js.child)
    fail(at(ptr, "child"), "parent and child are the same body '" + js.child + "'");
  if (const json* v = find(j, "parent_frame"))
    js.parent_frame = read_pose(*v, at(ptr, "parent_frame"), warnings);
  if (const json* v = find(j, "child_frame"))
    js.child_frame = read_pose(*v, at(ptr, "child_frame"), warnings);
  read_coordinates(j, ptr, js, warnings);
  if (const json* v = find(j, "drive")) js.drive = read_drive(*v, at(ptr, "drive"), js.joint);
  if (const json* v = find(j, "spring")) js.spring = read_spring(*v, at(ptr, "spring"), js.joint);
  if (const json* v = find(j, "limits")) js.limits = read_limits(*v, at(ptr, "limits"), js.joint);
  if (const json* v = find(j, "friction"))
    js.friction = read_joint_friction(*v, at(ptr, "friction"), js.joint);
  js.extra = extra_fields(j, {"name", "type", "pitch", "parent", "child", "parent_frame",
                              "child_frame", "q0", "qd0", "drive", "spring", "limits", "friction"});
  return js;
}

ForceSpec read_force(const json& j, const std::string& ptr, const MechanismSpec& spec) {
  expect_object(j, ptr);
  ForceSpec f;
  f.name = name_value(required(j, ptr, "name"), at(ptr, "name"));
  f.type = string_value(required(j, ptr, "type"), at(ptr, "type"));
  if (f.type != "spring_damper")
    fail(at(ptr, "type"), "unknown force type '" + f.type + "'; expected \"spring_damper\"");
  f.body1 = read_link(j, ptr, "body1", spec);
  f.body2 = read_link(j, ptr, "body2", spec);
  if (f.body1 == f.body2)
    fail(at(ptr, "body2"), "both ends are on the same body '" + f.body1 + "'");
  if (const json* v = find(j, "point1")) f.point1 = vec3(*v, at(ptr, "point1"));
  if (const json* v = find(j, "point2")) f.point2 = vec3(*v, at(ptr, "point2"));
  if (const json* v = find(j, "stiffness")) f.stiffness = nonnegative(*v, at(ptr, "stiffness"));
  if (const json* v = find(j, "rest_length"))
    f.rest_length = nonnegative(*v, at(ptr, "rest_length"));
  if (const json* v = find(j, "damping")) f.damping = nonnegative(*v, at(ptr, "damping"));
  f.extra = extra_fields(j, {"name", "type", "body1", "body2", "point1", "point2", "stiffness",
                             "rest_length", "damping"});
  return f;
}

// --- couplings (contract-additions-2 §1) ---

CouplingSpec::Type coupling_type(const json& j, const std::string& ptr) {
  const std::string name = string_value(required(j, ptr, "type"), at(ptr, "type"));
  const auto type = coupling_type_from_name(name);
  if (!type)
    fail(at(ptr, "type"),
         "unknown coupling type '" + name + "'; expected one of: gear, belt, rack_pinion, linear");
  return *type;
}

// The fields as written; what they must say about the joints is coupling_problem's (shared with
// the editor), reported at the field it names.
CouplingSpec read_coupling(const json& j, const std::string& ptr, const MechanismSpec& spec,
                           int index) {
  expect_object(j, ptr);
  CouplingSpec c;
  c.name = name_value(required(j, ptr, "name"), at(ptr, "name"));
  c.type = coupling_type(j, ptr);
  const json& pair = required(j, ptr, "joints");
  const std::string jp = at(ptr, "joints");
  if (!pair.is_array()) fail(jp, "expected 2 joint names [A, B], got " + kind(pair));
  if (pair.size() != 2)
    fail(jp, "expected 2 joint names [A, B], got " + std::to_string(pair.size()));
  for (std::size_t k = 0; k < 2; ++k) c.joints[k] = string_value(pair[k], at(jp, k));
  c.ratio = number(required(j, ptr, "ratio"), at(ptr, "ratio"));
  if (const json* v = find(j, "radii")) {
    const auto r = numbers(*v, at(ptr, "radii"), 2, " [rA, rB]");
    c.radii = std::array<double, 2>{r[0], r[1]};
  }
  if (const auto problem = coupling_problem(spec, index, c))
    fail(ptr + "/" + problem->field, problem->message);
  c.extra = extra_fields(j, {"name", "type", "joints", "ratio", "radii"});
  return c;
}

SimulationSpec read_simulation(const json& j, const std::string& ptr) {
  expect_object(j, ptr);
  SimulationSpec s;
  if (const json* v = find(j, "duration")) s.duration = positive(*v, at(ptr, "duration"));
  if (const json* v = find(j, "step")) s.step = positive(*v, at(ptr, "step"));
  if (s.step > s.duration)
    fail(at(ptr, "step"), "step " + show(s.step) + " exceeds the duration " + show(s.duration));
  if (const json* v = find(j, "integrator")) {
    s.integrator = string_value(*v, at(ptr, "integrator"));
    if (std::find(kIntegrators.begin(), kIntegrators.end(), s.integrator) == kIntegrators.end())
      fail(at(ptr, "integrator"), "unknown integrator '" + s.integrator +
                                      "'; expected one of: " + std::string(kIntegrators[0]) + ", " +
                                      std::string(kIntegrators[1]) + ", " +
                                      std::string(kIntegrators[2]));
  }
  s.extra = extra_fields(j, {"duration", "step", "integrator"});
  // Kept in extra (the runner reads it there); checked here so a typo is exit 2, not a surprise.
  if (const json* v = find(j, "solver")) {
    const std::string solver = string_value(*v, at(ptr, "solver"));
    if (std::find(kSolvers.begin(), kSolvers.end(), solver) == kSolvers.end())
      fail(at(ptr, "solver"), "unknown solver '" + solver +
                                  "'; expected one of: auto, method2, sparse, embedding, operator");
  }
  return s;
}

void check_header(const json& doc) {
  const std::string format = string_value(required(doc, "", "format"), "/format");
  if (format != "articula") fail("/format", "expected \"articula\", got \"" + format + "\"");
  const json& version = required(doc, "", "version");
  const double v = number(version, "/version");
  if (v > 1.0)
    fail("/version", "written by a newer Articula (version " + version.dump() +
                         "); this build reads version 1");
  if (v != 1.0)
    fail("/version", "unsupported version " + version.dump() + "; this build reads version 1");
}

const json* array_field(const json& doc, const std::string& ptr, const char* key) {
  const json* v = find(doc, key);
  if (v && !v->is_array()) fail(at(ptr, key), "expected an array, got " + kind(*v));
  return v;
}

// A second use of a name is the error: the first one is what the user most likely meant.
// seen maps each name to the pointer of its first use.
void check_unique(std::map<std::string, std::string>& seen, const std::string& name,
                  const std::string& ptr, const char* what) {
  const auto [it, inserted] = seen.emplace(name, ptr);
  if (!inserted)
    fail(at(ptr, "name"), std::string("duplicate ") + what + " name '" + name +
                              "' (first used at " + it->second + ")");
}

// Every body must hang from ground through some chain of joints, in either direction.
void check_connected(const MechanismSpec& spec) {
  const std::vector<bool> reached = spec.grounded_bodies();
  for (std::size_t i = 0; i < reached.size(); ++i)
    if (!reached[i])
      fail(at("/bodies", i),
           "body '" + spec.bodies[i].name + "' is not connected to ground by any joint");
}

// Names are unique per kind across the document and its floating sketch links.
struct SeenNames {
  std::map<std::string, std::string> bodies, joints, forces, couplings, contacts;
};

// The bodies, joints, forces and couplings arrays of `obj` (the document, or /sketch/floating),
// appended to spec. Joints and forces may name any body read so far.
void read_parts(const json& obj, const std::string& ptr, LoadResult& r, SeenNames& seen) {
  MechanismSpec& spec = r.spec;
  const json* bodies = array_field(obj, ptr, "bodies");
  const json* joints = array_field(obj, ptr, "joints");
  const json* forces = array_field(obj, ptr, "forces");
  for (std::size_t i = 0; bodies && i < bodies->size(); ++i) {
    const std::string p = at(at(ptr, "bodies"), i);
    spec.bodies.push_back(read_body((*bodies)[i], p, r.warnings));
    check_unique(seen.bodies, spec.bodies.back().name, p, "body");
  }
  for (std::size_t i = 0; joints && i < joints->size(); ++i) {
    const std::string p = at(at(ptr, "joints"), i);
    spec.joints.push_back(read_joint((*joints)[i], p, spec, r.warnings));
    check_unique(seen.joints, spec.joints.back().name, p, "joint");
  }
  for (std::size_t i = 0; forces && i < forces->size(); ++i) {
    const std::string p = at(at(ptr, "forces"), i);
    spec.forces.push_back(read_force((*forces)[i], p, spec));
    check_unique(seen.forces, spec.forces.back().name, p, "force");
  }
  // After the joints: a coupling names two of them.
  const json* couplings = array_field(obj, ptr, "couplings");
  for (std::size_t i = 0; couplings && i < couplings->size(); ++i) {
    const std::string p = at(at(ptr, "couplings"), i);
    spec.couplings.push_back(
        read_coupling((*couplings)[i], p, spec, static_cast<int>(spec.couplings.size())));
    check_unique(seen.couplings, spec.couplings.back().name, p, "coupling");
  }
  const json* contacts = array_field(obj, ptr, "contacts");
  for (std::size_t i = 0; contacts && i < contacts->size(); ++i) {
    const std::string p = at(at(ptr, "contacts"), i);
    spec.contacts.push_back(read_contact((*contacts)[i], p, spec));
    check_unique(seen.contacts, spec.contacts.back().name, p, "contact");
  }
}

// Top-level "sensors" (contract-additions-2 §5), after every body and joint they may name.
void read_sensors(const json& doc, MechanismSpec& spec) {
  const json* sensors = array_field(doc, "", "sensors");
  std::map<std::string, std::string> seen;
  for (std::size_t i = 0; sensors && i < sensors->size(); ++i) {
    const std::string p = at("/sensors", i);
    spec.sensors.push_back(read_sensor((*sensors)[i], p, spec));
    check_unique(seen, spec.sensors.back().name, p, "sensor");
  }
}

// Links of a sketch not connected to ground yet are written under /sketch/floating (format
// v1 requires every body to reach ground). The editor gets them back as parts of the spec;
// everyone else keeps them as an unknown field and is told they are not simulated.
void read_floating(LoadResult& r, SeenNames& seen, bool restore) {
  json& extra = r.spec.extra;
  if (!extra.contains("sketch") || !extra["sketch"].is_object()) return;
  json& sketch = extra["sketch"];
  if (!sketch.contains("floating")) return;
  const std::string ptr = "/sketch/floating";
  expect_object(sketch["floating"], ptr);
  if (!restore) {
    std::size_t n = 0;
    if (const json* b = array_field(sketch["floating"], ptr, "bodies")) n = b->size();
    if (n > 0)
      r.warnings.push_back(ptr + ": " + std::to_string(n) +
                           " sketched link(s) not connected to ground are kept but not simulated");
    return;
  }
  read_parts(sketch["floating"], ptr, r, seen);
  sketch.erase("floating");
  if (sketch.empty()) extra.erase("sketch");
}

LoadResult read_document(const json& doc, const LoadOptions& options) {
  if (!doc.is_object()) fail("", "expected a JSON object at the top level, got " + kind(doc));
  check_header(doc);
  LoadResult r;
  MechanismSpec& spec = r.spec;
  if (const json* v = find(doc, "name")) spec.name = string_value(*v, "/name");
  if (const json* v = find(doc, "gravity")) spec.gravity = vec3(*v, "/gravity");
  SeenNames seen;
  read_parts(doc, "", r, seen);
  if (const json* v = find(doc, "simulation")) spec.simulation = read_simulation(*v, "/simulation");
  check_connected(spec);
  read_sensors(doc, spec);
  spec.extra = extra_fields(doc, {"format", "version", "name", "gravity", "bodies", "joints",
                                  "forces", "couplings", "contacts", "sensors", "simulation"});
  read_floating(r, seen, options.restore_floating);
  return r;
}

// Records where nlohmann's parser gave up. json::parse reports some errors (number overflow)
// without a position; re-running the SAX parser yields the byte offset for every kind.
struct ErrorLocator : json::json_sax_t {
  std::size_t byte = 0;
  std::string message;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& e) override {
    byte = position;
    // A syntax error points at the character that broke it; an overflow at its number's start.
    if (e.id == 406 && last_token.size() < position) byte = position - last_token.size() + 1;
    message = e.what();
    return false;
  }
};

// nlohmann's explanation without its "[json.exception...] parse error at line..:" prefix.
std::string explanation(std::string what) {
  if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
  if (what.rfind("parse error", 0) == 0)
    if (const auto p = what.find(": "); p != std::string::npos) what.erase(0, p + 2);
  return what;
}

[[noreturn]] void syntax_error(const std::string& text) {
  ErrorLocator locator;
  (void)json::sax_parse(text, &locator);
  // byte counts the characters read, the last being the offending one.
  const std::size_t pos = std::min(locator.byte > 0 ? locator.byte - 1 : 0, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < pos; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xC0) != 0x80) {  // count UTF-8 characters, not continuation bytes
      ++column;
    }
  }
  fail("", "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
               ": " + explanation(locator.message));
}

}  // namespace

LoadResult parse_project(const std::string& text, const LoadOptions& options) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception&) {
    syntax_error(text);
  }
  try {
    return read_document(doc, options);
  } catch (const json::exception& e) {  // a safety net: the readers check types before access
    throw ProjectError("", std::string("unexpected JSON problem: ") + e.what());
  }
}

LoadResult load_project(const std::string& path, const LoadOptions& options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("", "cannot open '" + path + "': " + std::strerror(errno));
  std::string text;
  std::array<char, 65536> buffer;
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      fail("", "cannot read '" + path + "': " + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return parse_project(text, options);
}

}  // namespace articula
