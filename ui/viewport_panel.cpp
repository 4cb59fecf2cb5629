#include "ui/viewport_panel.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTimer>
#include <QVBoxLayout>
#include <limits>

#include "core/doc/sketch_geometry.hpp"
#include "core/sim/mechanism.hpp"
#include "ui/sketch_view.hpp"

#ifdef ARTICULA_HAVE_RENDER
#include <QLabel>

#include "render/mechanism_scene.hpp"
#include "ui/build3d_bar.hpp"
#include "ui/build3d_controller.hpp"
#include "ui/viewport_widget.hpp"
#endif

namespace articula {
#ifndef ARTICULA_HAVE_RENDER
class MechanismScene {};  // never created without the renderer
#endif
}  // namespace articula

namespace articula {

int ViewportPanel::samples_ = -1;

void ViewportPanel::prepareSurfaceFormat() {
#ifdef ARTICULA_HAVE_RENDER
  ViewportWidget::setDefaultSurfaceFormat();
  // The default format also serves the window that composes the widgets; multisampling it costs
  // a full-window resolve per frame (3x slower under llvmpipe) and buys nothing. The 3D widget
  // gets its own samples (see multisampling()).
  QSurfaceFormat format = QSurfaceFormat::defaultFormat();
  format.setSamples(0);
  QSurfaceFormat::setDefaultFormat(format);
#endif
}

void ViewportPanel::setMultisampling(int samples) {
  samples_ = samples;
}

int ViewportPanel::multisampling() {
  bool ok = false;
  const int env = qEnvironmentVariableIntValue("ARTICULA_MSAA", &ok);
  if (ok) return env;
  if (samples_ >= 0) return samples_;
  static const int automatic = softwareOpenGL() ? 0 : 4;
  return automatic;
}

bool ViewportPanel::softwareOpenGL() {
  QOpenGLContext context;
  QOffscreenSurface surface;
  surface.create();
  if (!context.create() || !context.makeCurrent(&surface)) return true;
  const auto* name = context.functions()->glGetString(GL_RENDERER);
  const QString renderer = name ? QString::fromLatin1(reinterpret_cast<const char*>(name)) : "";
  context.doneCurrent();
  return renderer.isEmpty() || renderer.contains("llvmpipe") || renderer.contains("softpipe") ||
         renderer.contains("swrast") || renderer.contains("Software", Qt::CaseInsensitive);
}

ViewportPanel::ViewportPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
#ifdef ARTICULA_HAVE_RENDER
  viewport_ = new ViewportWidget(this);
  keep_in_view_ = new QTimer(this);
  keep_in_view_->setSingleShot(true);
  keep_in_view_->setInterval(100);
  connect(keep_in_view_, &QTimer::timeout, viewport_, &ViewportWidget::keepInView);
  QSurfaceFormat format = QSurfaceFormat::defaultFormat();
  format.setSamples(multisampling());
  viewport_->setFormat(format);
  layout->addWidget(viewport_);
  connect(viewport_, &ViewportWidget::picked, this, [this](int body, int joint) {
    // The clicked point as a point of the body, in the pose on display at the click: tracing it
    // later (after a run) follows the same material point.
    osg::Vec3d world, local;
    pick_body_ = -1;
    if (scene_ && viewport_->lastPickPoint(body, world) && scene_->body_point(body, world, local))
      pick_body_ = body, pick_local_ = Vec3(local.x(), local.y(), local.z());
    emit picked(body, joint);
  });
#else
  sketch_ = new SketchView(this);
  layout->addWidget(sketch_);
  connect(sketch_, &SketchView::picked, this, &ViewportPanel::picked);
#endif
}

ViewportPanel::~ViewportPanel() {
#ifdef ARTICULA_HAVE_RENDER
  if (viewport_) viewport_->setScene(nullptr);
#endif
}

void ViewportPanel::setDocument(Document* document) {
  document_ = document;
#ifdef ARTICULA_HAVE_RENDER
  if (build_ || !document) return;
  build_ = new Build3DController(
      viewport_, document,
      [this](const RayHit& hit, int& body, Vec3& point, Vec3& normal) {
        return sketchedHit(hit, body, point, normal);
      },
      this);
  auto* bar = new Build3DBar(build_, this);
  auto* layout = static_cast<QVBoxLayout*>(this->layout());
  layout->insertWidget(0, bar);
  layout->insertWidget(1, bar->promptLabel());
  layout->setStretchFactor(viewport_, 1);  // the prompt line takes only its height
#endif
}

bool ViewportPanel::isBuilding() const {
#ifdef ARTICULA_HAVE_RENDER
  return build_ && build_->tool() != Build3DController::Tool::None;
#else
  return false;
#endif
}

void ViewportPanel::fitToViewUnlessBuilding() {
  if (!isBuilding()) fitToView();
}

#ifdef ARTICULA_HAVE_RENDER
bool ViewportPanel::sketchedHit(const RayHit& hit, int& body, Vec3& point, Vec3& normal) const {
  const Vec3 world(hit.world.x(), hit.world.y(), hit.world.z());
  const Vec3 n(hit.normal.x(), hit.normal.y(), hit.normal.z());
  if (hit.body < 0) {  // ground geometry does not move
    body = -1, point = world, normal = n;
    return true;
  }
  if (!document_ || !scene_ || !mech_) return false;
  body = document_->fromSimulated(hit.body, -1).body;
  osg::Vec3d at, tip;
  if (body < 0 || !scene_->body_point(hit.body, hit.world, at) ||
      !scene_->body_point(hit.body, hit.world + hit.normal, tip))
    return false;
  // Model body frame -> the user's body frame (^{model}X_{user}: p_model = E (p_user - r)) ->
  // the world of the sketched pose, where edits are made.
  const Transform& X = mech_->compiled.X_body[mech_->compiled.model_body[hit.body]];
  const Vec3 a = X.E.transpose() * Vec3(at.x(), at.y(), at.z()) + X.r;
  const Vec3 b = X.E.transpose() * Vec3(tip.x(), tip.y(), tip.z()) + X.r;
  const MechanismSpec& spec = document_->spec();
  point = to_world(spec, body, a);
  normal = (to_world(spec, body, b) - point).normalized();
  return true;
}
#endif

