#include "ui/sketch_editor.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/algorithms/kinematics.hpp"
#include "core/doc/sketch_geometry.hpp"
#include "ui/sketch_contacts.hpp"
#include "ui/sketch_tools.hpp"

namespace articula {

namespace {
constexpr double kPointPx = 10.0;  // snap radius to points (pixels)
constexpr double kLinePx = 7.0;    // snap distance to links
}  // namespace

SketchEditor::SketchEditor(Document* document, QWidget* parent)
    : QWidget(parent), document_(document), tools_(makeSketchTools(this)) {
  setObjectName("SketchEditor");
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(300, 200);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, QColor(250, 251, 253));
  setPalette(pal);
  for (const auto& t : tools_) tool_list_.push_back(t.get());
  active_ = toolById(Tool::Select);
  active_->activate();
  connect(document_, &Document::documentChanged, this, &SketchEditor::onDocumentChanged);
  connect(document_, &Document::namesChanged, this, [this] { update(); });
  onDocumentChanged();
}

SketchEditor::~SketchEditor() = default;

SketchTool* SketchEditor::toolById(Tool id) const {
  for (SketchTool* t : tool_list_)
    if (t->id() == id) return t;
  return tool_list_.front();
}

void SketchEditor::setHint() {
  emit hintChanged(hint());
}

void SketchEditor::say(const QString& message) {
  said_ = message;
  emit hintChanged(message);
}

void SketchEditor::setTool(Tool t) {
  active_->deactivate();
  active_ = toolById(t);
  active_->activate();
  emit toolChanged(t);
  setHint();
  update();
}

void SketchEditor::cancel() {
  active_->cancel();
  update();
}

void SketchEditor::setPreview(std::optional<VecX> q) {
  preview_ = std::move(q);
  refreshGeometry();
  update();
}

void SketchEditor::setPreviewSpec(std::optional<MechanismSpec> spec, const Vec3& moved) {
  preview_spec_ = std::move(spec);
  preview_moved_ = moved;
  refreshGeometry();
  update();
}

QPointF SketchEditor::toScreen(const Vec3& p) const {
  return origin_ + QPointF(scale_ * p.x(), -scale_ * p.y());
}

Vec3 SketchEditor::toWorld(const QPointF& s) const {
  const QPointF d = (s - origin_) / scale_;
  return {d.x(), -d.y(), 0.0};
}

void SketchEditor::resizeEvent(QResizeEvent*) {
  if (preview_spec_) return;        // a Shift+drag: the view stays under the pointer
  if (fitted_) return fitToView();  // still as fitted: keep fitting (the window is laid out)
  if (!placed_) {  // about 0.45 m across the shorter side: a desk-sized linkage fits
    scale_ = std::max(200.0, std::min(width(), height()) / 0.45);
    origin_ = QPointF(width() * 0.25, height() * 0.7);
    placed_ = true;
  }
}

void SketchEditor::fitToView() {
  if (points_.empty()) {  // an empty sketch (File > New): the default view, not the last zoom
    scale_ = std::max(200.0, std::min(width(), height()) / 0.45);
    origin_ = QPointF(width() * 0.25, height() * 0.7);
    placed_ = fitted_ = false;  // placed again by the next resize
    update();
    return;
  }
  Eigen::AlignedBox2d box = extent();
  box.extend(motion_);  // the range of motion shown so far
  const double x0 = box.min().x(), x1 = box.max().x(), y0 = box.min().y(), y1 = box.max().y();
  // Width and height fitted apart: a long flat linkage (a steering rack) fills the width.
  scale_ =
      std::min(0.75 * width() / std::max(x1 - x0, 0.05), 0.6 * height() / std::max(y1 - y0, 0.05));
  origin_ =
      QPointF(width() / 2.0 - scale_ * 0.5 * (x0 + x1), height() / 2.0 + scale_ * 0.5 * (y0 + y1));
  placed_ = fitted_ = true;
  update();
}

// What is drawn now: points, couplings, links (with single-point bodies' bars), and the circle a
// link on a driven ground pivot sweeps as it turns (a crank: in view before it runs).
Eigen::AlignedBox2d SketchEditor::extent() const {
  Eigen::AlignedBox2d box;
  auto add = [&](const Vec3& p) { box.extend(Eigen::Vector2d(p.x(), p.y())); };
  const MechanismSpec& spec = shownSpec();
  for (const Vec3& p : couplingExtent(spec, pivots())) add(p);
  for (const DrawnPoint& p : points_) add(p.world);
  for (int b = 0; b < static_cast<int>(poses_.size()); ++b)
    for (const Vec3& v : outline(b)) add(bodyToWorld(b, v));
  const std::vector<ContactPoint> contacts =
      contactExtent(spec, [this](int b, const Vec3& local) { return bodyToWorld(b, local); });
  for (const ContactPoint& c : contacts) add(c.world);
  for (const JointSpec& js : spec.joints) {
    const int b = outlines().body(js.child);
    if (!js.drive || js.parent != "ground" || js.joint.type != JointType::Revolute || b < 0)
      continue;
    const Vec3 c = js.parent_frame.position;
    double r = 0;
    for (const Vec3& v : outline(b)) r = std::max(r, (bodyToWorld(b, v) - c).head<2>().norm());
    for (const ContactPoint& p : contacts)  // a crank's pin, a cam's profile: swept too
      if (p.body == b) r = std::max(r, (p.world - c).head<2>().norm());
    add(c - Vec3(r, r, 0)), add(c + Vec3(r, r, 0));
  }
  return box;
}

