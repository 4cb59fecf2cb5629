#include "ui/sketch_contacts.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/sim/contact/cam_profile.hpp"
#include "ui/sketch_colors.hpp"

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

// The plane as a line through the foot of the sphere's centre (false: a plane facing the viewer,
// nothing to draw in the sketch).
bool planeLine(const ContactSpec& c, const Frame& surface, double reach, ContactShape& shape) {
  Vec3 n = surface.direction(c.surface_normal);
  n.z() = 0;
  if (n.norm() < 1e-12) return false;
  n.normalize();
  const Vec3 at = surface.point(c.surface_point), centre = shape.centre;
  const Vec3 foot = centre - n * n.dot(centre - at), t(-n.y(), n.x(), 0);
  shape.lines.push_back({foot - reach * t, foot + reach * t});
  shape.normal = n;
  return true;
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

void camLine(const ContactSpec& c, const Frame& surface, ContactShape& shape) {
  std::vector<Vec3> profile = camPoints(c, 180);
  if (profile.empty()) return;
  for (Vec3& v : profile) v = surface.point(v);
  profile.push_back(profile.front());
  shape.lines.push_back(std::move(profile));
}

void slotLines(const ContactSpec& c, const Frame& surface, ContactShape& shape) {
  const Vec3 in = c.slot_direction.normalized(), side = Vec3::UnitZ().cross(in);
  for (double s : {-1.0, 1.0}) {
    const Vec3 mouth = c.surface_point + s * c.radius * side;
    shape.lines.push_back({surface.point(mouth), surface.point(mouth + c.slot_length * in)});
  }
}

// The hatches on a plane's solid side: 12 px apart, 8 px long.
void drawHatches(QPainter& p, const ContactShape& shape,
                 const std::function<QPointF(const Vec3&)>& to_screen, double scale) {
  const Vec3 a = shape.lines[0][0], b = shape.lines[0][1], n = shape.normal;
  const double length = (b - a).norm(), spacing = 12.0 / scale, hatch = 8.0 / scale;
  const Vec3 t = (b - a) / length;
  const int count = static_cast<int>(length / spacing);
  for (int i = 0; i <= std::min(count, 4000); ++i) {
    const Vec3 q = a + i * spacing * t;
    p.drawLine(to_screen(q), to_screen(q - hatch * (n + t) / std::sqrt(2.0)));
  }
}

double segmentDistance(const QPointF& s, const QPointF& a, const QPointF& b) {
  const QPointF d = b - a;
  const double len2 = QPointF::dotProduct(d, d);
  const double u = len2 > 0 ? std::clamp(QPointF::dotProduct(s - a, d) / len2, 0.0, 1.0) : 0.0;
  return QLineF(s, a + u * d).length();
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

std::vector<ContactShape> contactShapes(const MechanismSpec& spec, const BodyToWorld& to_world,
                                        double reach) {
  std::vector<ContactShape> out;
  for (int k = 0; k < static_cast<int>(spec.contacts.size()); ++k) {
    const ContactSpec& c = spec.contacts[k];
    const Frame body{to_world, bodyOf(spec, c.body)};
    const Frame surface{to_world, bodyOf(spec, c.surface_body)};
    if ((body.body < 0 && c.body != "ground") || (surface.body < 0 && c.surface_body != "ground"))
      continue;  // a dangling name: the file's check says so
    ContactShape shape;
    shape.contact = k;
    shape.centre = body.point(c.point);
    shape.radius = c.radius;
    shape.ground = surface.body < 0;
    if (c.surface_type == "cam")
      camLine(c, surface, shape);
    else if (c.surface_type == "slot")
      slotLines(c, surface, shape);
    else if (!planeLine(c, surface, reach, shape))
      continue;
    out.push_back(std::move(shape));
  }
  return out;
}

void drawContacts(QPainter& p, const MechanismSpec& spec, const BodyToWorld& to_world,
                  const std::function<QPointF(const Vec3&)>& to_screen, double scale, double reach,
                  int selected) {
  p.save();
  std::vector<ContactShape> shapes = contactShapes(spec, to_world, reach);
  std::stable_partition(shapes.begin(), shapes.end(),  // the selected one last: over the others
                        [&](const ContactShape& c) { return c.contact != selected; });
  for (const ContactShape& shape : shapes) {
    const bool picked = shape.contact == selected;
    const double width = picked ? 3 : 2;  // as a selected joint's outline
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(picked ? kSketchSelected : shape.ground ? kSurfaceGround : kSurfaceBody, width));
    for (const std::vector<Vec3>& line : shape.lines) {
      QPolygonF poly;
      for (const Vec3& v : line) poly << to_screen(v);
      p.drawPolyline(poly);
    }
    if (shape.normal != Vec3::Zero()) drawHatches(p, shape, to_screen, scale);
    p.setPen(QPen(picked ? kSketchSelected : kSphere, width));
    const double r = std::max(shape.radius * scale, 3.0);  // a point contact: a dot
    if (shape.radius <= 0) p.setBrush(picked ? kSketchSelected : kSphere);
    p.drawEllipse(to_screen(shape.centre), r, r);
  }
  p.restore();
}

int contactAt(const std::vector<ContactShape>& shapes,
              const std::function<QPointF(const Vec3&)>& to_screen, double scale,
              const QPointF& screen, double tolerance, bool surfaces) {
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  for (const ContactShape& shape : shapes) {
    const double to_centre = QLineF(screen, to_screen(shape.centre)).length();
    double off = std::abs(to_centre - std::max(shape.radius * scale, 3.0));  // the rim
    if (surfaces) {
      off = std::numeric_limits<double>::infinity();
      for (const std::vector<Vec3>& line : shape.lines)
        for (std::size_t i = 0; i + 1 < line.size(); ++i)
          off = std::min(off, segmentDistance(screen, to_screen(line[i]), to_screen(line[i + 1])));
    } else if (shape.radius * scale < tolerance) {
      off = std::max(0.0, to_centre - tolerance);  // a small circle: anywhere on it
    }
    const double d = surfaces ? to_centre : off;  // several lines under the pointer: nearest foot
    if (off <= tolerance && d < best_d) best = shape.contact, best_d = d;
  }
  return best;
}

}  // namespace articula
