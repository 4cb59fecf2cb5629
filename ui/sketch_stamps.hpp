#pragma once
// Antialiased circles drawn once into a pixmap and stamped (drawPixmap) wherever they are needed:
// the sketch of a 1,000-body mechanism draws ~3,000 joint and link-point circles and ~1,100 short
// links a frame, and one drawEllipse or one stroked line each cost most of its frame.
#include <QColor>
#include <QPen>
#include <QPixmap>
#include <QPointF>
#include <vector>

class QPainter;

namespace articula {

class CircleStamps {
 public:
  // A circle of `radius` (logical px) at `at`, outlined with `pen` and filled with `fill`
  // (Qt::transparent: none), for a device of pixel ratio `dpr`.
  void circle(QPainter& p, const QPointF& at, double radius, const QPen& pen, const QColor& fill,
              double dpr);
  // A round-capped line of `width` from a to b: when at most kMaxStampedLength long, discs of
  // its width stamped along it at most 2 px apart (the union's outline lies within
  // r - sqrt(r^2 - 1) of the stroke's: 0.11 px for 9 px), else stroked with p's current pen.
  // A zero-length line draws nothing, as QPainter's.
  void link(QPainter& p, const QPointF& a, const QPointF& b, double width, const QColor& c,
            double dpr);
  static constexpr double kMaxStampedLength = 12;  // px: a dozen stamps at most

 private:
  // Compared as numbers: a formatted string key cost a few microseconds a stamp.
  struct Key {
    double radius = 0, width = 0, dpr = 1;
    QRgb pen = 0, fill = 0;
    int phase_x = 0, phase_y = 0;  // quarter device pixels
    bool operator==(const Key&) const = default;
  };
  std::vector<std::pair<Key, QPixmap>> stamps_;
};

}  // namespace articula
