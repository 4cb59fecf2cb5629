#include "ui/video_export.hpp"

#include <QApplication>
#include <QImage>
#include <QPixmap>
#include <cmath>

#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport_panel.hpp"
#include "video/video_encoder.hpp"

namespace articula {

int VideoSettings::frameCount() const {
  return std::max(1, static_cast<int>(std::lround(duration * fps / speed)));
}

VideoResult exportVideo(MainWindow& window, const VideoSettings& s,
                        const std::function<bool(int, int)>& progress) {
  VideoResult result;
  if (s.fps <= 0 || !(s.speed > 0) || !(s.duration >= 0)) {
    result.error = QObject::tr("bad frame rate, speed or duration");
    return result;
  }
  QWidget* source = s.whole_window ? static_cast<QWidget*>(&window) : window.viewport();
  const QSize size = s.size.isValid() ? s.size : source->size();
  const int n = s.frameCount();
  try {
    VideoEncoder encoder(s.path.toStdString(), size.width(), size.height(), s.fps);
    for (int k = 0; k < n; ++k) {
      window.controller()->showTime(k * s.speed / s.fps);
      QApplication::processEvents();
      // grab() draws the widget now (the GL view included), at the display's current state
      const QImage image = source->grab().toImage().convertToFormat(QImage::Format_RGB32);
      encoder.add_frame(image.constBits(), image.width(), image.height(),
                        static_cast<int>(image.bytesPerLine()));
      if (progress && !progress(k + 1, n)) {
        result.cancelled = true;
        return result;  // the encoder removes its partial file
      }
    }
    encoder.finish();
    result.frames = encoder.frames();
    result.size = QSize(encoder.width(), encoder.height());
  } catch (const VideoError& e) {
    result.error = QString::fromStdString(e.what());
  }
  return result;
}

}  // namespace articula