QWidget* ViewportPanel::pictureWidget() const {
#ifdef ARTICULA_HAVE_RENDER
  if (viewport_) return viewport_;
#endif
  return sketch_;
}

bool ViewportPanel::has3D() const {
  return viewport_ != nullptr;
}

void ViewportPanel::setMechanism(const Mechanism* m) {
  mech_ = m;
  if (sketch_) sketch_->setMechanism(m);
#ifdef ARTICULA_HAVE_RENDER
  viewport_->setScene(nullptr);
  scene_.reset();
  has_shown_ = false;
  pick_body_ = -1;
  if (!m) return;
  scene_ = std::make_unique<MechanismScene>(*m);
  scene_->set_forces_visible(overlays_.forces);
  scene_->set_contacts_visible(overlays_.contacts);
  scene_->set_joint_axes_visible(overlays_.axes);
  scene_->set_body_frames_visible(overlays_.frames);
  scene_->set_grid_visible(overlays_.grid);
  // Building keeps the camera, unless gravity turned the world.
  const osg::Vec3d up = scene_->up();
  if (!isBuilding() || (up - viewport_->worldUp()).length() > 1e-9) viewport_->setWorldUp(up);
  viewport_->setScene(scene_->root());
#endif
}

void ViewportPanel::showSnapshot(const Snapshot& s) {
  if (sketch_) sketch_->showSnapshot(s);
#ifdef ARTICULA_HAVE_RENDER
  if (!scene_) return;
  scene_->update(s);
  shown_ = s;  // overlays switched on while paused are drawn from it
  has_shown_ = true;
  if (!keep_in_view_->isActive()) keep_in_view_->start();
  viewport_->update();
#endif
}

void ViewportPanel::setSelection(const Selection& s) {
  if (sketch_) sketch_->setSelection(s);
#ifdef ARTICULA_HAVE_RENDER
  if (!scene_) return;
  scene_->set_selection({s.body, s.joint});
  viewport_->update();
#endif
}

void ViewportPanel::fitToView() {
  if (sketch_) sketch_->fitToView();
#ifdef ARTICULA_HAVE_RENDER
  viewport_->fitToView();
#endif
}

void ViewportPanel::setOrthographic2D(bool on) {
  ortho_ = on;
#ifdef ARTICULA_HAVE_RENDER
  viewport_->setOrthographic2D(on);
  viewport_->fitToView();
#endif
}

void ViewportPanel::setOverlays(const Overlays& o) {
  overlays_ = o;
#ifdef ARTICULA_HAVE_RENDER
  if (!scene_) return;
  scene_->set_forces_visible(o.forces);
  scene_->set_contacts_visible(o.contacts);
  scene_->set_joint_axes_visible(o.axes);
  scene_->set_body_frames_visible(o.frames);
  scene_->set_grid_visible(o.grid);
  if (has_shown_) scene_->update(shown_);  // force arrows follow snapshots: place them now
  viewport_->update();
#endif
}

bool ViewportPanel::traceSelection(const Selection& s) {
#ifdef ARTICULA_HAVE_RENDER
  if (!scene_) return false;
  if (s.joint >= 0)
    scene_->set_trace_joint(s.joint);
  else if (s.body >= 0 && s.body == pick_body_)
    scene_->set_trace_on_body(s.body,
                              osg::Vec3d(pick_local_.x(), pick_local_.y(), pick_local_.z()));
  else
    return false;
  viewport_->update();
  return scene_->tracing();
#else
  (void)s;
  return false;
#endif
}

void ViewportPanel::clearTrace() {
#ifdef ARTICULA_HAVE_RENDER
  if (!scene_) return;
  scene_->clear_trace();
  viewport_->update();
#endif
}

void ViewportPanel::extendTrace(const std::vector<Snapshot>& records) {
#ifdef ARTICULA_HAVE_RENDER
  if (scene_ && scene_->tracing()) scene_->extend_trace(records);
#else
  (void)records;
#endif
}

bool ViewportPanel::isTracing() const {
#ifdef ARTICULA_HAVE_RENDER
  return scene_ && scene_->tracing();
#else
  return false;
#endif
}

Vec3 ViewportPanel::tracePoint(std::size_t i) const {
#ifdef ARTICULA_HAVE_RENDER
  if (scene_ && i < scene_->trace_size()) {
    const osg::Vec3d p = scene_->trace_point(i);
    return Vec3(p.x(), p.y(), p.z());
  }
#else
  (void)i;
#endif
  return Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
}

std::size_t ViewportPanel::traceSize() const {
#ifdef ARTICULA_HAVE_RENDER
  return scene_ ? scene_->trace_size() : 0;
#else
  return 0;
#endif
}

long ViewportPanel::framesDrawn() const {
#ifdef ARTICULA_HAVE_RENDER
  return viewport_->framesDrawn();
#else
  return sketch_->framesDrawn();
#endif
}

}  // namespace articula
