#include "ui/sketch_outlines.hpp"

#include <cmath>
#include <limits>

namespace articula {

namespace {

constexpr double kOutlineSame = 1e-9;  // as core/doc/sketch_geometry's add_unique

void outline_add_unique(std::vector<Vec3>& pts, const Vec3& p) {
  for (const Vec3& q : pts)
    if ((q - p).norm() < kOutlineSame) return;
  pts.push_back(p);
}

Vec3 outline_json_vec3(const nlohmann::json& j) {
  if (!j.is_array() || j.size() < 2) return Vec3::Zero();
  return {j[0].get<double>(), j[1].get<double>(), j.size() > 2 ? j[2].get<double>() : 0.0};
}

// Puts p into a closed outline between the two neighbours where it adds the least length (a bar
// and a foot: a triangle); a point already there is not added again.
void outline_insert_point(std::vector<Vec3>& pts, const Vec3& p) {
  for (const Vec3& q : pts)
    if ((q - p).norm() < 1e-9) return;
  std::size_t at = pts.size();
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; pts.size() >= 3 && i < pts.size(); ++i) {
    const Vec3 &a = pts[i], &c = pts[(i + 1) % pts.size()];
    const double added = (p - a).norm() + (c - p).norm() - (c - a).norm();
    if (added < least) least = added, at = i + 1;
  }
  pts.insert(pts.begin() + static_cast<std::ptrdiff_t>(at), p);
}

// A single point on no slider: a bar from it through the centre of mass to the end of the
// uniform rod of the same inertia (half length sqrt(3 Izz / m)).
void outline_pendulum_bar(const BodySpec& b, std::vector<Vec3>& pts) {
  Vec3 along = b.com - pts[0];
  along.z() = 0;
  if (b.mass <= 0 || !std::isfinite(b.mass) || along.norm() < 1e-9) return;
  const double half = std::sqrt(std::max(0.0, 3 * b.inertia[2] / b.mass));
  Vec3 end = b.com + half * along.normalized();
  end.z() = pts[0].z();
  if (end.allFinite()) pts.push_back(end);
}

}  // namespace

SketchOutlines sketch_outlines(const MechanismSpec& spec) {
  SketchOutlines o;
  const std::size_t n = spec.bodies.size();
  o.points.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    o.index.emplace(spec.bodies[b].name, static_cast<int>(b));
    const BodySpec& body = spec.bodies[b];
    if (body.extra.contains("sketch") && body.extra["sketch"].contains("points"))
      for (const auto& p : body.extra["sketch"]["points"])
        outline_add_unique(o.points[b], outline_json_vec3(p));
  }
  std::vector<char> slides(n, 0);  // on a prismatic joint's either side
  for (const JointSpec& j : spec.joints) {
    const int p = o.body(j.parent), c = o.body(j.child);
    if (p >= 0) outline_add_unique(o.points[p], j.parent_frame.position);
    if (c >= 0) outline_add_unique(o.points[c], j.child_frame.position);
    if (j.joint.type != JointType::Prismatic) continue;
    if (p >= 0) slides[p] = 1;
    if (c >= 0) slides[c] = 1;
  }
  o.outline = o.points;
  std::vector<std::vector<const ContactSpec*>> contacts(n);
  for (const ContactSpec& c : spec.contacts)
    if (const int b = o.body(c.body); b >= 0) contacts[b].push_back(&c);
  for (std::size_t b = 0; b < n; ++b) {
    std::vector<Vec3>& pts = o.outline[b];
    if (pts.size() == 1 && slides[b]) continue;  // a slider block
    for (const ContactSpec* c : contacts[b]) outline_insert_point(pts, c->point);
    if (pts.size() == 1) outline_pendulum_bar(spec.bodies[b], pts);
  }
  return o;
}

std::vector<SketchPoint> sketch_points_of(const MechanismSpec& spec, const SketchOutlines& o) {
  std::vector<Vec3> ground = ground_points(spec);
  for (const JointSpec& j : spec.joints) {
    if (j.parent == "ground") outline_add_unique(ground, j.parent_frame.position);
    if (j.child == "ground") outline_add_unique(ground, j.child_frame.position);
  }
  std::vector<SketchPoint> out;
  for (const Vec3& p : ground) out.push_back({-1, p, p});
  for (std::size_t b = 0; b < o.points.size(); ++b)
    for (const Vec3& p : o.points[b])
      out.push_back({static_cast<int>(b), p, to_world(spec, static_cast<int>(b), p)});
  return out;
}

}  // namespace articula
