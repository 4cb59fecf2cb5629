#include "ui/sketch_editor.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/doc/coupling_edits.hpp"
#include "core/doc/kinematic_drag.hpp"
#include "core/doc/sketch_geometry.hpp"

namespace articula {

namespace {
constexpr double kPointPx = 10.0;  // snap radius to points (pixels)
constexpr double kLinePx = 7.0;    // snap distance to links
constexpr double kSameM = 1e-6;    // points this close (m) are one point

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b, double* u_out) {
  const QPointF d = b - a;
  const double len2 = QPointF::dotProduct(d, d);
  const double u = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / len2, 0.0, 1.0) : 0.0;
  if (u_out) *u_out = u;
  return QLineF(p, a + u * d).length();
}
}  // namespace

SketchEditor::SketchEditor(Document* document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName("SketchEditor");
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(300, 200);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, QColor(250, 251, 253));
  setPalette(pal);
  connect(document_, &Document::documentChanged, this, &SketchEditor::onDocumentChanged);
  connect(document_, &Document::namesChanged, this, [this] { update(); });
  onDocumentChanged();
}

QString SketchEditor::hint() const {
  if ((tool_ == Tool::Link || tool_ == Tool::Ternary || tool_ == Tool::GroundSlider) &&
      !pending_.empty())
    return tr(
        "Click the next point, or type length in mm [, angle in °] and press Enter; Esc cancels");
  return toolHint(tool_);
}

void SketchEditor::setHint() {
  emit hintChanged(hint());
}

void SketchEditor::setTool(Tool t) {
  cancel();
  tool_ = t;
  emit toolChanged(t);
  setHint();
  update();
}

void SketchEditor::cancel() {
  pending_.clear();
  coupling_tool_.reset();
  typed_.clear();
  if (drag_ != Drag::None) {
    drag_ = Drag::None;
    refreshGeometry();
  }
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
  if (!placed_) {  // about 0.45 m across the shorter side: a desk-sized linkage fits
    scale_ = std::max(200.0, std::min(width(), height()) / 0.45);
    origin_ = QPointF(width() * 0.25, height() * 0.7);
    placed_ = true;
  }
}

void SketchEditor::fitToView() {
  if (points_.empty()) return;
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  for (const DrawnPoint& p : points_) {
    x0 = std::min(x0, p.world.x()), x1 = std::max(x1, p.world.x());
    y0 = std::min(y0, p.world.y()), y1 = std::max(y1, p.world.y());
  }
  const double span = std::max({x1 - x0, y1 - y0, 0.05});
  scale_ = 0.6 * std::min(width(), height()) / span;
  origin_ =
      QPointF(width() / 2.0 - scale_ * 0.5 * (x0 + x1), height() / 2.0 + scale_ * 0.5 * (y0 + y1));
  placed_ = true;
  update();
}

void SketchEditor::onDocumentChanged() {
  snapshot_.reset();  // a new mechanism: its first snapshot follows from the controller
  drag_ = Drag::None;
  refreshGeometry();
  update();
}

void SketchEditor::showSnapshot(const Snapshot& s) {
  const auto mech = document_->mechanism();
  if (!mech || s.X0.size() != static_cast<std::size_t>(mech->model().nb + 1)) return;
  if (drag_ == Drag::Kinematic) return;
  snapshot_ = s;
  refreshGeometry();
  update();
}

Vec3 SketchEditor::bodyToWorld(int body, const Vec3& local) const {
  if (body < 0 || body >= static_cast<int>(poses_.size())) return local;
  const Transform& X = poses_[body];
  return X.r + X.E.transpose() * local;
}

void SketchEditor::refreshGeometry() {
  const MechanismSpec& spec = document_->spec();
  const auto mech = document_->mechanism();
  poses_.assign(spec.bodies.size(), Transform());
  for (std::size_t b = 0; b < spec.bodies.size(); ++b)
    if (spec.bodies[b].pose) poses_[b] = spec.bodies[b].pose->transform();
  // Poses from the mechanism when there is one: the drag preview, else the shown snapshot.
  std::vector<Transform> X0;
  if (mech && drag_ == Drag::Kinematic) {
    Data data(mech->model());
    forward_kinematics(mech->model(), data, drag_q_);
    X0 = data.X0;
  } else if (mech && snapshot_) {
    X0 = snapshot_->X0;
  }
  if (mech && !X0.empty())
    for (std::size_t b = 0; b < spec.bodies.size() && b < mech->compiled.model_body.size(); ++b) {
      const int m = mech->compiled.model_body[b];
      poses_[b] = mech->compiled.X_body[m].inverse() * X0[m];
    }
  points_.clear();
  for (const SketchPoint& p : sketch_points(spec))
    points_.push_back({p.body, p.local, p.body < 0 ? p.local : bodyToWorld(p.body, p.local)});
}

