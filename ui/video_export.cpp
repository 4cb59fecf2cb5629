#include "ui/video_export.hpp"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QThread>
#include <cmath>

#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport_panel.hpp"
#include "video/video_encoder.hpp"

namespace articula {

int VideoSettings::frameCount() const {
  return std::max(1, static_cast<int>(std::lround(duration * fps / speed)));
}

namespace {

// Lays the window out so that the grabbed widget has the video's size: the 3D camera then projects
// with the frame's aspect ratio. Grabbing the on-screen size and letting the encoder scale it to
// --size stretched the picture (issue 22: round wheels came out as ellipses).
// Splitters share out extra space between their panes, so this corrects a few times.
void fitSource(MainWindow& window, QWidget* source, const QSize& size) {
  for (int round = 0; round < 8 && source->size() != size; ++round) {
    window.resize(window.size() + size - source->size());
    QApplication::processEvents(QEventLoop::AllEvents, 50);
    QThread::msleep(20);  // the X server answers the resize asynchronously
    QApplication::processEvents();
  }
}

// The grabbed frame as exactly `size` pixels without distortion: when the window could not take the
// requested size (minimum sizes, high-DPI grabs) the image is scaled with its aspect ratio kept and
// centred on its own corner colour (the view's background), so the whole mechanism stays framed.
QImage framed(const QImage& image, const QSize& size) {
  if (image.size() == size) return image;
  QImage canvas(size, QImage::Format_RGB32);
  canvas.fill(image.isNull() ? QColor(Qt::black) : image.pixelColor(0, 0));
  const QImage scaled = image.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
  QPainter painter(&canvas);
  painter.drawImage((size.width() - scaled.width()) / 2, (size.height() - scaled.height()) / 2,
                    scaled);
  return canvas;
}

}  // namespace

VideoResult exportVideo(MainWindow& window, const VideoSettings& s,
                        const std::function<bool(int, int)>& progress) {
  VideoResult result;
  if (s.fps <= 0 || !(s.speed > 0) || !(s.duration >= 0)) {
    result.error = QObject::tr("bad frame rate, speed or duration");
    return result;
  }
  QWidget* source =
      s.whole_window ? static_cast<QWidget*>(&window) : window.viewport()->pictureWidget();
  const QSize size = s.size.isValid() ? s.size : source->size();
  const QSize window_size = window.size();
  if (size != source->size()) fitSource(window, source, size);
  const int n = s.frameCount();
  const auto restore = [&] {
    if (window.size() != window_size) window.resize(window_size);
  };
  try {
    VideoEncoder encoder(s.path.toStdString(), size.width(), size.height(), s.fps);
    for (int k = 0; k < n; ++k) {
      window.controller()->showTime(k * s.speed / s.fps);
      QApplication::processEvents();
      // grab() draws the widget now (the GL view included), at the display's current state
      const QImage image =
          framed(source->grab().toImage().convertToFormat(QImage::Format_RGB32), size);
      encoder.add_frame(image.constBits(), image.width(), image.height(),
                        static_cast<int>(image.bytesPerLine()));
      if (progress && !progress(k + 1, n)) {
        result.cancelled = true;
        restore();
        return result;  // the encoder removes its partial file
      }
    }
    encoder.finish();
    result.frames = encoder.frames();
    result.size = QSize(encoder.width(), encoder.height());
  } catch (const VideoError& e) {
    result.error = QString::fromStdString(e.what());
  }
  restore();
  return result;
}

}  // namespace articula
