#include "ui/offscreen_gl_widget.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QPainter>
#include <QResizeEvent>
#include <cmath>

namespace articula {

OffscreenGLWidget::OffscreenGLWidget(QWidget* parent)
    : QWidget(parent), format_(QSurfaceFormat::defaultFormat()) {
  setAttribute(Qt::WA_OpaquePaintEvent);  // every pixel is painted from the frame
}

OffscreenGLWidget::~OffscreenGLWidget() {
  destroyGL();
}

void OffscreenGLWidget::setFormat(const QSurfaceFormat& format) {
  format_ = format;
}

void OffscreenGLWidget::makeCurrent() {
  if (context_) context_->makeCurrent(surface_.get());
}

void OffscreenGLWidget::doneCurrent() {
  if (context_) context_->doneCurrent();
}

unsigned OffscreenGLWidget::defaultFramebufferObject() const {
  return target_ ? target_->handle() : 0;
}

void OffscreenGLWidget::destroyGL() {
  if (!context_) return;
  makeCurrent();
  aboutToDestroyGL();
  target_.reset();
  resolved_.reset();
  doneCurrent();
  context_.reset();
  surface_.reset();
}

bool OffscreenGLWidget::ensureGL() {
  if (context_) return true;
  if (failed_) return false;
  surface_ = std::make_unique<QOffscreenSurface>();
  surface_->setFormat(format_);
  surface_->create();
  context_ = std::make_unique<QOpenGLContext>();
  context_->setFormat(format_);
  if (!surface_->isValid() || !context_->create() || !context_->makeCurrent(surface_.get())) {
    failed_ = true;  // drawn as the palette's window colour; the rest of the app still works
    context_.reset();
    surface_.reset();
    return false;
  }
  initializeGL();
  ensureTargets();
  return true;
}

bool OffscreenGLWidget::ensureTargets() {
  const double dpr = devicePixelRatioF();
  const QSize size(std::max(1, int(std::lround(width() * dpr))),
                   std::max(1, int(std::lround(height() * dpr))));
  if (target_ && target_->size() == size) return true;
  QOpenGLFramebufferObjectFormat f;
  f.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
  f.setSamples(std::max(0, format_.samples()));
  target_ = std::make_unique<QOpenGLFramebufferObject>(size, f);
  resolved_.reset();
  if (format_.samples() > 0) resolved_ = std::make_unique<QOpenGLFramebufferObject>(size);
  if (!target_->isValid()) return false;
  resizeGL(width(), height());
  return true;
}

QImage OffscreenGLWidget::renderFrame() {
  if (!ensureGL()) return {};
  makeCurrent();
  if (!ensureTargets()) return {};
  target_->bind();
  paintGL();
  QOpenGLFramebufferObject* read = target_.get();
  if (resolved_) {
    QOpenGLFramebufferObject::blitFramebuffer(resolved_.get(), target_.get());
    read = resolved_.get();
  }
  QImage image = read->toImage(true);  // flipped: OpenGL counts rows upwards
  QOpenGLFramebufferObject::bindDefault();
  image.setDevicePixelRatio(devicePixelRatioF());
  return image;
}

QImage OffscreenGLWidget::grabFramebuffer() {
  return renderFrame();
}

void OffscreenGLWidget::showEvent(QShowEvent* e) {
  ensureGL();  // as QOpenGLWidget: initialized once shown, before the first paint
  QWidget::showEvent(e);
}

void OffscreenGLWidget::resizeEvent(QResizeEvent* e) {
  if (context_) {
    makeCurrent();
    ensureTargets();
  }
  QWidget::resizeEvent(e);
}

void OffscreenGLWidget::paintEvent(QPaintEvent*) {
  QImage frame = renderFrame();
  QPainter p(this);
  if (frame.isNull()) return p.fillRect(rect(), palette().window());
  // Painted as opaque (a copy, not a blend): the widget covers what is under it, and the 3-D
  // view keeps alpha at 1 (gui: screenshot checks its frames).
  if (frame.format() == QImage::Format_ARGB32_Premultiplied)
    frame.reinterpretAsFormat(QImage::Format_RGB32);
  p.drawImage(QPointF(0, 0), frame);
}

}  // namespace articula
