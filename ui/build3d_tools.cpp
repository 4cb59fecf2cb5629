#include "ui/build3d_tools.hpp"

#include <QObject>
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

Vec3 candidate_axis(const BuildSettings& settings, const BuildPick& pick) {
  switch (settings.axis) {
    case BuildSettings::Axis::X:
      return Vec3::UnitX();
    case BuildSettings::Axis::Y:
      return Vec3::UnitY();
    case BuildSettings::Axis::Z:
      return Vec3::UnitZ();
    case BuildSettings::Axis::Normal:
      break;
  }
  return pick.normal.norm() > 0.5 ? pick.normal.normalized() : Vec3::UnitZ();
}

bool joint_has_axis(JointType type) {
  return type != JointType::Spherical;
}

BuildTool::BuildTool(Document* document, const BuildSettings* settings)
    : document_(document), settings_(settings) {}

SpatialJoint BuildTool::jointAt(const BuildPick& pick, const Vec3& across) const {
  Joint joint;
  joint.type = settings_->joint;
  return SpatialJoint{pick.body, joint, candidate_axis(*settings_, pick), across};
}

bool BuildTool::push(const std::function<Edit()>& build, EditKind kind) {
  try {
    if (document_->push(build(), kind)) {
      message_.clear();
      return true;
    }
    message_ = document_->error();
  } catch (const std::exception& e) {
    message_ = QString::fromStdString(e.what());
  }
  return false;
}

QString LinkTool3D::prompt() const {
  if (!first_)
    return QObject::tr("Link: click its first end, on a body or in space (joined to ground)");
  return QObject::tr("Link from %1: click its second end, on a body (joined) or in space (free)")
      .arg(bodyName(*document_, first_->body));
}

bool LinkTool3D::click(const BuildPick& pick) {
  if (!pick.valid) {
    message_ = QObject::tr("Nothing there: click a body, or the build plane");
    return false;
  }
  if (!first_) {
    first_ = pick;
    first_joint_ = jointAt(pick, Vec3::UnitX());  // its second axis is fixed at the second click
    message_.clear();
    return true;
  }
  const Vec3 a = first_->point, b = pick.point;
  SpatialJoint start = *first_joint_;
  start.across = b - a;
  std::optional<SpatialJoint> end;
  if (!pick.in_space) end = jointAt(pick, b - a);
  const double d = settings_->diameter;
  if (!push([&] { return add_spatial_link(document_->editable(), a, b, d, start, end); },
            EditKind::AddBody))
    return false;
  first_.reset();
  return true;
}

QString JointTool3D::prompt() const {
  if (!first_)
    return QObject::tr("%1 joint: click its point on a body or on ground")
        .arg(jointName(settings_->joint));
  return QObject::tr("%1 joint on %2: click the body it joins")
      .arg(jointName(settings_->joint), bodyName(*document_, first_->body));
}

bool JointTool3D::click(const BuildPick& pick) {
  if (!pick.valid) {
    message_ = QObject::tr("Nothing there: click a body, or the build plane");
    return false;
  }
  if (!first_) {
    first_ = pick;
    first_joint_ = jointAt(pick, Vec3::UnitX());
    message_.clear();
    return true;
  }
  SpatialJoint parent = *first_joint_;
  int child = pick.body;
  if (child < parent.body) std::swap(child, parent.body);  // ground (-1) is the parent
  const Vec3 at = first_->point;
  if (!push([&] { return add_spatial_joint(document_->editable(), parent, child, at); },
            EditKind::AddJoint))
    return false;
  first_.reset();
  return true;
}

}  // namespace articula
