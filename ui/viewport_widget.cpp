#include "ui/viewport_widget.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <osg/ColorMask>
#include <osg/ComputeBoundsVisitor>
#include <osg/Depth>
#include <osg/Geode>
#include <osg/Geometry>
#include <osgViewer/Viewer>

#include "render/scene_pick.hpp"

namespace articula {

namespace {

constexpr double kFovY = 30.0;                              // degrees
constexpr double kDefaultYaw = 0.55, kDefaultPitch = 0.38;  // radians: an oblique front view
const osg::Vec4 kBackgroundTop(0.93f, 0.95f, 0.97f, 1.f);
const osg::Vec4 kBackgroundBottom(0.76f, 0.80f, 0.85f, 1.f);

// A full-window quad drawn first, in a nested camera: a soft vertical gradient.
osg::ref_ptr<osg::Camera> make_background() {
  osg::ref_ptr<osg::Camera> camera = new osg::Camera;
  camera->setReferenceFrame(osg::Transform::ABSOLUTE_RF);
  camera->setProjectionMatrixAsOrtho2D(0, 1, 0, 1);
  camera->setViewMatrix(osg::Matrixd::identity());
  camera->setRenderOrder(osg::Camera::NESTED_RENDER);
  camera->setClearMask(0);
  camera->setComputeNearFarMode(osg::CullSettings::DO_NOT_COMPUTE_NEAR_FAR);
  camera->setAllowEventFocus(false);
  camera->setNodeMask(kDecorationMask);  // never picked nor fitted
  osg::ref_ptr<osg::Geometry> quad = new osg::Geometry;
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  for (auto [x, y] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) {
    v->push_back(osg::Vec3(x, y, 0));
    c->push_back(y ? kBackgroundTop : kBackgroundBottom);
  }
  quad->setVertexArray(v);
  quad->setColorArray(c, osg::Array::BIND_PER_VERTEX);
  quad->addPrimitiveSet(new osg::DrawArrays(GL_QUADS, 0, 4));
  osg::StateSet* ss = quad->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS, 0, 1, false));
  ss->setRenderBinDetails(-10, "RenderBin");
  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  geode->addDrawable(quad);
  camera->addChild(geode);
  return camera;
}

}  // namespace

void ViewportWidget::setDefaultSurfaceFormat() {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 2);
  format.setProfile(QSurfaceFormat::CompatibilityProfile);
  format.setOption(QSurfaceFormat::DeprecatedFunctions);  // without it Mesa gives a core context
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  format.setSamples(4);
  QSurfaceFormat::setDefaultFormat(format);
}

ViewportWidget::ViewportWidget(QWidget* parent) : OffscreenGLWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(160, 120);
  setMouseTracking(true);  // the status bar shows the point under the cursor
  hover_timer_ = new QTimer(this);
  hover_timer_->setSingleShot(true);
  hover_timer_->setInterval(40);
  connect(hover_timer_, &QTimer::timeout, this, [this] { emit hovered(rayAt(hover_pos_)); });
  root_ = new osg::Group;
  // Opaque: alpha keeps the cleared 1 everywhere. The frame is read back and painted as
  // opaque (it was composed as premultiplied RGBA); the blended grid lines had left
  // alpha < colour there, invalid premultiplied pixels whose channels overflowed and wrapped
  // into red, yellow and black blocks that followed the background gradient.
  root_->getOrCreateStateSet()->setAttribute(new osg::ColorMask(true, true, true, false));
  root_->addChild(make_background());
  viewer_ = new osgViewer::Viewer;
  viewer_->setThreadingModel(osgViewer::Viewer::SingleThreaded);
  viewer_->setKeyEventSetsDone(0);
  viewer_->setQuitEventSetsDone(false);
  window_ =
      viewer_->setUpViewerAsEmbeddedInWindow(0, 0, std::max(width(), 1), std::max(height(), 1));
  viewer_->setLightingMode(osg::View::HEADLIGHT);  // the scene adds a key light fixed in the world
  viewer_->getLight()->setAmbient(osg::Vec4(0.0f, 0.0f, 0.0f, 1.f));
  viewer_->getLight()->setDiffuse(osg::Vec4(0.62f, 0.62f, 0.64f, 1.f));
  viewer_->getLight()->setSpecular(osg::Vec4(0.35f, 0.35f, 0.35f, 1.f));
  viewer_->getCamera()->setClearColor(kBackgroundBottom);
  viewer_->getCamera()->setCullMask(~kPickOnlyMask);  // drawn by a merged list instead
  viewer_->setSceneData(root_);
  setWorldUp({0, 1, 0});
  clock_.start();
}

