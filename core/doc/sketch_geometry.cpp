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

// Box inertia about its own centre, axes along the box.
Mat3 box_inertia(double m, double a, double b, double c) {
  return Vec3(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12).asDiagonal();
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

void bar_mass_properties(const std::vector<Vec3>& points, BarSection s, BodySpec& body) {
  Mat3 I = Mat3::Zero();
  double m = 0.0;
  Vec3 mc = Vec3::Zero();
  struct Bar { double m; Vec3 c; Mat3 I; };
  std::vector<Bar> bars;
  if (points.size() <= 1) {  // a slider block
    const double mb = s.density * 0.05 * 0.02 * 0.02;
    bars.push_back({mb, points.empty() ? Vec3::Zero() : points[0], box_inertia(mb, 0.05, 0.02, 0.02)});
  }
  const std::size_t n = points.size();
  const std::size_t edges = n == 2 ? 1 : (n >= 3 ? n : 0);
  for (std::size_t e = 0; e < edges; ++e) {
    const Vec3 a = points[e], b = points[(e + 1) % n];
    const double L = (b - a).norm();
    const double mb = s.mass_per_length() * L;
    // Bar along its own x; rotate its principal inertia into the body frame (planar bars: about z).
    const double angle = std::atan2(b.y() - a.y(), b.x() - a.x());
    const Mat3 R = Eigen::AngleAxisd(angle, Vec3::UnitZ()).toRotationMatrix();
    bars.push_back({mb, 0.5 * (a + b), R * box_inertia(mb, L, s.width, s.thickness) * R.transpose()});
  }
  for (const Bar& b : bars) {
    m += b.m;
    mc += b.m * b.c;
  }
  const Vec3 com = m > 0 ? Vec3(mc / m) : Vec3::Zero();
  for (const Bar& b : bars) {  // parallel axis theorem to the common centre of mass
    const Vec3 d = b.c - com;
    I += b.I + b.m * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  body.mass = m;
  body.com = com;
  body.inertia = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
}

bool mass_from_sketch(const BodySpec& body) {
  return body.extra.contains("sketch") && body.extra["sketch"].value("mass", "") == "bars";
}

}  // namespace articula
