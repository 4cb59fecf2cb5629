// Drawing of the sketch editor: grid, links, joints, ground symbols, couplings, the snap target;
// then the active tool's overlay (the link being drawn, the pivot clicked first).
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "core/doc/sketch_geometry.hpp"
#include "ui/display_units.hpp"
#include "ui/sketch_colors.hpp"
#include "ui/sketch_contacts.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_labels.hpp"

namespace articula {

namespace {
const QColor kLink(60, 90, 140), kGround(90, 90, 90), kDriven(245, 190, 40);
const QColor kSnap(0, 150, 90);
}  // namespace

void SketchEditor::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  drawGrid(p);
  labels_ = jointLabels();  // placed first: the coupling labels keep clear of them
  drawBodies(p);
  drawContacts(
      p, shownSpec(), [this](int b, const Vec3& local) { return bodyToWorld(b, local); },
      [this](const Vec3& w) { return toScreen(w); }, scale_, contactReach(),
      document_->selection().contact);
  drawJointLimits(
      p, shownSpec(), [this](int b, const Vec3& local) { return bodyToWorld(b, local); },
      [this](const Vec3& w) { return toScreen(w); });
  drawJoints(p);
  articula::drawCouplings(
      p, shownSpec(), pivots(), [this](const Vec3& w) { return toScreen(w); }, scale_,
      document_->selection().coupling, [this](const QRectF& r) { return labelCost(r); });
  drawLabels(p, labels_);  // over everything drawn: no link hides a name
  drawHover(p);
  active_->paintOverlay(p);
  if (shownSpec().bodies.empty() && points_.empty()) {
    p.setPen(QColor(120, 120, 120));
    p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignTop | Qt::AlignHCenter,
               tr("Empty sketch. Start with the Ground pivot tool in the sketch toolbar,\n"
                  "then draw links between points with the Link tool."));
  }
}

// What a coupling's label at r would cover: 100 when out of view, plus one per point (with its
// hub, block or ground symbol), joint name and link side under it.
int SketchEditor::labelCost(const QRectF& r) const {
  int cost = QRectF(rect()).contains(r) ? 0 : 100;
  const QRectF around = r.adjusted(-15, -26, 15, 14);  // ground symbols reach 25 px down
  for (const DrawnPoint& q : points_) cost += around.contains(toScreen(q.world));
  const MechanismSpec& spec = shownSpec();
  for (const SketchLabel& l : labels_) cost += r.adjusted(-4, -4, 4, 4).intersects(l.rect);
  const QRectF wide = r.adjusted(-8, -8, 8, 8);  // links are drawn 9 px wide
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    const std::vector<Vec3> pts = outline(b);
    for (std::size_t i = 0; i + 1 < pts.size() + (pts.size() > 2); ++i)
      cost += crosses(wide, QLineF(toScreen(bodyToWorld(b, pts[i])),
                                   toScreen(bodyToWorld(b, pts[(i + 1) % pts.size()]))));
  }
  return cost;
}

// Joint names (one per point: the first joint's), placed around their points clear of each
// other, the drawn points, ground symbols and links (ui/sketch_labels).
std::vector<SketchLabel> SketchEditor::jointLabels() const {
  const MechanismSpec& spec = shownSpec();
  LabelObstacles o;
  o.view = QRectF(rect());
  for (const DrawnPoint& q : points_)
    o.points.emplace_back(toScreen(q.world) - QPointF(8, 8), QSizeF(16, 16));
  std::vector<std::pair<QString, QPointF>> wanted;
  std::vector<Vec3> named;
  // Many joints (a 1,000-body ladder): only the names of points in view, and only while there are
  // few enough of them (zoomed in); else the selected joint's name alone: no clutter.
  const bool many = spec.joints.size() > kSketchManyNames;
  const int selected = document_->selection().joint;
  bool crowded = false;
  int selected_at = -1;  // its entry in `wanted`
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const JointSpec& js = spec.joints[j];
    const Vec3 w = bodyToWorld(outlines().body(js.child), js.child_frame.position);
    const QPointF at = toScreen(w);
    if (js.parent == "ground" || js.child == "ground")  // the ground symbol under the pivot
      o.points.emplace_back(at + QPointF(-16, 0), QSizeF(32, 26));
    if (js.drive) o.points.emplace_back(at - QPointF(15, 15), QSizeF(30, 30));  // motor ring
    if (js.joint.type == JointType::Prismatic) {                                // the slider block
      o.points.emplace_back(at - QPointF(21, 21), QSizeF(42, 42));
      continue;
    }
    if (many && (!o.view.contains(at) || (crowded && j != selected))) continue;
    if (std::any_of(named.begin(), named.end(),
                    [&](const Vec3& d) { return (d - w).norm() < 1e-6; }))
      continue;
    if (j == selected) selected_at = static_cast<int>(wanted.size());
    named.push_back(w);
    wanted.emplace_back(QString::fromStdString(js.name), at);
    crowded = crowded || (many && wanted.size() > kSketchManyNames);
  }
  if (crowded) {
    auto only = selected_at >= 0 ? decltype(wanted){wanted[selected_at]} : decltype(wanted){};
    wanted.swap(only);
  }
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    const std::vector<Vec3> pts = outline(b);
    for (std::size_t i = 0; i + 1 < pts.size() + (pts.size() > 2); ++i)
      o.links.emplace_back(toScreen(bodyToWorld(b, pts[i])),
                           toScreen(bodyToWorld(b, pts[(i + 1) % pts.size()])));
  }
  return placeLabels(wanted, o, QFontMetricsF(font()));
}

