#include "core/io/unilateral_json.hpp"

#include <cmath>
#include <optional>

#include "core/io/json_read.hpp"
#include "core/sim/contact/cam_profile.hpp"

namespace articula {

using namespace json_read;
using ojson = nlohmann::ordered_json;

namespace {
// Newton's coefficient: above 1 an impact would create energy.
double restitution(const json& j, const std::string& ptr) {
  const double e = number(j, ptr);
  if (e < 0.0 || e > 1.0)
    fail(ptr, "restitution " + show(e) +
                  " is outside [0, 1]: 0 is a plastic impact, 1 an elastic one, and above 1 an "
                  "impact would create energy");
  return e;
}

std::string body_name(const json& j, const std::string& ptr, const char* key,
                      const MechanismSpec& spec) {
  const std::string name = string_value(required(j, ptr, key), at(ptr, key));
  if (name != "ground" && spec.body_index(name) < 0)
    fail(at(ptr, key), "unknown body '" + name + "'; expected a body name or \"ground\"");
  return name;
}

// The direction of `v` (overflow-safe), or nullopt for a zero vector. A vector already unit to
// 1e-12 keeps its exact values: normalising a normalised vector again can move its last bit, and a
// saved file must reload unchanged.
std::optional<Vec3> direction_of(const Vec3& v) {
  const double scale = v.cwiseAbs().maxCoeff();
  if (!(scale > 0.0)) return std::nullopt;
  const Vec3 scaled = v / scale;
  if (std::abs(scale * scaled.norm() - 1.0) <= 1e-12) return v;
  return scaled.normalized();
}

void read_surface(const json& j, const std::string& ptr, const MechanismSpec& spec,
                  ContactSpec& c) {
  expect_object(j, ptr);
  c.surface_type = string_value(required(j, ptr, "type"), at(ptr, "type"));
  if (c.surface_type != "plane" && c.surface_type != "cam" && c.surface_type != "slot")
    fail(at(ptr, "type"),
         "unknown surface type '" + c.surface_type + "'; expected \"plane\", \"cam\" or \"slot\"");
  if (find(j, "body")) c.surface_body = body_name(j, ptr, "body", spec);
  if (const json* v = find(j, "point")) c.surface_point = vec3(*v, at(ptr, "point"));
  if (c.surface_type == "slot") {  // from the mouth at `point`, in along `direction`
    const auto d = direction_of(vec3(required(j, ptr, "direction"), at(ptr, "direction")));
    if (!d || std::abs(d->z()) > 1e-12)
      fail(at(ptr, "direction"),
           "the slot's direction must be a nonzero vector in the body's x-y plane");
    c.slot_direction = *d;
    c.slot_length = number(required(j, ptr, "length"), at(ptr, "length"));
    if (!(c.slot_length > 0)) fail(at(ptr, "length"), "the slot's length must be > 0");
    c.surface_extra = extra_fields(j, {"type", "body", "point", "direction", "length"});
    return;
  }
  if (c.surface_type == "cam") {  // a profile in the body's x-y plane about `point`
    c.profile = required(j, ptr, "profile");
    try {
      CamProfile::from_json(c.profile, at(ptr, "profile"));
    } catch (const CamProfileError& e) {
      fail(e.where, e.problem);
    }
    c.surface_extra = extra_fields(j, {"type", "body", "point", "profile"});
    return;
  }
  const auto n = direction_of(vec3(required(j, ptr, "normal"), at(ptr, "normal")));
  if (!n) fail(at(ptr, "normal"), "the plane's normal is zero");
  c.surface_normal = *n;
  c.surface_extra = extra_fields(j, {"type", "body", "point", "normal"});
}
}  // namespace

LimitSpec read_limits(const json& j, const std::string& ptr, const Joint& joint) {
  expect_object(j, ptr);
  if (joint.nv() != 1)
    fail(ptr, "limits need a 1-DOF joint; this one has " + std::to_string(joint.nv()) +
                  " degrees of freedom");
  LimitSpec l;
  if (const json* v = find(j, "lower")) l.lower = number(*v, at(ptr, "lower"));
  if (const json* v = find(j, "upper")) l.upper = number(*v, at(ptr, "upper"));
  if (!l.lower && !l.upper) fail(ptr, "give \"lower\", \"upper\" or both");
  if (l.lower && l.upper && !(*l.lower < *l.upper))
    fail(at(ptr, "upper"), "upper " + show(*l.upper) + " is not above lower " + show(*l.lower) +
                               " (a locked joint is a fixed joint)");
  if (const json* v = find(j, "restitution"))
    l.restitution = restitution(*v, at(ptr, "restitution"));
  l.extra = extra_fields(j, {"lower", "upper", "restitution"});
  return l;
}

JointFrictionSpec read_joint_friction(const json& j, const std::string& ptr, const Joint& joint) {
  expect_object(j, ptr);
  if (joint.nv() != 1)
    fail(ptr, "friction needs a 1-DOF joint; this one has " + std::to_string(joint.nv()) +
                  " degrees of freedom");
  JointFrictionSpec f;
  if (const json* v = find(j, "coulomb")) f.coulomb = nonnegative(*v, at(ptr, "coulomb"));
  if (const json* v = find(j, "viscous")) f.viscous = nonnegative(*v, at(ptr, "viscous"));
  f.extra = extra_fields(j, {"coulomb", "viscous"});
  return f;
}

ContactSpec read_contact(const json& j, const std::string& ptr, const MechanismSpec& spec) {
  expect_object(j, ptr);
  ContactSpec c;
  c.name = name_value(required(j, ptr, "name"), at(ptr, "name"));
  c.body = body_name(j, ptr, "body", spec);
  if (const json* v = find(j, "point")) c.point = vec3(*v, at(ptr, "point"));
  if (const json* v = find(j, "radius")) c.radius = nonnegative(*v, at(ptr, "radius"));
  read_surface(required(j, ptr, "surface"), at(ptr, "surface"), spec, c);
  if (c.surface_body == c.body)
    fail(at(at(ptr, "surface"), "body"),
         "the sphere and the plane are on the same body '" + c.body + "': they cannot meet");
  if (const json* v = find(j, "restitution"))
    c.restitution = restitution(*v, at(ptr, "restitution"));
  if (const json* v = find(j, "friction")) c.friction = nonnegative(*v, at(ptr, "friction"));
  c.extra =
      extra_fields(j, {"name", "body", "point", "radius", "surface", "restitution", "friction"});
  return c;
}

namespace {
void append(ojson& out, const json& extra) {
  for (auto it = extra.begin(); it != extra.end(); ++it) out[it.key()] = ojson::parse(it->dump());
}
ojson vec(const Vec3& v) {
  return ojson::array({v.x(), v.y(), v.z()});
}
}  // namespace

ojson limits_json(const LimitSpec& l) {
  ojson out = ojson::object();
  if (l.lower) out["lower"] = *l.lower;
  if (l.upper) out["upper"] = *l.upper;
  out["restitution"] = l.restitution;
  append(out, l.extra);
  return out;
}

ojson joint_friction_json(const JointFrictionSpec& f) {
  ojson out;
  out["coulomb"] = f.coulomb;
  out["viscous"] = f.viscous;
  append(out, f.extra);
  return out;
}

ojson contact_json(const ContactSpec& c) {
  ojson out;
  out["name"] = c.name;
  out["body"] = c.body;
  out["point"] = vec(c.point);
  out["radius"] = c.radius;
  ojson s;
  s["type"] = c.surface_type;
  s["body"] = c.surface_body;
  s["point"] = vec(c.surface_point);
  if (c.surface_type == "cam") {
    s["profile"] = ojson::parse(c.profile.dump());
  } else if (c.surface_type == "slot") {
    s["direction"] = vec(c.slot_direction);
    s["length"] = c.slot_length;
  } else {
    s["normal"] = vec(c.surface_normal);
  }
  append(s, c.surface_extra);
  out["surface"] = s;
  out["restitution"] = c.restitution;
  out["friction"] = c.friction;
  append(out, c.extra);
  return out;
}

}  // namespace articula
