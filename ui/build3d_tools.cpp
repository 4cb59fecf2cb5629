#include "ui/build3d_tools.hpp"

#include <QObject>
#include <cmath>
#include <stdexcept>

#include "ui/document.hpp"

namespace articula {

namespace {
QString jointName(JointType type) {
  return QString::fromUtf8(std::string(joint_type_name(type)).c_str());
}
QString bodyName(const Document& d, int body) {
  return body < 0 ? QObject::tr("ground") : QString::fromStdString(d.spec().bodies.at(body).name);
}
}  // namespace

Vec3 candidate_axis(const BuildSettings& settings, const BuildPick& pick, const Vec3& along) {
  switch (settings.axis) {
    case BuildSettings::Axis::X:
      return Vec3::UnitX();
    case BuildSettings::Axis::Y:
      return Vec3::UnitY();
    case BuildSettings::Axis::Z:
      return Vec3::UnitZ();
    case BuildSettings::Axis::Link:
      if (along.norm() > 1e-12) return along.normalized();
      break;
    case BuildSettings::Axis::Normal:
      break;
  }
  return pick.normal.norm() > 0.5 ? pick.normal.normalized() : Vec3::UnitZ();
}

BuildPlane build_plane(const BuildSettings& settings, const Vec3& gravity) {
  BuildPlane p;
  p.offset = settings.plane_offset;
  using Plane = BuildSettings::Plane;
  const bool floor = settings.plane == Plane::Floor && gravity.norm() > 1e-12;
  const char* coord = "z";
  if (floor) p.normal = -gravity.normalized();
  if (settings.plane == Plane::YZ) p.normal = Vec3::UnitX(), coord = "x";
  if (settings.plane == Plane::ZX) p.normal = Vec3::UnitY(), coord = "y";
  // u along the world axis most across the normal (a world axis when the plane is one).
  Vec3 e = Vec3::UnitX();
  for (int k : {1, 2})
    if (std::abs(p.normal[k]) < std::abs(e.dot(p.normal))) e = Vec3::Unit(k);
  p.u = (e - p.normal * e.dot(p.normal)).normalized();
  p.v = p.normal.cross(p.u);
  const char* names[] = {"x", "y", "z"};
  if (floor) {
    coord = "h";  // along an oblique up; a world axis names itself
    for (int k = 0; k < 3; ++k)
      if ((p.normal - Vec3::Unit(k)).norm() < 1e-12) coord = names[k];
  }
  const QString c = QString::fromLatin1(coord);
  switch (settings.plane) {
    case Plane::Floor:
      p.label = floor ? QObject::tr("floor, %1 =").arg(c) : QObject::tr("floor (no gravity), z =");
      break;
    case Plane::XY:
      p.label = QObject::tr("plane xy, z =");
      break;
    case Plane::YZ:
      p.label = QObject::tr("plane yz, x =");
      break;
    case Plane::ZX:
      p.label = QObject::tr("plane zx, y =");
      break;
  }
  return p;
}

Vec3 snap_to_grid(const BuildPlane& plane, double step, const Vec3& point) {
  if (!(step > 0)) return point;
  const Vec3 d = point - plane.origin();
  const double a = std::round(d.dot(plane.u) / step) * step;
  const double b = std::round(d.dot(plane.v) / step) * step;
  return plane.origin() + a * plane.u + b * plane.v;
}

bool joint_has_axis(JointType type) {
  return type != JointType::Spherical;
}

BuildTool::BuildTool(Document* document, const BuildSettings* settings)
    : document_(document), settings_(settings) {}

SpatialJoint BuildTool::jointAt(const BuildSettings& settings, const BuildPick& pick,
                                const Vec3& along) {
  Joint joint;
  joint.type = settings.joint;
  const Vec3 across = along.norm() > 1e-12 ? along : Vec3::UnitX();
  return SpatialJoint{pick.body, joint, candidate_axis(settings, pick, along), across};
}

bool push_edit(Document* document, const std::function<Edit()>& build, EditKind kind,
               QString& message) {
  try {
    if (document->push(build(), kind)) {
      message.clear();
      return true;
    }
    message = document->error();
  } catch (const std::exception& e) {
    message = QString::fromStdString(e.what());
  }
  return false;
}

bool BuildTool::push(const std::function<Edit()>& build, EditKind kind) {
  return push_edit(document_, build, kind, message_);
}

QString LinkTool3D::prompt() const {
  if (picks_.empty())
    return QObject::tr("Link: click its first end, on a body or in space (joined to ground)");
  return QObject::tr("Link from %1: click its second end, on a body (joined) or in space (free)")
      .arg(bodyName(*document_, picks_[0].body));
}

Vec3 LinkTool3D::axisAt(const BuildPick& at) const {
  const Vec3 along = picks_.empty() ? Vec3(Vec3::Zero()) : Vec3(at.point - picks_[0].point);
  return candidate_axis(*settings_, at, along);
}

bool LinkTool3D::click(const BuildPick& pick) {
  if (!pick.valid) {
    message_ = QObject::tr("Nothing there: click a body, or the build plane");
    return false;
  }
  if (picks_.empty()) {  // its joint waits for the second end (its axis may run along the link)
    picks_ = {pick};
    settings_at_ = {*settings_};
    message_.clear();
    return true;
  }
  const Vec3 a = picks_[0].point, b = pick.point;
  const SpatialJoint start = jointAt(settings_at_[0], picks_[0], b - a);
  std::optional<SpatialJoint> end;
  if (!pick.in_space) end = jointAt(*settings_, pick, b - a);
  const double d = settings_->diameter;
  if (!push([&] { return add_spatial_link(document_->editable(), a, b, d, start, end); },
            EditKind::AddBody))
    return false;
  cancel();
  return true;
}

QString PlateTool3D::prompt() const {
  if (picks_.size() < 3)
    return QObject::tr("Plate: click corner %1, on a body (joined) or in space (free)")
        .arg(picks_.size() + 1);
  return QObject::tr("Plate: click another corner, or its first corner again to finish");
}

bool PlateTool3D::click(const BuildPick& pick) {
  if (!pick.valid) {
    message_ = QObject::tr("Nothing there: click a body, or the build plane");
    return false;
  }
  if (!pick.on_first || picks_.size() < 3) {
    picks_.push_back(pick);
    settings_at_.push_back(*settings_);
    message_.clear();
    return true;
  }
  std::vector<Vec3> points;
  std::vector<std::optional<SpatialJoint>> joints;
  for (std::size_t i = 0; i < picks_.size(); ++i) {
    points.push_back(picks_[i].point);
    if (picks_[i].in_space)
      joints.emplace_back();
    else
      joints.push_back(jointAt(settings_at_[i], picks_[i], Vec3::Zero()));
  }
  const double d = settings_->diameter;
  if (!push([&] { return add_spatial_plate(document_->editable(), points, d, joints); },
            EditKind::AddBody))
    return false;
  cancel();
  return true;
}

QString JointTool3D::prompt() const {
  if (picks_.empty())
    return QObject::tr("%1 joint: click its point on a body or on ground")
        .arg(jointName(settings_->joint));
  return QObject::tr("%1 joint on %2: click the body it joins")
      .arg(jointName(settings_at_[0].joint), bodyName(*document_, picks_[0].body));
}

Vec3 JointTool3D::axisAt(const BuildPick& at) const {
  return candidate_axis(*settings_, at, linkDirection(at.body));
}

Vec3 JointTool3D::linkDirection(int body) const {
  const MechanismSpec& spec = document_->spec();
  if (body < 0 || body >= static_cast<int>(spec.bodies.size()) || !spec.bodies[body].pose)
    return Vec3::Zero();
  return spec.bodies[body].pose->orientation * Vec3::UnitX();  // a link's frame: x along it
}

bool JointTool3D::click(const BuildPick& pick) {
  if (!pick.valid) {
    message_ = QObject::tr("Nothing there: click a body, or the build plane");
    return false;
  }
  if (picks_.empty()) {
    picks_ = {pick};
    settings_at_ = {*settings_};
    message_.clear();
    return true;
  }
  SpatialJoint parent = jointAt(settings_at_[0], picks_[0], linkDirection(picks_[0].body));
  int child = pick.body;
  if (child < parent.body) std::swap(child, parent.body);  // ground (-1) is the parent
  const Vec3 at = picks_[0].point;
  if (!push([&] { return add_spatial_joint(document_->editable(), parent, child, at); },
            EditKind::AddJoint))
    return false;
  cancel();
  return true;
}

Measurement MeasureTool3D::reading() const {
  std::vector<Vec3> points;
  for (const BuildPick& p : picks_) points.push_back(p.point);
  return measure(points);
}

QString MeasureTool3D::prompt() const {
  switch (picks_.size()) {
    case 0:
      return QObject::tr("Measure: click the first point");
    case 1:
      return QObject::tr("Measure: click the second point (distance)");
    case 2:
      return QObject::tr("%1 — click a third point for the angle at the second, Escape to clear")
          .arg(reading().text);
    default:
      return QObject::tr("%1 at the second point — click to measure again, Escape to clear")
          .arg(reading().text);
  }
}

bool MeasureTool3D::click(const BuildPick& pick) {
  if (!pick.valid) {
    message_ = QObject::tr("Nothing there: click a body, or the build plane");
    return false;
  }
  if (picks_.size() >= 3) picks_.clear();
  picks_.push_back(pick);
  message_.clear();
  return true;
}

}  // namespace articula