SketchEditor::Snap SketchEditor::snapAt(const QPointF& s) const {
  Snap snap;
  double best = kPointPx;
  for (const DrawnPoint& p : points_) {
    const double d = QLineF(s, toScreen(p.world)).length();
    if (d < best) best = d, snap.kind = Snap::Point, snap.p = p.world;
  }
  if (snap.kind == Snap::Point) {
    for (const DrawnPoint& p : points_)
      if ((p.world - snap.p).norm() < kSameM &&
          std::find(snap.owners.begin(), snap.owners.end(), p.body) == snap.owners.end())
        snap.owners.push_back(p.body);
    return snap;
  }
  best = kLinePx;
  const MechanismSpec& spec = document_->spec();
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    const std::vector<Vec3> pts = body_points(spec, b);
    for (std::size_t i = 0; i + 1 < pts.size() + (pts.size() > 2); ++i) {
      const Vec3 a = bodyToWorld(b, pts[i]), c = bodyToWorld(b, pts[(i + 1) % pts.size()]);
      double u = 0;
      const double d = distanceToSegment(s, toScreen(a), toScreen(c), &u);
      if (d < best && (c - a).norm() > kSameM) {
        best = d;
        snap.kind = Snap::Line;
        snap.p = a + u * (c - a);
        snap.owners = {b};
        snap.dir = (c - a).normalized();
      }
    }
  }
  if (snap.kind == Snap::Line) return snap;
  snap.p = toWorld(s);
  if (grid_snap_) {
    snap.kind = Snap::Grid;
    snap.p =
        Vec3(std::round(snap.p.x() / grid_) * grid_, std::round(snap.p.y() / grid_) * grid_, 0);
  }
  return snap;
}

std::optional<Attachment> SketchEditor::attachmentOf(const Snap& s) const {
  if ((s.kind != Snap::Point && s.kind != Snap::Line) || s.owners.empty()) return std::nullopt;
  // The newest body at the point (e.g. a slider block over its ground rail), else ground.
  int body = -1;
  for (int o : s.owners) body = std::max(body, o);
  return Attachment{body};
}

bool SketchEditor::push(Edit edit, EditKind kind) {
  if (!document_->push(std::move(edit), kind)) {
    emit hintChanged(document_->error());
    return false;
  }
  return true;
}

std::vector<int> SketchEditor::jointsAt(const Vec3& p) const {
  std::vector<int> out;
  const MechanismSpec& spec = document_->spec();
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const JointSpec& js = spec.joints[j];
    if ((bodyToWorld(spec.body_index(js.parent), js.parent_frame.position) - p).norm() < kSameM)
      out.push_back(j);
  }
  return out;
}

void SketchEditor::mousePressEvent(QMouseEvent* event) {
  setFocus();
  mouse_ = event->position();
  if (event->button() == Qt::RightButton) {
    cancel();
    setHint();
    return;
  }
  if (event->button() != Qt::LeftButton) return;
  if (tool_ != Tool::Select && snapshot_ && snapshot_->t > 0) {
    snapshot_.reset();  // draw on the sketch as it is at t = 0
    refreshGeometry();
    emit editingStarted();
  }
  press_at_ = event->position();
  press(snapAt(event->position()), event->modifiers());
  setHint();
  update();
}