PivotView SketchEditor::pivotView(int joint) const {
  const MechanismSpec& spec = shownSpec();
  const JointSpec& js = spec.joints[joint];
  const int parent = outlines().body(js.parent), child = outlines().body(js.child);
  PivotView v;
  v.at = bodyToWorld(parent, js.parent_frame.position);
  const Mat3 E_parent = parent >= 0 ? poses_[parent].E : Mat3::Identity();  // ^{body}E_0
  v.axis = E_parent.transpose() * (js.parent_frame.orientation * Vec3::UnitZ());
  if (child >= 0) v.angle = std::atan2(poses_[child].E(0, 1), poses_[child].E(0, 0));
  return v;
}

PivotOf SketchEditor::pivots() const {
  return [this](int joint) { return pivotView(joint); };
}

void SketchEditor::drawGrid(QPainter& p) const {
  const Vec3 lo = toWorld(QPointF(0, height())), hi = toWorld(QPointF(width(), 0));
  auto lines = [&](double step, const QColor& c) {
    if (step * scale_ < 6) return;
    p.setPen(QPen(c, 1));
    for (double x = std::floor(lo.x() / step) * step; x <= hi.x(); x += step)
      p.drawLine(toScreen(Vec3(x, lo.y(), 0)), toScreen(Vec3(x, hi.y(), 0)));
    for (double y = std::floor(lo.y() / step) * step; y <= hi.y(); y += step)
      p.drawLine(toScreen(Vec3(lo.x(), y, 0)), toScreen(Vec3(hi.x(), y, 0)));
  };
  // The snapping grid's step, or a decade of it once its lines would crowd (a 6 m boom).
  double minor = grid_;
  while (minor * scale_ < 6) minor *= 10;
  lines(minor, QColor(236, 238, 242));
  lines(minor * 10, QColor(215, 219, 226));
  p.setPen(QPen(QColor(190, 196, 206), 1, Qt::DashLine));
  p.drawLine(toScreen(Vec3(lo.x(), 0, 0)), toScreen(Vec3(hi.x(), 0, 0)));
  p.drawLine(toScreen(Vec3(0, lo.y(), 0)), toScreen(Vec3(0, hi.y(), 0)));
  // Scale bar: a round length at least 60 px long, in the display units.
  const double bar = round_up_125(60 / scale_);
  const QPointF a(16, height() - 16), b = a + QPointF(bar * scale_, 0);
  p.setPen(QPen(QColor(80, 80, 80), 2));
  p.drawLine(a, b);
  p.drawText(a + QPointF(0, -5), format_length(bar));
}

void SketchEditor::drawGroundSymbol(QPainter& p, const QPointF& at) const {
  p.setPen(QPen(kGround, 1.5));
  p.setBrush(QColor(215, 215, 215));
  QPainterPath tri;
  tri.moveTo(at);
  tri.lineTo(at + QPointF(-11, 18));
  tri.lineTo(at + QPointF(11, 18));
  tri.closeSubpath();
  p.drawPath(tri);
  p.drawLine(at + QPointF(-15, 18), at + QPointF(15, 18));
  for (int k = -3; k <= 2; ++k)
    p.drawLine(at + QPointF(5 * k + 1, 24), at + QPointF(5 * k + 6, 18));
}

