#include "ui/sketch_contacts.hpp"

#include <QPainter>
#include <QPainterPath>
#include <cmath>
#include <optional>

#include "core/sim/contact/cam_profile.hpp"

namespace articula {

namespace {

const QColor kSurfaceGround(90, 90, 90), kSurfaceBody(60, 90, 140), kSphere(40, 120, 70),
    kStop(190, 60, 40);

struct Frame {
  const BodyToWorld& to_world;
  int body;
  Vec3 point(const Vec3& local) const { return to_world(body, local); }
  Vec3 direction(const Vec3& local) const {
    return to_world(body, local) - to_world(body, Vec3::Zero());
  }
};

// The plane as a line through the foot of the sphere's centre, hatched on its solid side.
void drawPlane(QPainter& p, const ContactSpec& c, const Frame& surface, const Vec3& centre,
               const std::function<QPointF(const Vec3&)>& to_screen, double scale, double reach) {
  Vec3 n = surface.direction(c.surface_normal);
  n.z() = 0;
  if (n.norm() < 1e-12) return;  // a plane facing the viewer: nothing to draw in the sketch
  n.normalize();
  const Vec3 at = surface.point(c.surface_point);
  const Vec3 foot = centre - n * n.dot(centre - at), t(-n.y(), n.x(), 0);
  const QPointF a = to_screen(foot - reach * t), b = to_screen(foot + reach * t);
  p.drawLine(a, b);
  const double spacing = 12.0 / scale, hatch = 8.0 / scale;  // metres: 12 px apart, 8 px long
  const int count = static_cast<int>(2 * reach / spacing);
  for (int i = 0; i <= std::min(count, 4000); ++i) {
    const Vec3 q = foot + (-reach + i * spacing) * t;
    p.drawLine(to_screen(q), to_screen(q - hatch * (n + t) / std::sqrt(2.0)));
  }
}

// A cam's profile as local points of its surface body (empty when the profile does not parse:
// the file's check names it).
std::vector<Vec3> camPoints(const ContactSpec& c, int samples) {
  std::vector<Vec3> out;
  try {
    const CamProfile cam = CamProfile::from_json(c.profile, "profile");
    for (int i = 0; i < samples; ++i) {
      const Eigen::Vector2d q = cam.at(2 * M_PI * i / samples).p;
      out.push_back(c.surface_point + Vec3(q.x(), q.y(), 0));
    }
  } catch (const std::exception&) {
  }
  return out;
}

void drawCam(QPainter& p, const ContactSpec& c, const Frame& surface,
             const std::function<QPointF(const Vec3&)>& to_screen) {
  const std::vector<Vec3> profile = camPoints(c, 180);
  if (profile.empty()) return;
  QPainterPath path(to_screen(surface.point(profile.front())));
  for (const Vec3& v : profile) path.lineTo(to_screen(surface.point(v)));
  path.closeSubpath();
  p.drawPath(path);
}

void drawSlot(QPainter& p, const ContactSpec& c, const Frame& surface,
              const std::function<QPointF(const Vec3&)>& to_screen) {
  const Vec3 in = c.slot_direction.normalized(), side = Vec3::UnitZ().cross(in);
  for (double s : {-1.0, 1.0}) {
    const Vec3 mouth = c.surface_point + s * c.radius * side;
    p.drawLine(to_screen(surface.point(mouth)),
               to_screen(surface.point(mouth + c.slot_length * in)));
  }
}

int bodyOf(const MechanismSpec& spec, const std::string& name) {
  return name == "ground" ? -1 : spec.body_index(name);
}

// A revolute joint's range as the sweep of its child link: an arc over the directions the link
// (joint to its centre of mass) takes from q = lower to q = upper, radial bars at the bounds (an
// open side has none).
void drawRevoluteStops(QPainter& p, const MechanismSpec& spec, const JointSpec& j,
                       const Frame& parent, const Frame& child, const QPointF& at) {
  const Vec3 axis = parent.direction(j.parent_frame.orientation * Vec3::UnitZ());
  if (std::abs(axis.z()) < 0.99 * axis.norm()) return;  // turning out of the sketch's plane
  const auto angle = [](const Vec3& v) { return std::atan2(v.y(), v.x()); };
  const Vec3 origin = parent.point(j.parent_frame.position);
  const double xp = angle(parent.direction(j.parent_frame.orientation * Vec3::UnitX()));
  const double xc = angle(child.direction(j.child_frame.orientation * Vec3::UnitX()));
  const double q = std::remainder(xc - xp, 2 * M_PI) * (axis.z() > 0 ? 1 : -1);
  const Vec3 link = child.point(spec.bodies[child.body].com) - origin;
  const double now = link.head<2>().norm() > 1e-9 ? angle(link) : xc;
  const double sign = axis.z() > 0 ? 1 : -1;  // q turns the link about +z or -z
  const double lo = j.limits->lower.value_or(q - M_PI), hi = j.limits->upper.value_or(q + M_PI);
  const double a0 = now + sign * (lo - q), a1 = now + sign * (hi - q);
  constexpr double r = 30, r0 = 18, r1 = 42;  // pixels
  const auto deg = [](double a) { return a * 180.0 / M_PI; };
  p.drawArc(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r), static_cast<int>(deg(a0) * 16),
            static_cast<int>(deg(a1 - a0) * 16));
  for (const auto& [b, a] : {std::pair{j.limits->lower, a0}, std::pair{j.limits->upper, a1}}) {
    if (!b) continue;
    const QPointF d(std::cos(a), -std::sin(a));  // screen y runs down
    p.drawLine(at + r0 * d, at + r1 * d);
  }
}

void drawPrismaticStops(QPainter& p, const JointSpec& j, const Frame& parent, const Vec3& at,
                        const std::function<QPointF(const Vec3&)>& to_screen) {
  Vec3 axis = parent.direction(j.parent_frame.orientation * Vec3::UnitZ());
  if (std::abs(axis.z()) > 0.01 * axis.norm()) return;  // sliding out of the sketch's plane
  axis.z() = 0;
  axis.normalize();
  for (const auto& b : {j.limits->lower, j.limits->upper}) {
    if (!b) continue;
    const QPointF c = to_screen(at + *b * axis), d(-axis.y(), -axis.x());  // across, in pixels
    p.drawLine(c - 9 * d, c + 9 * d);
  }
}

}  // namespace