void SketchEditor::press(const Snap& s, Qt::KeyboardModifiers mods) {
  switch (tool_) {
    case Tool::Select:
      if (mods & Qt::ShiftModifier) {
        if (s.kind == Snap::Point) drag_ = Drag::Geometry, drag_from_ = s.p, drag_moved_ = false;
        return;
      }
      selectAt(s, press_at_);
      return;
    case Tool::GroundPivot:
      push(add_ground_point(document_->editable(), s.p), EditKind::GroundPivot);
      return;
    case Tool::Link:
    case Tool::Ternary:
    case Tool::GroundSlider: {
      Snap free = s;  // Alt: place the point without pinning it to what is there
      if (mods & Qt::AltModifier) free.owners.clear();
      commitPoint(free);
      return;
    }
    case Tool::Pin:
      pinAt(s);
      return;
    case Tool::Slider:
      if (s.kind != Snap::Line && s.kind != Snap::Point) return;
      if (s.kind == Snap::Point) return emit hintChanged(tr("Click on a link between its points"));
      try {
        push(add_slider(document_->editable(), s.owners.front(), s.p, s.dir), EditKind::Slider);
      } catch (const std::exception& e) {
        emit hintChanged(QString::fromStdString(e.what()));
      }
      return;
    case Tool::Motor:
      motorAt(s);
      return;
    case Tool::Gear:
      return couplingAt(CouplingSpec::Type::Gear, s);
    case Tool::Belt:
      return couplingAt(CouplingSpec::Type::Belt, s);
    case Tool::Rack:
      return couplingAt(CouplingSpec::Type::RackPinion, s);
    case Tool::Delete:
      deleteAt(s);
      return;
  }
}

void SketchEditor::commitPoint(const Snap& s) {
  if (!pending_.empty() && (s.p - pending_.back().p).norm() < kSameM) return;  // double click
  pending_.push_back(s);
  typed_.clear();
  const std::size_t needed = tool_ == Tool::Ternary ? 3 : 2;
  if (pending_.size() >= needed) finishShape();
}

void SketchEditor::finishShape() {
  std::vector<Snap> pts;
  pts.swap(pending_);
  try {
    if (tool_ == Tool::GroundSlider) {
      push(add_slider(document_->editable(), -1, pts[0].p, pts[1].p - pts[0].p), EditKind::Slider);
      return;
    }
    std::vector<Vec3> world;
    std::vector<std::optional<Attachment>> attach;
    for (const Snap& s : pts) world.push_back(s.p), attach.push_back(attachmentOf(s));
    push(add_link(document_->editable(), world, attach), EditKind::DrawLink);
  } catch (const std::exception& e) {
    emit hintChanged(QString::fromStdString(e.what()));
  }
}

void SketchEditor::pinAt(const Snap& s) {
  if (s.kind != Snap::Point) return emit hintChanged(tr("Click on a point shared by two links"));
  std::vector<int> owners = s.owners;
  // A link passing through the point (not at one of its points) can be pinned there too.
  const MechanismSpec& spec = document_->spec();
  for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b) {
    if (std::find(owners.begin(), owners.end(), b) != owners.end()) continue;
    const std::vector<Vec3> pts = body_points(spec, b);
    for (std::size_t i = 0; i + 1 < pts.size(); ++i)
      if (distanceToSegment(toScreen(s.p), toScreen(bodyToWorld(b, pts[i])),
                            toScreen(bodyToWorld(b, pts[i + 1])), nullptr) < 2)
        owners.push_back(b);
  }
  // Pin the first pair not yet joined at this point.
  const std::vector<int> here = jointsAt(s.p);
  for (std::size_t i = 0; i < owners.size(); ++i)
    for (std::size_t k = i + 1; k < owners.size(); ++k) {
      auto joined = [&](int a, int b) {
        const std::string na = a < 0 ? "ground" : spec.bodies[a].name,
                          nb = b < 0 ? "ground" : spec.bodies[b].name;
        for (int j : here)
          if ((spec.joints[j].parent == na && spec.joints[j].child == nb) ||
              (spec.joints[j].parent == nb && spec.joints[j].child == na))
            return true;
        return false;
      };
      if (joined(owners[i], owners[k])) continue;
      push(add_pin(document_->editable(), owners[i], owners[k], s.p), EditKind::Pin);
      return;
    }
  emit hintChanged(
      tr("Nothing to pin here: two links (or a link and ground) must meet at the point"));
}