ViewportWidget::~ViewportWidget() {
  makeCurrent();
  releaseGL();
  // ~OffscreenGLWidget destroys the context after this object's members are gone: drop the slot.
  if (context()) disconnect(context(), nullptr, this, nullptr);
  gl_ready_ = false;
  viewer_ = nullptr;
  doneCurrent();
}

void ViewportWidget::setScene(osg::Node* scene) {
  if (scene_) root_->removeChild(scene_);
  scene_ = scene;
  motion_.init();  // another mechanism: its own range of motion
  if (scene_) root_->addChild(scene_);
  update();
}

osg::Node* ViewportWidget::scene() const {
  return scene_.get();
}

void ViewportWidget::setWorldUp(const osg::Vec3d& up) {
  up_ = up.length() > 0 ? up / up.length() : osg::Vec3d(0, 1, 0);
  // The default eye side: +z for y-up worlds, -y for z-up ones (a front view either way).
  osg::Vec3d h = std::abs(up_.z()) < 0.9 ? osg::Vec3d(0, 0, 1) : osg::Vec3d(0, -1, 0);
  toward_viewer_ = h - up_ * (h * up_);
  toward_viewer_.normalize();
  right_ = up_ ^ toward_viewer_;
  resetViewDirection();
}

void ViewportWidget::resetViewDirection() {
  yaw_ = kDefaultYaw;
  pitch_ = kDefaultPitch;
  update();
}

void ViewportWidget::setOrthographic2D(bool on) {
  ortho2d_ = on;
  update();
}

osg::Vec3d ViewportWidget::eyeDirection() const {
  if (ortho2d_) return {0, 0, 1};
  return (toward_viewer_ * std::cos(yaw_) + right_ * std::sin(yaw_)) * std::cos(pitch_) +
         up_ * std::sin(pitch_);
}

double ViewportWidget::worldPerPixel() const {
  const double half_height = distance_ * std::tan(osg::DegreesToRadians(kFovY / 2));
  return 2 * half_height / std::max(height(), 1);
}

osg::BoundingBox ViewportWidget::mechanismBounds() const {
  if (!scene_) return {};
  osg::ComputeBoundsVisitor bounds;
  bounds.setTraversalMask(kMechanismMask | kPickOnlyMask);
  scene_->accept(bounds);
  return bounds.getBoundingBox();
}

void ViewportWidget::fitToView() {
  motion_ = mechanismBounds();
  fitBox(motion_);
}

void ViewportWidget::keepInView() {
  if (!fitted_) return;
  const osg::BoundingBox box = mechanismBounds();
  if (!box.valid()) return;
  if (motion_.valid() && motion_.contains(box._min) && motion_.contains(box._max)) return;
  motion_.expandBy(box);
  fitBox(motion_);
}

void ViewportWidget::fitBox(const osg::BoundingBox& box) {
  if (!box.valid()) return;
  center_ = box.center();
  const double aspect = double(std::max(width(), 1)) / std::max(height(), 1);
  const double tan_half = std::tan(osg::DegreesToRadians(kFovY / 2));
  double half_height;
  if (ortho2d_) {
    half_height =
        std::max(0.5 * (box.yMax() - box.yMin()), 0.5 * (box.xMax() - box.xMin()) / aspect);
  } else {
    half_height = box.radius() / std::min(1.0, aspect);
  }
  // The box's sphere is generous for oblique views: frame a little tighter there.
  distance_ = std::max((ortho2d_ ? 1.2 : 1.0) * half_height / tan_half, 1e-6);
  fitted_ = true;
  update();
}

osg::Matrixd ViewportWidget::viewMatrix() const {
  const osg::Vec3d eye = center_ + eyeDirection() * distance_;
  return osg::Matrixd::lookAt(eye, center_, ortho2d_ ? osg::Vec3d(0, 1, 0) : up_);
}

osg::Matrixd ViewportWidget::projectionMatrix() const {
  const double aspect = double(std::max(width(), 1)) / std::max(height(), 1);
  // Near and far are refitted to the scene by OSG on every frame; these are only a start.
  if (ortho2d_) {
    const double h = distance_ * std::tan(osg::DegreesToRadians(kFovY / 2));
    return osg::Matrixd::ortho(-h * aspect, h * aspect, -h, h, 0.01 * distance_, 100 * distance_);
  }
  return osg::Matrixd::perspective(kFovY, aspect, 0.01 * distance_, 100 * distance_);
}

void ViewportWidget::updateCamera() {
  viewer_->getCamera()->setViewMatrix(viewMatrix());
  viewer_->getCamera()->setProjectionMatrix(projectionMatrix());
}

