#include "ui/build3d_controller.hpp"

#include <algorithm>
#include <cmath>

#include "core/doc/sketch_geometry.hpp"
#include "render/osg_convert.hpp"
#include "ui/document.hpp"

namespace articula {

namespace {}  // namespace

Build3DController::Build3DController(ViewportWidget* view, Document* document, HitMapper mapper,
                                     QObject* parent)
    : QObject(parent),
      view_(view),
      document_(document),
      mapper_(std::move(mapper)),
      gizmo_(view, document),
      measure_label_(new QLabel(view)) {
  measure_label_->setObjectName("build3d.measureLabel");
  measure_label_->setStyleSheet(
      "QLabel { background: rgba(255, 255, 255, 225); color: #5a1264; font-weight: bold;"
      " border: 1px solid #96209f; border-radius: 3px; padding: 1px 4px; }");
  measure_label_->setAttribute(Qt::WA_TransparentForMouseEvents);
  measure_label_->hide();
  connect(document, &Document::documentChanged, this, &Build3DController::documentEdited);
}

Build3DController::~Build3DController() {
  if (view_ && tool_ != Tool::None) {
    view_->setInteractor(nullptr);
    view_->setOverlay(nullptr);
  }
}

void Build3DController::setTool(Tool tool) {
  tool_ = tool;
  active_.reset();
  hover_ = BuildPick{};
  if (tool == Tool::Link) active_ = std::make_unique<LinkTool3D>(document_, &settings_);
  if (tool == Tool::Joint) active_ = std::make_unique<JointTool3D>(document_, &settings_);
  if (tool == Tool::Plate) active_ = std::make_unique<PlateTool3D>(document_, &settings_);
  if (tool == Tool::Measure) active_ = std::make_unique<MeasureTool3D>(document_, &settings_);
  gizmo_.select(FrameGizmo::Target::None, -1);
  view_->setInteractor(tool != Tool::None ? this : nullptr);
  view_->setOverlay(tool != Tool::None ? overlay_.node() : nullptr);
  showMarks();
  emit promptChanged(prompt());
}

void Build3DController::settingsChanged() {
  if (!gizmo_.dragging()) gizmo_.setLocalAxes(settings_.local_axes);
  showMarks();
  emit planeChanged(plane().label);
  emit promptChanged(prompt());
}

QString Build3DController::prompt() const {
  if (tool_ == Tool::Move) {
    if (!gizmo_.message().isEmpty()) return gizmo_.message() + " — " + gizmo_.prompt();
    return gizmo_.prompt();
  }
  if (!active_) return {};
  if (!active_->message().isEmpty()) return active_->message() + " — " + active_->prompt();
  return active_->prompt();
}

bool Build3DController::snap(const QPointF& pos, const RayHit& hit, BuildPick& out) const {
  int hit_body = -2;
  Vec3 p, n;
  if (hit.hit && mapper_(hit, hit_body, p, n)) out.normal = n;
  double best = kSnapPixels;
  bool found = false;
  for (const SketchPoint& s : sketch_points(document_->spec())) {
    const double d = std::hypot(view_->projectToWidget(to_osg(s.world)).x() - pos.x(),
                                view_->projectToWidget(to_osg(s.world)).y() - pos.y());
    // The same point on several bodies: the one under the pointer wins.
    const bool better = d < best - 0.5 || (d < best + 0.5 && found && s.body == hit_body);
    if (!better) continue;
    best = std::min(best, d);
    out.body = s.body;
    out.point = s.world;
    found = true;
  }
  if (found && out.body != hit_body) out.normal = Vec3::Zero();  // not the surface hit
  return found;
}

BuildPick Build3DController::pickAt(const QPointF& pos) {
  BuildPick out;
  if (active_ && !active_->pending().empty()) {
    const QPointF first = view_->projectToWidget(to_osg(active_->pending().front().point));
    out.on_first = std::hypot(first.x() - pos.x(), first.y() - pos.y()) < kSnapPixels;
  }
  const RayHit hit = view_->rayAt(pos);
  if (snap(pos, hit, out)) {
    out.valid = out.snapped = true;
    return out;
  }
  if (hit.hit && mapper_(hit, out.body, out.point, out.normal)) {
    out.valid = true;
    return out;
  }
  osg::Vec3d origin, dir;
  view_->sightLine(pos, origin, dir);
  const BuildPlane plane = this->plane();
  const Vec3 o(origin.x(), origin.y(), origin.z()), d(dir.x(), dir.y(), dir.z());
  const double along = plane.normal.dot(d);
  if (std::abs(along) < 1e-9) return out;  // looking along the plane
  const double t = (plane.offset - plane.normal.dot(o)) / along;
  if (!(t > 0)) return out;  // behind the eye
  out.valid = out.in_space = true;
  out.point = o + t * d;
  if (settings_.snap) out.point = snap_to_grid(plane, settings_.grid, out.point);
  out.normal = plane.normal;
  return out;
}

BuildPlane Build3DController::plane() const {
  return build_plane(settings_, document_->spec().gravity);
}

void Build3DController::showMarks() {
  BuildMarks m;
  m.plane = active_ != nullptr;
  const BuildPlane plane = this->plane();
  m.plane_origin = to_osg(plane.origin());
  m.plane_u = to_osg(plane.u);
  m.plane_v = to_osg(plane.v);
  // About the view's size, at most 25 lines each way: every k-th line of a fine grid, k = 1, 2,
  // 5, 10, 20, ... (snapping keeps the grid's own step).
  m.plane_half = std::max(0.5, 0.6 * view_->cameraDistance());
  m.plane_step = settings_.grid;
  for (int k = 0; m.plane_half > 25 * m.plane_step && k < 30; ++k)
    m.plane_step *= k % 3 == 1 ? 2.5 : 2.0;
  m.size = 0.012 * view_->cameraDistance();
  if (active_ && hover_.valid) {
    m.hover = to_osg(hover_.point);
    m.snapped = hover_.snapped;
  }
  if (active_)
    for (const BuildPick& p : active_->pending()) m.chain.push_back(to_osg(p.point));
  if (active_ && tool_ != Tool::Measure && joint_has_axis(settings_.joint)) {
    // The Joint tool's axis is at its first point; the others', at the point being placed
    // (the Link tool's free second end has none).
    const bool at_first = tool_ == Tool::Joint && !active_->pending().empty();
    const BuildPick& at = at_first ? active_->pending().front() : hover_;
    const bool free_end = tool_ != Tool::Joint && at.in_space && !active_->pending().empty();
    if (at.valid && !free_end) {
      m.axis = to_osg(active_->axisAt(at));
      m.axis_at = to_osg(at.point);
    }
  }
  if (tool_ == Tool::Move) gizmo_.addMarks(m);
  overlay_.show(m);
  view_->update();
  showMeasurement();
}

void Build3DController::hover(const QPointF& pos) {
  if (!active_) return;
  hover_ = pickAt(pos);
  showMarks();
}

void Build3DController::click(const QPointF& pos) {
  if (tool_ == Tool::Move) {
    selectAt(pos);
    showMarks();
    emit promptChanged(prompt());
    return;
  }
  if (!active_) return;
  hover_ = pickAt(pos);
  active_->click(hover_);
  showMarks();
  emit promptChanged(prompt());
}

void Build3DController::cancel() {
  if (!view_) return;
  if (tool_ == Tool::Move) gizmo_.select(FrameGizmo::Target::None, -1);
  if (active_) active_->cancel();
  showMarks();
  emit promptChanged(prompt());
}

void Build3DController::documentEdited() {
  emit planeChanged(plane().label);  // gravity turns the floor
  if (!view_ || tool_ == Tool::None) return;
  // A pending first point names a body by index: another edit (undo, a new file) voids it; a
  // selected joint or body stays while it exists.
  if (active_) active_->cancel();
  gizmo_.refresh();
  showMarks();
  emit promptChanged(prompt());
}

void Build3DController::selectAt(const QPointF& pos) {
  const MechanismSpec& spec = document_->spec();
  double best = kSnapPixels;
  int joint = -1;
  for (int j = 0; j < static_cast<int>(spec.joints.size()); ++j) {
    const QPointF p = view_->projectToWidget(to_osg(joint_world_point(spec, j)));
    const double d = std::hypot(p.x() - pos.x(), p.y() - pos.y());
    if (d < best) best = d, joint = j;
  }
  int body = -1;
  Vec3 point, normal;
  const RayHit hit = view_->rayAt(pos);
  if (joint >= 0)
    gizmo_.select(FrameGizmo::Target::Joint, joint);
  else if (hit.hit && mapper_(hit, body, point, normal) && body >= 0)
    gizmo_.select(FrameGizmo::Target::Body, body);
  else
    gizmo_.select(FrameGizmo::Target::None, -1);
}

bool Build3DController::press(const QPointF& pos) {
  if (tool_ != Tool::Move || !gizmo_.press(pos)) return false;
  showMarks();
  emit promptChanged(prompt());
  return true;
}

void Build3DController::drag(const QPointF& pos) {
  dragGizmo(pos);
  showMarks();
  emit promptChanged(prompt());
}

void Build3DController::dragGizmo(const QPointF& pos) {
  if (settings_.snap)
    gizmo_.dragTo(pos, settings_.grid, BuildSettings::kAngleStep);
  else
    gizmo_.dragTo(pos);
}

void Build3DController::release(const QPointF& pos) {
  dragGizmo(pos);    // where the button came up
  gizmo_.release();  // the edit's documentChanged redraws; a refusal stays in the prompt
  showMarks();
  emit promptChanged(prompt());
}

Measurement Build3DController::measurement() const {
  const auto* tool = dynamic_cast<const MeasureTool3D*>(active_.get());
  return tool ? tool->reading() : Measurement{};
}

void Build3DController::showMeasurement() {
  const Measurement m = measurement();
  if (m.kind == Measurement::Kind::None) {
    measure_label_->hide();
    return;
  }
  // Beside the segment's middle (distance) or the vertex (angle), kept inside the view.
  const std::vector<BuildPick>& p = active_->pending();
  const Vec3 at =
      m.kind == Measurement::Kind::Distance ? 0.5 * (p[0].point + p[1].point) : p[1].point;
  measure_label_->setText(m.text);
  measure_label_->adjustSize();
  const QPointF w =
      view_->projectToWidget(to_osg(at)) + QPointF(12, -12 - measure_label_->height());
  const int x =
      std::clamp(static_cast<int>(w.x()), 0, std::max(0, view_->width() - measure_label_->width()));
  const int y = std::clamp(static_cast<int>(w.y()), 0,
                           std::max(0, view_->height() - measure_label_->height()));
  measure_label_->move(x, y);
  measure_label_->show();
  measure_label_->raise();
}

}  // namespace articula
