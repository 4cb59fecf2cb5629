#include "core/doc/sketch_geometry.hpp"

#include <cmath>

namespace articula {

namespace {
constexpr double kSame = 1e-9;  // points closer than this (m) are the same point

Vec3 json_vec3(const nlohmann::json& j) {
  if (!j.is_array() || j.size() < 2) return Vec3::Zero();
  return {j[0].get<double>(), j[1].get<double>(), j.size() > 2 ? j[2].get<double>() : 0.0};
}

void add_unique(std::vector<Vec3>& pts, const Vec3& p) {
  for (const Vec3& q : pts)
    if ((q - p).norm() < kSame) return;
  pts.push_back(p);
}

}  // namespace

Vec3 to_world(const MechanismSpec& spec, int body, const Vec3& local) {
  if (body < 0 || !spec.bodies[body].pose) return local;
  const PoseSpec& p = *spec.bodies[body].pose;
  return p.orientation.toRotationMatrix() * local + p.position;
}

Vec3 to_local(const MechanismSpec& spec, int body, const Vec3& world) {
  if (body < 0 || !spec.bodies[body].pose) return world;
  const PoseSpec& p = *spec.bodies[body].pose;
  return p.orientation.toRotationMatrix().transpose() * (world - p.position);
}

Vec3 joint_world_point(const MechanismSpec& spec, int joint) {
  const JointSpec& j = spec.joints[joint];
  return to_world(spec, spec.body_index(j.parent), j.parent_frame.position);
}

std::vector<Vec3> ground_points(const MechanismSpec& spec) {
  std::vector<Vec3> pts;
  if (spec.extra.contains("sketch") && spec.extra["sketch"].contains("ground_points"))
    for (const auto& p : spec.extra["sketch"]["ground_points"]) add_unique(pts, json_vec3(p));
  return pts;
}

std::vector<Vec3> body_points(const MechanismSpec& spec, int body) {
  std::vector<Vec3> pts;
  const BodySpec& b = spec.bodies[body];
  if (b.extra.contains("sketch") && b.extra["sketch"].contains("points"))
    for (const auto& p : b.extra["sketch"]["points"]) add_unique(pts, json_vec3(p));
  for (const JointSpec& j : spec.joints) {
    if (j.parent == b.name) add_unique(pts, j.parent_frame.position);
    if (j.child == b.name) add_unique(pts, j.child_frame.position);
  }
  return pts;
}

std::vector<SketchPoint> sketch_points(const MechanismSpec& spec) {
  std::vector<Vec3> ground = ground_points(spec);
  for (const JointSpec& j : spec.joints) {
    if (j.parent == "ground") add_unique(ground, j.parent_frame.position);
    if (j.child == "ground") add_unique(ground, j.child_frame.position);
  }
  std::vector<SketchPoint> out;
  for (const Vec3& p : ground) out.push_back({-1, p, p});
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b)
    for (const Vec3& p : body_points(spec, b)) out.push_back({b, p, to_world(spec, b, p)});
  return out;
}

LinkStock LinkStock::of(const BodySpec& body) {
  LinkStock stock;
  if (body.extra.contains("sketch") && body.extra["sketch"].value("material", "") == "steel")
    stock.material = Material::steel();
  // A round bar of this diameter (m), as the 3D view's Link tool draws: sketch.diameter.
  if (body.extra.contains("sketch") && body.extra["sketch"].contains("diameter") &&
      body.extra["sketch"]["diameter"].is_number())
    stock.section = BarSection::round(body.extra["sketch"]["diameter"].get<double>());
  return stock;
}

void bar_mass_properties(const std::vector<Vec3>& points, const LinkStock& stock, BodySpec& body) {
  std::vector<MassProperties> parts;
  const std::size_t n = points.size();
  if (n <= 1)
    parts.push_back(block(Vec3(0.05, 0.02, 0.02), stock.material, n ? points[0] : Vec3::Zero()));
  const std::size_t edges = n == 2 ? 1 : (n >= 3 ? n : 0);
  for (std::size_t e = 0; e < edges; ++e)
    parts.push_back(bar(points[e], points[(e + 1) % n], stock.section, stock.material));
  combine(parts).apply_to(body);
}

bool mass_from_sketch(const BodySpec& body) {
  return body.extra.contains("sketch") && body.extra["sketch"].value("mass", "") == "bars";
}

}  // namespace articula