QPointF ViewportWidget::projectToWidget(const osg::Vec3d& world) const {
  const osg::Vec3d ndc = world * viewMatrix() * projectionMatrix();  // divides by w
  return {0.5 * (ndc.x() + 1) * width(), 0.5 * (1 - ndc.y()) * height()};
}

void ViewportWidget::initializeGL() {
  if (gl_ready_) {  // a new context (the widget was re-parented): forget the cached GL state
    window_->getState()->reset();
    window_->getState()->initializeExtensionProcs();
  }
  gl_ready_ = true;
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
    makeCurrent();
    releaseGL();
    doneCurrent();
  });
  viewer_->realize();
}

void ViewportWidget::releaseGL() {
  if (!viewer_ || !window_ || !gl_ready_) return;
  root_->releaseGLObjects(window_->getState());
  viewer_->getCamera()->releaseGLObjects(window_->getState());
}

void ViewportWidget::resizeGL(int w, int h) {
  const double dpr = devicePixelRatioF();
  const int pw = std::max(1, int(std::lround(w * dpr))),
            ph = std::max(1, int(std::lround(h * dpr)));
  window_->getEventQueue()->windowResize(0, 0, pw, ph);
  window_->resized(0, 0, pw, ph);
  viewer_->getCamera()->setViewport(0, 0, pw, ph);
  // Fitted for another shape (the window laid out after opening, a splitter or the build bar's
  // rows changing its height): fit again, unless the user has panned or zoomed since.
  if (fitted_) fitBox(motion_.valid() ? motion_ : mechanismBounds());
}

void ViewportWidget::paintGL() {
  const qint64 start = clock_.nsecsElapsed();
  window_->setDefaultFboId(defaultFramebufferObject());  // changes on resize: set every frame
  updateCamera();
  viewer_->frame();
  if (timing_) context()->functions()->glFinish();
  const qint64 end = clock_.nsecsElapsed();
  last_frame_s_ = (end - start) * 1e-9;
  if (timing_) frame_times_.push_back(last_frame_s_);
  if (last_paint_ns_ >= 0) {
    const double dt = (start - last_paint_ns_) * 1e-9;
    if (dt > 0) fps_ = fps_ > 0 ? 0.9 * fps_ + 0.1 / dt : 1.0 / dt;
  }
  last_paint_ns_ = start;
  ++frames_;
}

void ViewportWidget::setFrameTiming(bool on) {
  timing_ = on;
  frame_times_.clear();
}

void ViewportWidget::mousePressEvent(QMouseEvent* e) {
  press_pos_ = last_pos_ = e->position().toPoint();
  if (interactor_ && e->button() == Qt::LeftButton && !(e->modifiers() & Qt::ShiftModifier) &&
      interactor_->press(e->position())) {
    drag_ = Drag::Interactor;
    return;
  }
  const bool pan = e->button() == Qt::RightButton || e->button() == Qt::MiddleButton ||
                   (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
  if (pan || (e->button() == Qt::LeftButton && ortho2d_))
    drag_ = Drag::Pan;
  else if (e->button() == Qt::LeftButton)
    drag_ = Drag::Orbit;
}

void ViewportWidget::mouseMoveEvent(QMouseEvent* e) {
  if (drag_ == Drag::None) hoverAt(e->position());
  if (interactor_ && (drag_ == Drag::None || drag_ == Drag::Interactor)) {
    if (drag_ == Drag::None) interactor_->hover(e->position());
    if (drag_ == Drag::Interactor) interactor_->drag(e->position());
    return;
  }
  const QPoint pos = e->position().toPoint();
  const QPoint d = pos - last_pos_;
  last_pos_ = pos;
  if (drag_ == Drag::Orbit) {
    yaw_ -= 0.008 * d.x();
    pitch_ = std::clamp(pitch_ + 0.008 * d.y(), -1.55, 1.55);
  } else if (drag_ == Drag::Pan) {
    // Move the centre so that the point under the cursor follows it.
    const osg::Vec3d eye_dir = eyeDirection();
    const osg::Vec3d view_up = ortho2d_ ? osg::Vec3d(0, 1, 0) : up_;
    osg::Vec3d right = view_up ^ eye_dir;
    right.normalize();
    const osg::Vec3d screen_up = eye_dir ^ right;
    center_ += (-right * d.x() + screen_up * d.y()) * worldPerPixel();
    fitted_ = false;
  } else {
    return;
  }
  update();
}

void ViewportWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (drag_ == Drag::Interactor) {
    drag_ = Drag::None;
    if (interactor_) interactor_->release(e->position());
    return;
  }
  const bool click = (e->position().toPoint() - press_pos_).manhattanLength() < 4;
  drag_ = Drag::None;
  if (click && interactor_ && e->button() == Qt::LeftButton)
    interactor_->click(e->position());
  else if (click && interactor_ && e->button() == Qt::RightButton)
    interactor_->cancel();
  else if (click && e->button() == Qt::LeftButton)
    pick(e->position().toPoint());
}

