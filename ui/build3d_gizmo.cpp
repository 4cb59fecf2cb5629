#include "ui/build3d_gizmo.hpp"

#include <QObject>
#include <cmath>
#include <stdexcept>

#include "core/doc/sketch_geometry.hpp"
#include "render/osg_convert.hpp"
#include "ui/build3d_tools.hpp"
#include "ui/document.hpp"
#include "ui/viewport_widget.hpp"

namespace articula {

namespace {
constexpr int kRingSegments = 72;

// Distance (px) from p to the segment ab.
double segmentDistance(const QPointF& p, const QPointF& a, const QPointF& b) {
  const QPointF ab = b - a;
  const double len2 = QPointF::dotProduct(ab, ab);
  const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  const QPointF d = p - (a + t * ab);
  return std::hypot(d.x(), d.y());
}
// The point at `angle` on the ring about axis k of `axes` (from u = axis k+1 towards v = k+2).
Vec3 ringPoint(const Vec3& c, const Mat3& axes, int k, double radius, double angle) {
  return c + radius * (std::cos(angle) * axes.col((k + 1) % 3) +
                       std::sin(angle) * axes.col((k + 2) % 3));
}
}  // namespace

FrameGizmo::FrameGizmo(ViewportWidget* view, Document* document)
    : view_(view), document_(document) {}

void FrameGizmo::select(Target kind, int index) {
  target_ = kind;
  index_ = index;
  drag_ = Handle{};
  move_ = RigidMove{};
  message_.clear();
  refresh();
}

void FrameGizmo::refresh() {
  const MechanismSpec& spec = document_->spec();
  const int n =
      static_cast<int>(target_ == Target::Joint ? spec.joints.size() : spec.bodies.size());
  if (target_ == Target::None || index_ < 0 || index_ >= n) target_ = Target::None, index_ = -1;
}

Vec3 FrameGizmo::pivot() const {
  const MechanismSpec& spec = document_->spec();
  if (target_ == Target::Joint) return joint_world_point(spec, index_);
  if (target_ == Target::Body) return to_world(spec, index_, Vec3::Zero());
  return Vec3::Zero();
}

Mat3 FrameGizmo::frame() const {
  const MechanismSpec& spec = document_->spec();
  auto body_rotation = [&](int b) -> Mat3 {
    if (b < 0 || !spec.bodies[b].pose) return Mat3::Identity();
    return spec.bodies[b].pose->orientation.toRotationMatrix();
  };
  if (target_ == Target::Body) return body_rotation(index_);
  if (target_ != Target::Joint) return Mat3::Identity();
  const JointSpec& j = spec.joints[index_];
  return body_rotation(spec.body_index(j.parent)) * j.parent_frame.orientation.toRotationMatrix();
}

FrameGizmo::Handle FrameGizmo::handleAt(const QPointF& pos) const {
  if (target_ == Target::None) return {};
  const Vec3 c = pivot();
  const double scale = view_->cameraDistance();
  auto at = [&](const Vec3& p) { return view_->projectToWidget(to_osg(p)); };
  const Mat3 A = axes();
  Handle best;
  double nearest = kHandlePixels;
  for (int k = 0; k < 3; ++k) {  // arrows first: they cross the rings
    const Vec3 e = A.col(k) * (kArrow * scale);
    const double d = segmentDistance(pos, at(c + 0.2 * e), at(c + e));
    if (d < nearest) nearest = d, best = Handle{true, Mode::Translate, k};
  }
  if (best.valid) return best;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < kRingSegments; ++i) {
      const double a0 = 2 * M_PI * i / kRingSegments, a1 = 2 * M_PI * (i + 1) / kRingSegments;
      const double d = segmentDistance(pos, at(ringPoint(c, A, k, kRing * scale, a0)),
                                       at(ringPoint(c, A, k, kRing * scale, a1)));
      if (d < nearest) nearest = d, best = Handle{true, Mode::Rotate, k};
    }
  return best;
}

bool FrameGizmo::axisParameter(const QPointF& pos, int axis, double& s) const {
  osg::Vec3d o, d;
  view_->sightLine(pos, o, d);
  const Vec3 e = axes().col(axis), w = pivot() - from_osg(o), dir = from_osg(d).normalized();
  const double b = e.dot(dir);
  if (1 - b * b < 1e-9) return false;
  // Nearest points of the lines pivot + s e and o + t dir.
  s = (b * dir.dot(w) - e.dot(w)) / (1 - b * b);
  return std::isfinite(s);
}

bool FrameGizmo::ringAngle(const QPointF& pos, int axis, double& angle) const {
  osg::Vec3d o, d;
  view_->sightLine(pos, o, d);
  const Mat3 A = axes();
  const Vec3 e = A.col(axis), c = pivot(), dir = from_osg(d);
  const double along = e.dot(dir);
  if (std::abs(along) < 1e-9) return false;  // the ring is seen edge on
  const Vec3 r = from_osg(o) + dir * (e.dot(c - from_osg(o)) / along) - c;
  angle = std::atan2(r.dot(A.col((axis + 2) % 3)), r.dot(A.col((axis + 1) % 3)));
  return std::isfinite(angle);
}