void SketchEditor::drawRails(QPainter& p) const {
  const MechanismSpec& spec = shownSpec();
  for (const JointSpec& j : spec.joints) {
    if (j.joint.type != JointType::Prismatic) continue;
    const int g = outlines().body(j.parent);
    const Vec3 at = bodyToWorld(g, j.parent_frame.position);
    const Mat3 R = g < 0 ? Mat3(Mat3::Identity()) : Mat3(poses_[g].E.transpose());
    const Vec3 axis = R * j.parent_frame.orientation.toRotationMatrix().col(2);
    Vec3 end = at + 0.1 * axis;
    if (j.extra.contains("sketch") && j.extra["sketch"].contains("rail")) {
      const auto& r = j.extra["sketch"]["rail"];
      end = bodyToWorld(g, Vec3(r[0].get<double>(), r[1].get<double>(), r[2].get<double>()));
    }
    // The rail as drawn, extended to wherever the block has slid (plus a margin).
    const Vec3 block = bodyToWorld(outlines().body(j.child), j.child_frame.position);
    const Vec3 u_axis = (end - at).normalized();
    const double lo = std::min(-0.25 * (end - at).norm(), (block - at).dot(u_axis) - 0.03);
    const double hi = std::max(1.25 * (end - at).norm(), (block - at).dot(u_axis) + 0.03);
    const Vec3 start = at + lo * u_axis;
    p.setPen(QPen(g < 0 ? kGround : kLink.lighter(140), 3));
    p.drawLine(toScreen(start), toScreen(at + hi * u_axis));
    if (g < 0)
      for (double u = 0; u <= hi - lo; u += 0.01) {  // hatching under a ground rail
        const QPointF q = toScreen(start + u * u_axis);
        p.setPen(QPen(kGround, 1));
        p.drawLine(q, q + QPointF(-6, 8));
      }
  }
}

// A body with one point: a slider block along its rail, or (on a pivot only, as a pinion or a
// flywheel) a hub whose spoke turns with it.
void SketchEditor::drawBlock(QPainter& p, int b, const QPointF& at, const QColor& c) const {
  const MechanismSpec& spec = shownSpec();
  const Mat3 R = poses_[b].E.transpose();
  double angle = std::atan2(R(1, 0), R(0, 0));
  bool slides = false;
  for (const JointSpec& j : spec.joints)  // along its rail
    if (j.child == spec.bodies[b].name && j.joint.type == JointType::Prismatic) {
      const Vec3 ax = R * j.child_frame.orientation.toRotationMatrix().col(2);
      angle = std::atan2(ax.y(), ax.x());
      slides = true;
    }
  p.save();
  p.translate(at);
  p.rotate(-angle * 180 / M_PI);
  p.setPen(QPen(c.darker(130), 2));
  p.setBrush(c.lighter(150));
  if (slides) {
    p.drawRect(QRectF(-20, -12, 40, 24));
  } else {
    p.drawEllipse(QPointF(0, 0), 14, 14);
    p.setPen(QPen(c.darker(130), 3, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(0, 0), QPointF(14, 0));
  }
  p.restore();
}

void SketchEditor::drawBodies(QPainter& p) const {
  const MechanismSpec& spec = shownSpec();
  const Selection sel = document_->selection();
  drawRails(p);  // under everything
  const bool many = spec.joints.size() > kSketchManyNames;
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    const bool selected = sel.body == b;
    const QColor c = selected ? kSketchSelected : kLink;
    std::vector<QPointF> pts;
    QRectF box;  // what the body covers on screen (points and the width of its lines)
    for (const Vec3& v : outline(b)) {
      pts.push_back(toScreen(bodyToWorld(b, v)));
      box = box.united(QRectF(pts.back() - QPointF(30, 30), QSizeF(60, 60)));
    }
    if (!box.intersects(QRectF(rect()))) continue;  // out of view: nothing to draw
    if (pts.size() == 1) {
      drawBlock(p, b, pts[0], c);
      continue;
    }
    if (pts.size() >= 3) {  // a plate: filled outline
      QPolygonF poly;
      for (const QPointF& q : pts) poly << q;
      p.setPen(Qt::NoPen);
      QColor fill = c.lighter(160);
      fill.setAlpha(120);
      p.setBrush(fill);
      p.drawPolygon(poly);
    }
    p.setPen(QPen(c, 9, Qt::SolidLine, Qt::RoundCap));
    for (std::size_t i = 0; i + 1 < pts.size() + (pts.size() > 2); ++i)
      if (many)
        stamps_.link(p, pts[i], pts[(i + 1) % pts.size()], 9, c, devicePixelRatioF());
      else
        p.drawLine(pts[i], pts[(i + 1) % pts.size()]);
    const QPen dot(QColor(255, 255, 255), 1);
    p.setPen(dot);
    for (const QPointF& q : pts)
      if (many)
        stampCircle(p, q, 2, dot, Qt::transparent);
      else
        p.drawEllipse(q, 2, 2);
  }
}