void SketchEditor::motorAt(const Snap& s) {
  const std::vector<int> js = s.kind == Snap::Point ? jointsAt(s.p) : std::vector<int>{};
  const MechanismSpec& spec = document_->spec();
  int pick = -1;
  for (int j : js)  // prefer a joint on ground: that is where motors sit
    if (spec.joints[j].joint.nv() == 1 && (pick < 0 || spec.joints[j].parent == "ground")) pick = j;
  if (pick < 0) return emit hintChanged(tr("Click on a pivot (a revolute or sliding joint)"));
  JointSpec j = spec.joints[pick];
  if (j.drive) {
    j.drive.reset();
  } else {
    // Start where the joint is now, so that switching the motor on does not move the sketch.
    double q = 0.0;
    const auto mech = document_->mechanism();
    if (mech && !mech->compiled.joint_map[pick].loop) q = mech->q0[mech->compiled.q_index(pick)];
    const bool slide = j.joint.type == JointType::Prismatic;
    const QString law =
        slide ? QStringLiteral("%1 + 0.05*sin(2*pi*t)") : QStringLiteral("%1 + 2*pi*t");
    j.drive = DriveSpec{DriveSpec::Kind::Motion,
                        law.arg(q, 0, 'g', 12).toStdString(),
                        {},
                        nlohmann::json::object()};
  }
  try {
    Edit e = set_joint(document_->editable(), pick, j);
    e.label = j.drive ? "Add motor to " + j.name : "Remove motor from " + j.name;
    if (push(std::move(e), EditKind::Drive)) document_->setSelection({-1, pick});
  } catch (const std::exception& e) {
    emit hintChanged(QString::fromStdString(e.what()));
  }
}

void SketchEditor::couplingAt(CouplingSpec::Type type, const Snap& s) {
  const std::vector<int> js = s.kind == Snap::Point ? jointsAt(s.p) : std::vector<int>{};
  emit hintChanged(coupling_tool_.press(type, js, pivots()));
}

void SketchEditor::deleteAt(const Snap& s) {
  const EditableMechanism& doc = document_->editable();
  const int coupling = articula::couplingAt(
      doc.spec(), pivots(), [this](const Vec3& p) { return toScreen(p); }, scale_, press_at_,
      kLinePx);
  if (coupling >= 0 && s.kind != Snap::Point)
    return void(push(remove_coupling(doc, coupling), EditKind::Delete));
  if (s.kind == Snap::Line) {
    push(remove_body(doc, s.owners.front()), EditKind::Delete);
    return;
  }
  if (s.kind != Snap::Point) return;
  std::vector<int> js = jointsAt(s.p);
  if (!js.empty()) {  // every joint at the point, back to front so that indices stay valid
    std::sort(js.rbegin(), js.rend());
    Edit e{js.size() == 1 ? "Delete joint " + doc.spec().joints[js[0]].name : "Delete joints", {}};
    for (int j : js) e.changes.push_back(remove_joint(doc, j).changes.front());
    push(std::move(e), EditKind::Delete);
    return;
  }
  for (const Vec3& g : ground_points(doc.spec()))
    if ((g - s.p).norm() < kSameM) return void(push(remove_ground_point(doc, g), EditKind::Delete));
  // A free end of a link: delete the link.
  for (int o : s.owners)
    if (o >= 0) return void(push(remove_body(doc, o), EditKind::Delete));
}

void SketchEditor::selectAt(const Snap& s, const QPointF&) {
  const auto mech = document_->mechanism();
  drag_ = Drag::None;
  if (s.kind == Snap::Point) {
    const std::vector<int> js = jointsAt(s.p);
    int body = -1;
    for (int o : s.owners) body = std::max(body, o);
    document_->setSelection({js.empty() ? body : -1, js.empty() ? -1 : js.front()});
    if (body < 0) {  // ground points move as geometry
      drag_ = Drag::Geometry, drag_from_ = s.p, drag_moved_ = false;
      return;
    }
    drag_body_ = body;
  } else if (s.kind == Snap::Line) {
    document_->setSelection({s.owners.front(), -1});
    drag_body_ = s.owners.front();
  } else {
    Selection picked;
    picked.coupling = articula::couplingAt(
        document_->spec(), pivots(), [this](const Vec3& p) { return toScreen(p); }, scale_,
        press_at_, kLinePx);
    document_->setSelection(picked);
    return;
  }
  if (!mech) return;  // nothing assembled to drag yet
  if (!mech->drives.empty() && document_->status().free_dof == 0) {
    emit hintChanged(
        tr("Fully driven: the motors set the positions. Remove a motor (Motor tool) to drag."));
    return;
  }
  const Vec3 p = s.p;
  const Transform& X = poses_[drag_body_];
  drag_local_ = X.E * (p - X.r);
  drag_q_ = mech->q0;
  if (snapshot_ && snapshot_->q.size() == drag_q_.size()) drag_q_ = snapshot_->q;
  drag_ = Drag::Kinematic;
  drag_moved_ = false;
}