// While the view is as fitted, what moves out of it brings it back: the view is refitted to
// everything shown since the last edit (the range of motion so far), so it settles in one cycle.
void SketchEditor::keepInView() {
  if (preview_spec_) return;  // never under a Shift+drag: the view stays under the pointer
  const Eigen::AlignedBox2d now = extent();
  if (now.isEmpty()) return;
  motion_.extend(now);
  if (!fitted_) return;
  const Vec3 lo = toWorld(QPointF(8, height() - 8)), hi = toWorld(QPointF(width() - 8, 8));
  const Eigen::AlignedBox2d shown(Eigen::Vector2d(lo.x(), lo.y()), Eigen::Vector2d(hi.x(), hi.y()));
  if (!shown.contains(now)) fitToView();
}

void SketchEditor::onDocumentChanged() {
  motion_.setEmpty();
  snapshot_.reset();  // a new mechanism: its first snapshot follows from the controller
  preview_.reset();
  preview_spec_.reset();
  if (active_) active_->documentChanged();
  refreshGeometry();
  update();
}

void SketchEditor::showSnapshot(const Snapshot& s) {
  const auto mech = document_->simulated();
  if (!mech || s.X0.size() != static_cast<std::size_t>(mech->model().nb + 1)) return;
  if (preview_) return;  // a drag shows its own poses
  snapshot_ = s;
  refreshGeometry();
  keepInView();
  update();
}

Vec3 SketchEditor::bodyToWorld(int body, const Vec3& local) const {
  if (body < 0 || body >= static_cast<int>(poses_.size())) return local;
  const Transform& X = poses_[body];
  return X.r + X.E.transpose() * local;
}

const SketchOutlines& SketchEditor::outlines() const {
  const MechanismSpec& spec = shownSpec();
  if (!outlines_ || outlines_spec_ != &spec || outlines_->points.size() != spec.bodies.size())
    outlines_ = sketch_outlines(spec), outlines_spec_ = &spec;
  return *outlines_;
}

void SketchEditor::refreshGeometry() {
  const MechanismSpec& spec = shownSpec();
  // The simulated mechanism: the whole, or the grounded part while links float (the floating
  // links stay where they were drawn). Its bodies are found by name.
  const auto mech = document_->simulated();
  outlines_.reset();  // the spec may have changed: points, outlines and names again
  const SketchOutlines& shape = outlines();
  poses_.assign(spec.bodies.size(), Transform());
  for (std::size_t b = 0; b < spec.bodies.size(); ++b)
    if (spec.bodies[b].pose) poses_[b] = spec.bodies[b].pose->transform();
  // Poses from the mechanism when there is one: the drag preview, else the shown snapshot.
  std::vector<Transform> X0;
  if (mech && preview_) {
    Data data(mech->model());
    forward_kinematics(mech->model(), data, *preview_);
    X0 = data.X0;
  } else if (mech && snapshot_) {
    X0 = snapshot_->X0;
  }
  if (mech && !X0.empty())
    for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
      // Names are unique: the same name at the same place is that body (O(1), not a search).
      const std::string& name = spec.bodies[b].name;
      const int sim = b < mech->spec.bodies.size() && mech->spec.bodies[b].name == name
                          ? static_cast<int>(b)
                          : mech->spec.body_index(name);
      if (sim < 0) continue;
      const int m = mech->compiled.model_body[sim];
      poses_[b] = mech->compiled.X_body[m].inverse() * X0[m];
    }
  points_.clear();
  for (const SketchPoint& p : sketch_points_of(spec, shape))
    points_.push_back({p.body, p.local, p.body < 0 ? p.local : bodyToWorld(p.body, p.local)});
}

