#pragma once
// A widget drawn by OpenGL into its own framebuffer object and shown as an image, with the parts
// of QOpenGLWidget's interface the 3-D view uses (initializeGL, resizeGL, paintGL, makeCurrent,
// defaultFramebufferObject, grabFramebuffer). Why not QOpenGLWidget: a window holding one is
// composed by OpenGL as a whole at every repaint (Qt 6's texture-backed flush): under a software
// rasteriser (llvmpipe, Xvfb) a 1280x800 window costs ~1 M textured pixels and a full-window
// swap per frame even when only the small 3-D view changed, which held the four-bar at ~41 fps
// and the 1,000-body ladder at 22. Read back and painted, the view is an ordinary raster widget:
// the window flushes only what changed.
#include <QImage>
#include <QSurfaceFormat>
#include <QWidget>
#include <memory>

class QOffscreenSurface;
class QOpenGLContext;
class QOpenGLFramebufferObject;

namespace articula {

class OffscreenGLWidget : public QWidget {
  Q_OBJECT

 public:
  explicit OffscreenGLWidget(QWidget* parent = nullptr);
  ~OffscreenGLWidget() override;

  void setFormat(const QSurfaceFormat& format);  // before the widget is first shown
  QSurfaceFormat format() const { return format_; }
  QOpenGLContext* context() const { return context_.get(); }
  void makeCurrent();  // the context on its offscreen surface (no-op without a context)
  void doneCurrent();
  unsigned defaultFramebufferObject() const;  // where paintGL draws
  QImage grabFramebuffer();                   // draws a frame now and returns it

 protected:
  virtual void initializeGL() {}
  virtual void resizeGL(int, int) {}
  virtual void paintGL() {}
  // Called before the context is destroyed (current), to free GL objects.
  virtual void aboutToDestroyGL() {}
  void showEvent(QShowEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void paintEvent(QPaintEvent* e) override;
  void destroyGL();  // for the subclass's destructor: its GL objects go while it still exists

 private:
  bool ensureGL();       // creates the context on first use; false when OpenGL is unavailable
  bool ensureTargets();  // framebuffers of the widget's size in device pixels
  QImage renderFrame();  // paintGL into the targets, resolved and read back
  QSurfaceFormat format_;
  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOffscreenSurface> surface_;
  std::unique_ptr<QOpenGLFramebufferObject> target_, resolved_;  // resolved_: when multisampled
  bool failed_ = false;
};

}  // namespace articula