void SketchEditor::mouseMoveEvent(QMouseEvent* event) {
  mouse_ = event->position();
  hover_ = snapAt(mouse_);
  if (drag_ != Drag::None && QLineF(mouse_, press_at_).length() > 3) drag_moved_ = true;
  if (drag_ == Drag::Kinematic && drag_moved_) {
    const auto mech = document_->mechanism();
    // Motion-driven joints stay where their drive starts them (they would snap back otherwise).
    const DragResult r =
        drag_point(*mech, drag_q_, drag_body_, drag_local_, toWorld(mouse_), true, 30);
    drag_q_ = r.q;
    refreshGeometry();
  }
  update();
}

void SketchEditor::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || drag_ == Drag::None) return;
  const Drag kind = drag_;
  drag_ = Drag::None;
  if (!drag_moved_) {
    refreshGeometry();
    return;
  }
  const auto mech = document_->mechanism();
  if (kind == Drag::Kinematic && mech) {
    push(set_configuration(document_->editable(), *mech, drag_q_), EditKind::Drag);
  } else if (kind == Drag::Geometry) {
    const Snap s = snapAt(event->position());
    const Vec3 to =
        s.kind == Snap::Point || s.kind == Snap::Line ? toWorld(event->position()) : s.p;
    push(move_point(document_->editable(), drag_from_, to), EditKind::MovePoint);
  }
  refreshGeometry();
  update();
}

std::optional<Vec3> SketchEditor::typedPoint() const {
  if (pending_.empty() || typed_.isEmpty()) return std::nullopt;
  const QStringList parts = typed_.split(',');
  bool ok = false;
  const double length = parts[0].toDouble(&ok) / 1000.0;  // typed in millimetres
  if (!ok || length <= 0) return std::nullopt;
  const Vec3 from = pending_.back().p;
  const Vec3 d = hover_.p - from;
  double angle = d.norm() > 0 ? std::atan2(d.y(), d.x()) : 0.0;
  if (parts.size() > 1) {
    angle = parts[1].toDouble(&ok) * M_PI / 180.0;
    if (!ok) return std::nullopt;
  }
  return from + length * Vec3(std::cos(angle), std::sin(angle), 0);
}

bool SketchEditor::event(QEvent* event) {
  // While a length is being typed, digits, '.', ',' and '-' are text, not window shortcuts
  // ('2' = 2D view, '.' = step).
  if (event->type() == QEvent::ShortcutOverride && !pending_.empty()) {
    auto* key = static_cast<QKeyEvent*>(event);
    if ((!key->text().isEmpty() && QStringLiteral("0123456789.,-").contains(key->text())) ||
        key->key() == Qt::Key_Backspace || key->key() == Qt::Key_Return ||
        key->key() == Qt::Key_Enter || key->key() == Qt::Key_Escape) {
      event->accept();
      return true;
    }
  }
  return QWidget::event(event);
}

void SketchEditor::keyPressEvent(QKeyEvent* event) {
  const bool drawing = !pending_.empty();
  const QString text = event->text();
  if (event->key() == Qt::Key_Escape) {
    cancel();
    setTool(Tool::Select);
    return;
  }
  if (drawing && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)) {
    if (const auto p = typedPoint()) {
      Snap s;
      s.kind = Snap::Grid;
      s.p = *p;
      // A typed point on an existing point attaches there.
      for (const DrawnPoint& q : points_)
        if ((q.world - *p).norm() < kSameM) s.kind = Snap::Point, s.owners.push_back(q.body);
      commitPoint(s);
      setHint();
    }
    update();
    return;
  }
  if (drawing && event->key() == Qt::Key_Backspace) {
    typed_.chop(1);
    update();
    return;
  }
  if (drawing && !text.isEmpty() && QStringLiteral("0123456789.,-").contains(text)) {
    typed_ += text;
    update();
    return;
  }
  if (event->key() == Qt::Key_Delete && tool_ == Tool::Select) {
    const Selection sel = document_->selection();
    if (sel.coupling >= 0)
      push(remove_coupling(document_->editable(), sel.coupling), EditKind::Delete);
    else if (sel.body >= 0)
      push(remove_body(document_->editable(), sel.body), EditKind::Delete);
    else if (sel.joint >= 0)
      push(remove_joint(document_->editable(), sel.joint), EditKind::Delete);
    return;
  }
  QWidget::keyPressEvent(event);
}

void SketchEditor::wheelEvent(QWheelEvent* event) {
  const double factor = std::pow(1.0015, event->angleDelta().y());
  const QPointF at = event->position();
  origin_ = at + (origin_ - at) * factor;  // zoom about the pointer
  scale_ *= factor;
  update();
}

}  // namespace articula