void SketchEditor::stampCircle(QPainter& p, const QPointF& at, double radius, const QPen& pen,
                               const QColor& fill) const {
  stamps_.circle(p, at, radius, pen, fill, devicePixelRatioF());
}

void SketchEditor::drawJoints(QPainter& p) const {
  const MechanismSpec& spec = shownSpec();
  const Selection sel = document_->selection();
  std::vector<Vec3> drawn;  // joint points: a ground pivot there needs no symbol of its own
  const QRectF view = QRectF(rect()).adjusted(-30, -30, 30, 30);
  const bool many = spec.joints.size() > kSketchManyNames;
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const JointSpec& js = spec.joints[j];
    const Vec3 w = bodyToWorld(outlines().body(js.child), js.child_frame.position);
    const QPointF at = toScreen(w);
    const bool ground = js.parent == "ground" || js.child == "ground";
    if (js.joint.type != JointType::Prismatic) drawn.push_back(w);
    if (!view.contains(at) &&
        !view.contains(toScreen(bodyToWorld(outlines().body(js.parent), js.parent_frame.position))))
      continue;  // out of view (its ring, circle and ground symbol reach 26 px)
    if (ground && js.joint.type != JointType::Prismatic)
      drawGroundSymbol(p,
                       toScreen(bodyToWorld(outlines().body(js.parent), js.parent_frame.position)));
    if (js.joint.type == JointType::Prismatic) continue;  // drawn as block and rail
    const bool selected = sel.joint == j;
    const QPen pen(selected ? kSketchSelected : QColor(30, 30, 30), selected ? 3 : 2);
    if (many && !selected && !js.drive) {
      stampCircle(p, at, 6, pen, QColor(255, 255, 255));
      continue;
    }
    p.setPen(pen);
    p.setBrush(js.drive ? kDriven : QColor(255, 255, 255));
    p.drawEllipse(at, js.drive ? 8 : 6, js.drive ? 8 : 6);
    if (js.drive) {  // a circular arrow: this joint has a motor
      p.setBrush(Qt::NoBrush);
      p.setPen(QPen(QColor(200, 120, 0), 2));
      p.drawArc(QRectF(at - QPointF(14, 14), QSizeF(28, 28)), 30 * 16, 260 * 16);
    }
  }
  for (const Vec3& g : ground_points(spec)) {
    if (std::any_of(drawn.begin(), drawn.end(),
                    [&](const Vec3& d) { return (d - g).norm() < 1e-6; }))
      continue;
    drawGroundSymbol(p, toScreen(g));
    p.setPen(QPen(QColor(30, 30, 30), 2));
    p.setBrush(Qt::white);
    p.drawEllipse(toScreen(g), 6, 6);
  }
}

void SketchEditor::drawHover(QPainter& p) const {
  // The snap target under the pointer.
  if (hover_.kind == SketchSnap::Free || !underMouse()) return;
  const QPointF at = toScreen(hover_.p);
  p.setPen(QPen(kSnap, 2));
  p.setBrush(Qt::NoBrush);
  const int contact = tool() == Tool::Select ? contactPicked(hover_at_, hover_) : -1;
  if (contact >= 0) {  // what a click selects: the contact, not the link or grid point there
    const QString what =
        tr("contact %1").arg(QString::fromStdString(shownSpec().contacts[contact].name));
    const QPointF text = hover_at_ + QPointF(12, 18);
    const QRectF box = QFontMetricsF(font()).boundingRect(what).translated(text);
    p.fillRect(box.adjusted(-3, -1, 3, 1), QColor(255, 255, 255, 220));  // legible over a line
    p.drawText(text, what);
    return;
  }
  if (hover_.kind == SketchSnap::Point)
    p.drawEllipse(at, 11, 11);
  else if (hover_.kind == SketchSnap::Line)
    p.drawRect(QRectF(at - QPointF(6, 6), QSizeF(12, 12)));
  else
    p.drawLine(at - QPointF(6, 0), at + QPointF(6, 0)),
        p.drawLine(at - QPointF(0, 6), at + QPointF(0, 6));
  const QString what = hover_.kind == SketchSnap::Point  ? tr("point")
                       : hover_.kind == SketchSnap::Line ? tr("on link")
                                                         : tr("grid");
  p.drawText(at + QPointF(12, 18), what);
}

}  // namespace articula
