#include "ui/sketch_view.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <cmath>

#include "ui/sketch_colors.hpp"

namespace articula {

namespace {
const QColor kBar(70, 90, 120), kPivot(250, 250, 250);
}

SketchView::SketchView(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, QColor(246, 247, 249));
  setPalette(pal);
  setMinimumSize(200, 150);
}

void SketchView::setMechanism(const Mechanism* m) {
  mech_ = m;
  points_.clear();
  body_joints_.clear();
  fitted_ = false;
  if (m) {
    body_joints_.resize(m->spec.bodies.size());
    for (std::size_t j = 0; j < m->spec.joints.size(); ++j)
      for (const std::string& name : {m->spec.joints[j].parent, m->spec.joints[j].child}) {
        const int b = m->spec.body_index(name);
        if (b >= 0) body_joints_[b].push_back(static_cast<int>(j));
      }
  }
  update();
}

Vec3 SketchView::jointPoint(int joint, const Snapshot& s) const {
  const JointMapping& map = mech_->compiled.joint_map[joint];
  if (!map.loop) return s.X0[map.index].r;  // a model body's frame is its joint's frame
  const LoopJoint& l = mech_->compiled.loops[map.index];
  const Transform& X = s.X0[l.successor];
  return X.r + X.E.transpose() * l.X_S.r;
}

void SketchView::showSnapshot(const Snapshot& s) {
  if (!mech_ || s.X0.size() != static_cast<std::size_t>(mech_->model().nb + 1)) return;
  points_.resize(mech_->spec.joints.size());
  for (std::size_t j = 0; j < points_.size(); ++j) points_[j] = jointPoint(static_cast<int>(j), s);
  if (!fitted_) fitToView();
  update();
}

void SketchView::setSelection(const Selection& s) {
  selection_ = s;
  update();
}

QPointF SketchView::project(const Vec3& p) const {
  if (!mech_ || mech_->planar) return {p.x(), p.y()};
  // Oblique view of a z-up world (y-up worlds are turned so that gravity points down).
  const bool z_up = std::abs(mech_->spec.gravity.z()) > std::abs(mech_->spec.gravity.y());
  const Vec3 q = z_up ? p : Vec3(p.x(), -p.z(), p.y());
  const double a = 0.6, e = 0.35;  // azimuth and elevation, rad
  const double x = std::cos(a) * q.x() - std::sin(a) * q.y();
  const double depth = std::sin(a) * q.x() + std::cos(a) * q.y();
  return {x, std::cos(e) * q.z() + std::sin(e) * depth};
}

void SketchView::fitToView() {
  if (points_.empty()) return;
  QRectF box(project(points_[0]), QSizeF(0, 0));
  for (const Vec3& p : points_) {
    const QPointF q = project(p);
    box = box.united(QRectF(q, QSizeF(1e-9, 1e-9)));
  }
  const double pad = 0.25 * std::max({box.width(), box.height(), 1e-3});
  bounds_ = box.adjusted(-pad, -pad, pad, pad);
  fitted_ = true;
  update();
}

QPointF SketchView::toScreen(const QPointF& p) const {
  const double sx = width() / bounds_.width(), sy = height() / bounds_.height();
  const double s = std::min(sx, sy);
  const QPointF c = bounds_.center();
  return {width() / 2.0 + s * (p.x() - c.x()), height() / 2.0 - s * (p.y() - c.y())};
}

void SketchView::drawGrid(QPainter& p) {
  if (bounds_.isEmpty()) return;
  const double span = std::max(bounds_.width(), bounds_.height());
  const double step = std::pow(10.0, std::floor(std::log10(span / 4)));
  p.setPen(QPen(QColor(228, 230, 234), 1));
  const QPointF lo = bounds_.topLeft() - QPointF(span, span);
  for (double x = std::floor(lo.x() / step) * step; x < bounds_.right() + span; x += step)
    p.drawLine(toScreen({x, lo.y()}), toScreen({x, bounds_.bottom() + span}));
  for (double y = std::floor(lo.y() / step) * step; y < bounds_.bottom() + span; y += step)
    p.drawLine(toScreen({lo.x(), y}), toScreen({bounds_.right() + span, y}));
}

void SketchView::drawGround(QPainter& p, const QPointF& at) {
  p.setPen(QPen(QColor(60, 60, 60), 1.5));
  p.setBrush(QColor(200, 200, 200));
  QPainterPath tri;
  tri.moveTo(at);
  tri.lineTo(at + QPointF(-10, 16));
  tri.lineTo(at + QPointF(10, 16));
  tri.closeSubpath();
  p.drawPath(tri);
  for (int k = -2; k <= 2; ++k)
    p.drawLine(at + QPointF(5 * k - 2, 22), at + QPointF(5 * k + 3, 17));
}

void SketchView::paintEvent(QPaintEvent*) {
  ++frames_;
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  drawGrid(p);
  if (!mech_ || points_.empty()) return;
  for (std::size_t b = 0; b < body_joints_.size(); ++b) {
    const bool sel = selection_.body == static_cast<int>(b);
    p.setPen(QPen(sel ? kSketchSelected : kBar, 7, Qt::SolidLine, Qt::RoundCap));
    const auto& js = body_joints_[b];
    for (std::size_t i = 0; i + 1 < js.size(); ++i)
      for (std::size_t k = i + 1; k < js.size(); ++k)
        p.drawLine(toScreen(project(points_[js[i]])), toScreen(project(points_[js[k]])));
  }
  for (std::size_t j = 0; j < points_.size(); ++j) {
    const QPointF at = toScreen(project(points_[j]));
    const JointSpec& js = mech_->spec.joints[j];
    if (js.parent == "ground" || js.child == "ground") drawGround(p, at);
    const bool sel = selection_.joint == static_cast<int>(j);
    p.setPen(QPen(sel ? kSketchSelected : QColor(40, 40, 40), 2));
    p.setBrush(js.drive ? QColor(250, 210, 80) : kPivot);
    p.drawEllipse(at, 5, 5);
  }
}

void SketchView::mousePressEvent(QMouseEvent* event) {
  if (!mech_ || points_.empty()) return;
  const QPointF at = event->position();
  for (std::size_t j = 0; j < points_.size(); ++j)
    if (QLineF(at, toScreen(project(points_[j]))).length() < 9) {
      emit picked(-1, static_cast<int>(j));
      return;
    }
  for (std::size_t b = 0; b < body_joints_.size(); ++b) {
    const auto& js = body_joints_[b];
    for (std::size_t i = 0; i + 1 < js.size(); ++i) {
      const QPointF a = toScreen(project(points_[js[i]]));
      const QPointF c = toScreen(project(points_[js[i + 1]]));
      const QPointF d = c - a;
      const double len2 = QPointF::dotProduct(d, d);
      const double u = len2 > 0 ? std::clamp(QPointF::dotProduct(at - a, d) / len2, 0.0, 1.0) : 0;
      if (QLineF(at, a + u * d).length() < 6) {
        emit picked(static_cast<int>(b), -1);
        return;
      }
    }
  }
  emit picked(-1, -1);
}

}  // namespace articula