void ViewportWidget::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() == Qt::MiddleButton) fitToView();
}

void ViewportWidget::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const double factor = std::pow(0.85, steps);
  // Zoom about the cursor: the point under it on the focal plane stays put.
  const QPointF p = e->position();
  const double wpp = worldPerPixel();
  const osg::Vec3d eye_dir = eyeDirection();
  const osg::Vec3d view_up = ortho2d_ ? osg::Vec3d(0, 1, 0) : up_;
  osg::Vec3d right = view_up ^ eye_dir;
  right.normalize();
  const osg::Vec3d screen_up = eye_dir ^ right;
  const osg::Vec3d offset =
      right * ((p.x() - 0.5 * width()) * wpp) + screen_up * ((0.5 * height() - p.y()) * wpp);
  center_ += offset * (1 - factor);
  distance_ *= factor;
  fitted_ = false;
  update();
}

void ViewportWidget::keyPressEvent(QKeyEvent* e) {
  if (interactor_ && e->key() == Qt::Key_Escape)
    interactor_->cancel();
  else
    OffscreenGLWidget::keyPressEvent(e);
}

void ViewportWidget::setInteractor(ViewportInteractor* interactor) {
  interactor_ = interactor;
  if (drag_ == Drag::Interactor) drag_ = Drag::None;
}

void ViewportWidget::hoverAt(const QPointF& pos) {
  hover_pos_ = pos;
  if (!hover_timer_->isActive()) hover_timer_->start();
}

void ViewportWidget::leaveEvent(QEvent* e) {
  hover_timer_->stop();
  emit hovered(RayHit{});
  OffscreenGLWidget::leaveEvent(e);
}

void ViewportWidget::setOverlay(osg::Node* overlay) {
  if (overlay_) root_->removeChild(overlay_);
  overlay_ = overlay;
  if (overlay_) {
    overlay_->setNodeMask(kDecorationMask);
    root_->addChild(overlay_);
  }
  update();
}

void ViewportWidget::setCamera(const osg::Vec3d& center, double distance) {
  center_ = center;
  distance_ = std::max(distance, 1e-6);
  fitted_ = false;
  update();
}

void ViewportWidget::sightLine(const QPointF& pos, osg::Vec3d& origin,
                               osg::Vec3d& direction) const {
  // Unproject the widget point at the near and far planes (normalized device z = -1, 1).
  const osg::Matrixd inverse = osg::Matrixd::inverse(viewMatrix() * projectionMatrix());
  const double x = 2 * pos.x() / std::max(width(), 1) - 1;
  const double y = 1 - 2 * pos.y() / std::max(height(), 1);
  origin = osg::Vec3d(x, y, -1) * inverse;
  direction = osg::Vec3d(x, y, 1) * inverse - origin;
  direction.normalize();
}

RayHit ViewportWidget::rayAt(const QPointF& pos) {
  RayHit out;
  if (!gl_ready_) return out;
  const double dpr = devicePixelRatioF();
  const double x = pos.x() * dpr, y = (height() - pos.y()) * dpr;  // OSG windows count y upwards
  updateCamera();
  osgUtil::LineSegmentIntersector::Intersections hits;
  if (!viewer_->computeIntersections(viewer_->getCamera(), osgUtil::Intersector::WINDOW, x, y, hits,
                                     kMechanismMask | kPickOnlyMask))
    return out;
  const ScenePick tags = pick_from_path(hits.begin()->nodePath);
  out.hit = true;
  out.body = tags.body;
  out.joint = tags.joint;
  out.world = hits.begin()->getWorldIntersectPoint();
  out.normal = hits.begin()->getWorldIntersectNormal();
  out.normal.normalize();
  return out;
}

void ViewportWidget::pick(const QPoint& pos) {
  if (!gl_ready_) return;
  const RayHit hit = rayAt(pos);
  if (hit.hit) pick_point_ = hit.world;
  has_pick_point_ = hit.body >= 0 || hit.joint >= 0;
  pick_body_ = hit.body;
  emit picked(hit.body, hit.joint);
}

}  // namespace articula
