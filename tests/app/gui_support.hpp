#pragma once
// Helpers shared by the GUI test files (test_gui): the samples, an event loop that waits for a
// condition, a shown main window, image statistics, running the articula executable.
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>
#include <QThread>
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/app/gui_wait.hpp"
#include "ui/main_window.hpp"

namespace articula::gui_test {

inline const QString kSamples = QStringLiteral(ARTICULA_SOURCE_DIR "/samples");
inline const QString kApp = QStringLiteral(ARTICULA_BINARY_DIR "/app/articula");

inline QString sample(const char* name) {
  return kSamples + "/" + name + ".json";
}

struct Window {
  MainWindow w;
  Window() {
    w.setInteractive(false);
    w.resize(1280, 800);
    w.show();
    REQUIRE(waitFor([&] { return w.isVisible(); }, 5000));
  }
};

struct LumaStats {
  double mean = 0, stddev = 0;
};

inline LumaStats luma(const QImage& image, const QRect& area = {}) {
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  const QRect r = area.isNull() ? img.rect() : area.intersected(img.rect());
  double sum = 0, sum2 = 0;
  const double n = static_cast<double>(r.width()) * r.height();
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) {
      const QRgb p = img.pixel(x, y);
      const double l = 0.299 * qRed(p) + 0.587 * qGreen(p) + 0.114 * qBlue(p);
      sum += l;
      sum2 += l * l;
    }
  LumaStats s;
  s.mean = sum / n;
  s.stddev = std::sqrt(std::max(0.0, sum2 / n - s.mean * s.mean));
  return s;
}

// Fraction of pixels whose luminance differs by more than 24 levels.
inline double changedFraction(const QImage& a, const QImage& b) {
  REQUIRE(a.size() == b.size());
  const QImage x = a.convertToFormat(QImage::Format_RGB32);
  const QImage y = b.convertToFormat(QImage::Format_RGB32);
  long changed = 0;
  for (int j = 0; j < x.height(); ++j)
    for (int i = 0; i < x.width(); ++i)
      changed += std::abs(qGray(x.pixel(i, j)) - qGray(y.pixel(i, j))) > 24;
  return static_cast<double>(changed) / (x.width() * x.height());
}

struct Run {
  int status = -1;
  QString output;
};

inline Run runApp(const QStringList& args) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(kApp, args);
  Run r;
  if (!p.waitForFinished(120000)) return r;
  r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  r.output = QString::fromUtf8(p.readAll());
  return r;
}

// The session the autosave test kills (test_gui --autosave-child FILE); see test_gui_autosave.cpp.
int autosaveChild(const QString& file);

}  // namespace articula::gui_test