SketchSnap SketchEditor::snapAt(const QPointF& s) const {
  SketchSnap snap;
  double best = kPointPx;
  // A Shift+drag's preview: the dragged point and its links are under the pointer, not targets.
  auto dragged = [&](const Vec3& w) {
    return preview_spec_ && (w - preview_moved_).norm() < kSketchSameM;
  };
  for (const DrawnPoint& p : points_) {
    if (dragged(p.world)) continue;
    const double d = QLineF(s, toScreen(p.world)).length();
    if (d < best) best = d, snap.kind = SketchSnap::Point, snap.p = p.world;
  }
  if (snap.kind == SketchSnap::Point) {
    for (const DrawnPoint& p : points_)
      if ((p.world - snap.p).norm() < kSketchSameM &&
          std::find(snap.owners.begin(), snap.owners.end(), p.body) == snap.owners.end())
        snap.owners.push_back(p.body);
    return snap;
  }
  best = kLinePx;
  const MechanismSpec& spec = shownSpec();
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    const std::vector<Vec3> pts = outline(b);
    for (std::size_t i = 0; i + 1 < pts.size() + (pts.size() > 2); ++i) {
      const Vec3 a = bodyToWorld(b, pts[i]), c = bodyToWorld(b, pts[(i + 1) % pts.size()]);
      if (dragged(a) || dragged(c)) continue;
      double u = 0;
      const double d = distanceToSegment(s, toScreen(a), toScreen(c), &u);
      if (d < best && (c - a).norm() > kSketchSameM) {
        best = d;
        snap.kind = SketchSnap::Line;
        snap.p = a + u * (c - a);
        snap.owners = {b};
        snap.dir = (c - a).normalized();
      }
    }
  }
  if (snap.kind == SketchSnap::Line) return snap;
  snap.p = toWorld(s);
  if (grid_snap_) {
    snap.kind = SketchSnap::Grid;
    snap.p =
        Vec3(std::round(snap.p.x() / grid_) * grid_, std::round(snap.p.y() / grid_) * grid_, 0);
  }
  return snap;
}

SketchSnap SketchEditor::pointAt(const Vec3& world) const {
  SketchSnap s;
  s.kind = SketchSnap::Grid;
  s.p = world;
  for (const DrawnPoint& q : points_)
    if ((q.world - world).norm() < kSketchSameM)
      s.kind = SketchSnap::Point, s.owners.push_back(q.body);
  return s;
}

bool SketchEditor::push(Edit edit, EditKind kind) {
  if (!document_->push(std::move(edit), kind)) {
    say(document_->error());
    return false;
  }
  return true;
}

std::vector<int> SketchEditor::jointsAt(const Vec3& p) const {
  std::vector<int> out;
  const MechanismSpec& spec = shownSpec();
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const JointSpec& js = spec.joints[j];
    if ((bodyToWorld(outlines().body(js.parent), js.parent_frame.position) - p).norm() <
        kSketchSameM)
      out.push_back(j);
  }
  return out;
}

int SketchEditor::couplingAt(const QPointF& screen) const {
  return articula::couplingAt(
      shownSpec(), pivots(), [this](const Vec3& p) { return toScreen(p); }, scale_, screen,
      kLinePx);
}

int SketchEditor::contactAt(const QPointF& screen, bool surfaces) const {
  return articula::contactAt(
      contactShapes(
          shownSpec(), [this](int b, const Vec3& local) { return bodyToWorld(b, local); },
          contactReach()),
      [this](const Vec3& p) { return toScreen(p); }, scale_, screen, kLinePx, surfaces);
}

int SketchEditor::contactPicked(const QPointF& screen, const SketchSnap& snap) const {
  if (snap.kind == SketchSnap::Point) return -1;
  const int sphere = contactAt(screen, false);
  return sphere >= 0 || snap.kind == SketchSnap::Line ? sphere : contactAt(screen, true);
}

void SketchEditor::mousePressEvent(QMouseEvent* event) {
  setFocus();
  said_.clear();
  if (event->button() == Qt::RightButton) {
    cancel();
    setHint();
    return;
  }
  if (event->button() != Qt::LeftButton) return;
  if (active_->editsSketch(event->modifiers()) && snapshot_ && snapshot_->t > 0) {
    snapshot_.reset();  // draw on the sketch as it is at t = 0
    refreshGeometry();
    emit editingStarted();
  }
  active_->mousePress({event->position(), snapAt(event->position()), event->modifiers()});
  if (said_.isEmpty()) setHint();
  update();
}

void SketchEditor::mouseMoveEvent(QMouseEvent* event) {
  hover_ = snapAt(event->position());
  hover_at_ = event->position();
  emit cursorMoved(hover_.p);
  active_->mouseMove({event->position(), hover_, event->modifiers()});
  update();
}

void SketchEditor::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  active_->mouseRelease({event->position(), snapAt(event->position()), event->modifiers()});
  update();
}

bool SketchEditor::event(QEvent* event) {
  if (event->type() == QEvent::Leave) emit cursorLeft();
  // Keys a tool takes (a length being typed: '2' is not the 2D view, '.' not a step).
  if (event->type() == QEvent::ShortcutOverride &&
      active_->wantsKey(*static_cast<QKeyEvent*>(event))) {
    event->accept();
    return true;
  }
  return QWidget::event(event);
}

void SketchEditor::keyPressEvent(QKeyEvent* event) {
  said_.clear();
  if (event->key() == Qt::Key_Escape) {
    cancel();
    setTool(Tool::Select);
    return;
  }
  if (active_->keyPress(*event)) {
    if (said_.isEmpty()) setHint();
    update();
    return;
  }
  QWidget::keyPressEvent(event);
}

void SketchEditor::wheelEvent(QWheelEvent* event) {
  const double factor = std::pow(1.0015, event->angleDelta().y());
  const QPointF at = event->position();
  origin_ = at + (origin_ - at) * factor;  // zoom about the pointer
  fitted_ = false;
  scale_ *= factor;
  update();
}

}  // namespace articula