void drawJointLimits(QPainter& p, const MechanismSpec& spec, const BodyToWorld& to_world,
                     const std::function<QPointF(const Vec3&)>& to_screen) {
  p.save();
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(kStop, 2.5, Qt::SolidLine, Qt::FlatCap));
  for (const JointSpec& j : spec.joints) {
    if (!j.limits || (!j.limits->lower && !j.limits->upper)) continue;
    const Frame parent{to_world, bodyOf(spec, j.parent)};
    const Vec3 at = parent.point(j.parent_frame.position);
    const Frame child{to_world, bodyOf(spec, j.child)};
    if (j.joint.type == JointType::Revolute && child.body >= 0)
      drawRevoluteStops(p, spec, j, parent, child, to_screen(at));
    else if (j.joint.type == JointType::Prismatic)
      drawPrismaticStops(p, j, parent, at, to_screen);
  }
  p.restore();
}

std::vector<ContactPoint> contactExtent(const MechanismSpec& spec, const BodyToWorld& to_world) {
  std::vector<ContactPoint> out;
  for (const ContactSpec& c : spec.contacts) {
    const int body = bodyOf(spec, c.body), surface = bodyOf(spec, c.surface_body);
    if ((body < 0 && c.body != "ground") || (surface < 0 && c.surface_body != "ground")) continue;
    const Vec3 centre = to_world(body, c.point);
    for (double s : {-1.0, 1.0}) out.push_back({body, centre + s * Vec3(c.radius, c.radius, 0)});
    if (c.surface_type == "slot") {
      const Vec3 in = c.slot_direction.normalized(), side = Vec3::UnitZ().cross(in);
      for (double s : {-1.0, 1.0})
        for (double along : {0.0, c.slot_length})
          out.push_back(
              {surface, to_world(surface, c.surface_point + s * c.radius * side + along * in)});
    } else if (c.surface_type == "cam") {
      for (const Vec3& v : camPoints(c, 72)) out.push_back({surface, to_world(surface, v)});
    }
  }
  return out;
}

void drawContacts(QPainter& p, const MechanismSpec& spec, const BodyToWorld& to_world,
                  const std::function<QPointF(const Vec3&)>& to_screen, double scale,
                  double reach) {
  p.save();
  for (const ContactSpec& c : spec.contacts) {
    const Frame body{to_world, spec.body_index(c.body)};
    const Frame surface{to_world,
                        c.surface_body == "ground" ? -1 : spec.body_index(c.surface_body)};
    if (body.body < 0 && c.body != "ground") continue;  // a dangling name: the file's check says so
    const Vec3 centre = body.point(c.point);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(surface.body < 0 ? kSurfaceGround : kSurfaceBody, 2));
    if (c.surface_type == "cam")
      drawCam(p, c, surface, to_screen);
    else if (c.surface_type == "slot")
      drawSlot(p, c, surface, to_screen);
    else
      drawPlane(p, c, surface, centre, to_screen, scale, reach);
    p.setPen(QPen(kSphere, 2));
    const double r = std::max(c.radius * scale, 3.0);  // a point contact: a dot
    if (c.radius <= 0) p.setBrush(kSphere);
    p.drawEllipse(to_screen(centre), r, r);
  }
  p.restore();
}

}  // namespace articula
