#pragma once
// The 3-D view: an OpenSceneGraph viewer inside an OffscreenGLWidget, arranged as measured in
// shared/docs/stack-notes.md (compatibility context with deprecated functions, an embedded
// graphics window, the widget's framebuffer object handed to OSG every frame). The camera is a
// turntable about the world's up axis (left drag orbits, right/middle/shift drag pans, the wheel
// zooms at the cursor); the 2-D mode looks down -z onto the x-y plane with pan and zoom only. A
// click picks through the tags of render/scene_pick.hpp.
#include <QElapsedTimer>
#include <QPoint>
#include <QPointF>
#include <osg/BoundingBox>
#include <osg/Matrixd>
#include <osg/Vec3d>
#include <osg/ref_ptr>
#include <vector>

#include "ui/offscreen_gl_widget.hpp"

class QTimer;

namespace osg {
class Camera;
class Group;
class Node;
}  // namespace osg
namespace osgViewer {
class GraphicsWindowEmbedded;
class Viewer;
}  // namespace osgViewer

namespace articula {

// Takes the mouse over from orbit-and-pick while a building tool is active (ui/build3d_*): moves
// without a button hover, a left click (press and release without dragging) clicks, a right
// click or Escape cancels; dragging still orbits and pans, unless press() takes it. Positions in
// logical widget pixels.
class ViewportInteractor {
 public:
  virtual ~ViewportInteractor() = default;
  virtual void hover(const QPointF& pos) = 0;
  virtual void click(const QPointF& pos) = 0;
  virtual void cancel() = 0;
  // A left press the interactor takes (a gizmo's handle): true makes the drag its own, moves go
  // to drag() and the release to release() instead of orbiting.
  virtual bool press(const QPointF&) { return false; }
  virtual void drag(const QPointF&) {}
  virtual void release(const QPointF&) {}
};

// What is under a widget point: the innermost tagged body and joint (render/scene_pick.hpp), the
// world point hit and the surface normal there (unit, world).
struct RayHit {
  bool hit = false;
  int body = -1, joint = -1;
  osg::Vec3d world, normal;
};

class ViewportWidget : public OffscreenGLWidget {
  Q_OBJECT

 public:
  // OSG needs a compatibility context (a core one renders nothing). Call before QApplication.
  static void setDefaultSurfaceFormat();

  explicit ViewportWidget(QWidget* parent = nullptr);
  ~ViewportWidget() override;

  // The node to show (held by reference); nullptr shows the background only.
  void setScene(osg::Node* scene);
  osg::Node* scene() const;
  // The orbit axis (the opposite of gravity); the default is +y.
  void setWorldUp(const osg::Vec3d& up);
  const osg::Vec3d& worldUp() const { return up_; }
  // Planar mode: orthographic, looking down -z onto the x-y plane, pan and zoom only.
  void setOrthographic2D(bool on);
  bool isOrthographic2D() const { return ortho2d_; }
  // Frames the scene's mechanism geometry (decorations such as the grid are left out).
  void fitToView();
  // While the view is as fitted, a mechanism that moves out of what was framed brings it back:
  // framed again around everything shown since the fit (its range of motion so far), so it
  // settles within one cycle. Call after the scene's poses change.
  void keepInView();
  osg::BoundingBox mechanismBounds() const;  // world, as drawn now; invalid without a scene
  // Back to the default oblique 3-D view direction (does not change the zoom).
  void resetViewDirection();

  // Widget coordinates (logical pixels, y down) of a world point under the current camera: for
  // labels drawn over the view, and for tests that click on a known point.
  QPointF projectToWidget(const osg::Vec3d& world) const;

  // World point of the last click that hit the mechanism (for tracing the point clicked on).
  bool lastPickPoint(int user_body, osg::Vec3d& world) const {
    world = pick_point_;
    return has_pick_point_ && pick_body_ == user_body;
  }

  // The mechanism geometry under a widget point (no signal, nothing remembered).
  RayHit rayAt(const QPointF& pos);
  // The line of sight through a widget point: a world point on it and its unit direction.
  void sightLine(const QPointF& pos, osg::Vec3d& origin, osg::Vec3d& direction) const;
  // Places the camera (centre looked at, and eye distance) keeping the view direction.
  void setCamera(const osg::Vec3d& center, double distance);
  double cameraDistance() const { return distance_; }
  // Null: the mouse orbits and picks. Not owned.
  void setInteractor(ViewportInteractor* interactor);
  // Drawn over the scene, never picked nor fitted (the building tools' plane and markers); kept
  // when the scene changes. Null removes it.
  void setOverlay(osg::Node* overlay);

  long framesDrawn() const { return frames_; }
  double lastFrameSeconds() const { return last_frame_s_; }  // time spent in the last paintGL
  double framesPerSecond() const { return fps_; }            // smoothed over recent frames
  // Measurement (--measure): finish each frame's GL work inside paintGL, so that the time of a
  // frame includes the software rasteriser's, and keep every frame's time.
  void setFrameTiming(bool on);
  const std::vector<double>& frameTimes() const { return frame_times_; }  // seconds

 signals:
  // User body and joint indices under a click (-1 for none): an empty click gives (-1, -1).
  void picked(int body, int joint);
  // What is under the resting or moving cursor (hit false: nothing, or the cursor left), at most
  // every 40 ms: a ray cast per mouse event would cost a large mechanism its frame rate.
  void hovered(const articula::RayHit& hit);

 protected:
  void leaveEvent(QEvent* e) override;
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;

 private:
  enum class Drag { None, Orbit, Pan, Interactor };
  void fitBox(const osg::BoundingBox& box);  // frames the box, and the view is as fitted
  osg::Matrixd viewMatrix() const;
  osg::Matrixd projectionMatrix() const;
  void updateCamera();
  void releaseGL();
  void pick(const QPoint& pos);
  void hoverAt(const QPointF& pos);
  double worldPerPixel() const;
  osg::Vec3d eyeDirection() const;  // unit vector from the centre to the eye

  osg::ref_ptr<osgViewer::Viewer> viewer_;
  osg::ref_ptr<osgViewer::GraphicsWindowEmbedded> window_;
  osg::ref_ptr<osg::Group> root_;  // background, then the scene
  osg::ref_ptr<osg::Node> scene_;
  osg::ref_ptr<osg::Node> overlay_;
  ViewportInteractor* interactor_ = nullptr;
  bool gl_ready_ = false;

  // Turntable camera: the eye orbits `center_` at `distance_`.
  osg::Vec3d up_{0, 1, 0}, toward_viewer_{0, 0, 1}, right_{1, 0, 0};
  osg::Vec3d center_;
  double distance_ = 2.0, yaw_ = 0.0, pitch_ = 0.0;
  bool fitted_ = false;      // as fitToView() left it: refitted when the widget is resized
  osg::BoundingBox motion_;  // world: the mechanism's bounds shown since the last fit
  bool ortho2d_ = false;

  Drag drag_ = Drag::None;
  QPoint press_pos_, last_pos_;

  long frames_ = 0;
  double last_frame_s_ = 0.0, fps_ = 0.0;
  bool timing_ = false;
  osg::Vec3d pick_point_;
  bool has_pick_point_ = false;
  QTimer* hover_timer_ = nullptr;
  QPointF hover_pos_;
  int pick_body_ = -1;
  std::vector<double> frame_times_;
  QElapsedTimer clock_;
  qint64 last_paint_ns_ = -1;
};

}  // namespace articula
