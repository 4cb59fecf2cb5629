#include "core/io/visual_json.hpp"

#include <cmath>

#include "core/io/json_read.hpp"

namespace articula {

using namespace json_read;

namespace {
using Shape = VisualSpec::Shape;

// {position, quaternion [w, x, y, z]}, both optional.
PoseSpec read_frame(const json& j, const std::string& ptr, std::vector<std::string>& warnings) {
  expect_object(j, ptr);
  PoseSpec pose;
  if (const json* v = find(j, "position")) pose.position = vec3(*v, at(ptr, "position"));
  if (const json* v = find(j, "quaternion")) {
    const auto q = numbers(*v, at(ptr, "quaternion"), 4, " [w, x, y, z]");
    const Eigen::Vector4d c(q[0], q[1], q[2], q[3]);
    const double norm = c.stableNorm();
    if (norm == 0.0)
      fail(at(ptr, "quaternion"),
           "zero-length quaternion; expected a unit quaternion [w, x, y, z]");
    pose.orientation = Quat(q[0], q[1], q[2], q[3]);
    if (std::abs(norm - 1.0) > 1e-12) {  // exact values kept otherwise: a reload changes nothing
      pose.orientation.coeffs() /= norm;
      warnings.push_back(at(ptr, "quaternion") + ": quaternion not unit length (norm " +
                         show(norm) + "); normalised");
    }
  }
  pose.extra = extra_fields(j, {"position", "quaternion"});
  return pose;
}

json frame_json(const PoseSpec& p) {
  json out = p.extra.is_object() ? p.extra : json::object();
  out["position"] = {p.position.x(), p.position.y(), p.position.z()};
  const Quat& q = p.orientation;
  out["quaternion"] = {q.w(), q.x(), q.y(), q.z()};
  return out;
}

void read_sizes(const json& j, const std::string& ptr, VisualSpec& v) {
  switch (v.shape) {
    case Shape::Box: {
      const auto s =
          numbers(required(j, ptr, "size"), at(ptr, "size"), 3, " (full edge lengths x, y, z)");
      for (std::size_t k = 0; k < 3; ++k)
        if (!(s[k] > 0)) fail(at(at(ptr, "size"), k), "must be > 0 (m)");
      v.size = Vec3(s[0], s[1], s[2]);
      v.extra = extra_fields(j, {"shape", "size", "frame"});
      return;
    }
    case Shape::Cylinder:
      v.radius = positive(required(j, ptr, "radius"), at(ptr, "radius"));
      v.length = positive(required(j, ptr, "length"), at(ptr, "length"));
      v.extra = extra_fields(j, {"shape", "radius", "length", "frame"});
      return;
    case Shape::Sphere:
      v.radius = positive(required(j, ptr, "radius"), at(ptr, "radius"));
      v.extra = extra_fields(j, {"shape", "radius", "frame"});  // a stray "size" is kept as unknown
  }
}

VisualSpec read_visual(const json& j, const std::string& ptr, std::vector<std::string>& warnings) {
  expect_object(j, ptr);
  VisualSpec v;
  const std::string name = string_value(required(j, ptr, "shape"), at(ptr, "shape"));
  const auto shape = visual_shape_from_name(name);
  if (!shape)
    fail(at(ptr, "shape"), "unknown shape '" + name + "'; expected box, cylinder or sphere");
  v.shape = *shape;
  read_sizes(j, ptr, v);
  if (const json* f = find(j, "frame")) v.frame = read_frame(*f, at(ptr, "frame"), warnings);
  return v;
}
}  // namespace

std::vector<VisualSpec> read_visuals(const json& j, const std::string& ptr,
                                     std::vector<std::string>& warnings) {
  if (!j.is_array()) fail(ptr, "expected an array of visuals, got " + kind(j));
  std::vector<VisualSpec> out;
  for (std::size_t i = 0; i < j.size(); ++i) out.push_back(read_visual(j[i], at(ptr, i), warnings));
  return out;
}

json visuals_json(const std::vector<VisualSpec>& visuals) {
  json out = json::array();
  for (const VisualSpec& v : visuals) {
    json o = v.extra.is_object() ? v.extra : json::object();
    o["shape"] = visual_shape_name(v.shape);
    if (v.shape == Shape::Box) o["size"] = {v.size.x(), v.size.y(), v.size.z()};
    if (v.shape != Shape::Box) o["radius"] = v.radius;
    if (v.shape == Shape::Cylinder) o["length"] = v.length;
    if (!(v.frame == PoseSpec{})) o["frame"] = frame_json(v.frame);
    out.push_back(o);
  }
  return out;
}

std::vector<VisualSpec> body_visuals(const BodySpec& body) {
  const json* v = body.extra.is_object() ? find(body.extra, "visuals") : nullptr;
  if (!v) return {};
  std::vector<std::string> warnings;  // none: the stored form is the checked one
  return read_visuals(*v, "/visuals", warnings);
}

void set_body_visuals(BodySpec& body, const std::vector<VisualSpec>& visuals) {
  if (!body.extra.is_object()) body.extra = json::object();
  if (visuals.empty())
    body.extra.erase("visuals");
  else
    body.extra["visuals"] = visuals_json(visuals);
}

}  // namespace articula