bool FrameGizmo::press(const QPointF& pos) {
  const Handle h = handleAt(pos);
  if (!h.valid) return false;
  const bool ok = h.mode == Mode::Translate ? axisParameter(pos, h.axis, start_)
                                            : ringAngle(pos, h.axis, start_);
  if (!ok) return false;
  drag_ = h;
  move_ = RigidMove{};
  move_.pivot = pivot();
  return true;
}

void FrameGizmo::dragTo(const QPointF& pos, double snap, double angle_snap) {
  if (!drag_.valid) return;
  double now = 0;
  const Vec3 e = axes().col(drag_.axis);  // the spec, so the axes, change only on release
  if (drag_.mode == Mode::Translate && axisParameter(pos, drag_.axis, now)) {
    double s = now - start_;
    if (snap > 0) s = std::round(s / snap) * snap;
    move_.delta = s * e;
  } else if (drag_.mode == Mode::Rotate && ringAngle(pos, drag_.axis, now)) {
    // The turn in (-π, π]: a ring dragged past the half turn reads as the shorter way round.
    double a = std::remainder(now - start_, 2 * M_PI);
    if (angle_snap > 0) a = std::round(a / angle_snap) * angle_snap;
    move_.rotation = Eigen::AngleAxisd(a, e).toRotationMatrix();
  }
}

bool FrameGizmo::release() {
  if (!drag_.valid) return false;
  const RigidMove m = move_;
  drag_ = Handle{};
  move_ = RigidMove{};
  if ((m.rotation - Mat3::Identity()).norm() == 0 && m.delta.norm() == 0) return true;
  const bool joint = target_ == Target::Joint;
  return push_edit(
      document_,
      [&] {
        return joint ? move_joint_frames(document_->editable(), index_, m)
                     : move_body_pose(document_->editable(), index_, m);
      },
      joint ? EditKind::JointProperties : EditKind::BodyProperties, message_);
}

QString FrameGizmo::prompt() const {
  const MechanismSpec& spec = document_->spec();
  if (target_ == Target::None)
    return QObject::tr("Move: click a joint or a body to move or turn it");
  const std::string& name =
      target_ == Target::Joint ? spec.joints[index_].name : spec.bodies[index_].name;
  const QString what = (target_ == Target::Joint ? QObject::tr("joint %1") : QObject::tr("body %1"))
                           .arg(QString::fromStdString(name));
  const QString axis = drag_.valid ? QString("xyz"[drag_.axis]) : QString();
  const QString along =
      local_ ? QObject::tr("its own %1").arg(axis) : QObject::tr("world %1").arg(axis);
  if (drag_.valid && drag_.mode == Mode::Translate)
    return QObject::tr("Moving %1 by %2 m along %3")
        .arg(what)
        .arg(move_.delta.norm(), 0, 'g', 6)
        .arg(along);
  if (drag_.valid)
    return QObject::tr("Turning %1 by %2° about %3")
        .arg(what)
        .arg(Eigen::AngleAxisd(move_.rotation).angle() * 180 / M_PI, 0, 'f', 2)
        .arg(along);
  return QObject::tr(
             "Move %1: drag an arrow to slide it, a ring to turn it; click another joint "
             "or body, Escape to drop it")
      .arg(what);
}

void FrameGizmo::addMarks(BuildMarks& m) const {
  if (target_ == Target::None) return;
  const double scale = view_->cameraDistance();
  const Vec3 c = move_.apply(pivot());
  const Mat3 A = axes();
  for (int k = 0; k < 3; ++k) {
    std::vector<osg::Vec3d>& lines = m.gizmo[k];
    const Vec3 e = A.col(k), tip = c + e * (kArrow * scale);
    const Vec3 side = A.col((k + 1) % 3) * (0.02 * scale);
    for (const Vec3& p : {c, tip, tip, Vec3(tip - 0.05 * scale * e + side), tip,
                          Vec3(tip - 0.05 * scale * e - side)})
      lines.push_back(to_osg(p));
    for (int i = 0; i < kRingSegments; ++i)
      for (int j : {i, i + 1})
        lines.push_back(to_osg(ringPoint(c, A, k, kRing * scale, 2 * M_PI * j / kRingSegments)));
  }
  m.gizmo_active = drag_.valid ? drag_.axis : -1;
  if (!drag_.valid) return;
  // The preview: the frame's own axes where the drag puts it, and a line from where it was.
  const Mat3 F = move_.rotation * frame();
  for (int k = 0; k < 3; ++k) {
    m.preview.push_back(to_osg(c));
    m.preview.push_back(to_osg(c + F.col(k) * (0.5 * kArrow * scale)));
  }
  m.preview.push_back(to_osg(pivot()));
  m.preview.push_back(to_osg(c));
}

}  // namespace articula
