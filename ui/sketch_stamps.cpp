#include "ui/sketch_stamps.hpp"

#include <QLineF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace articula {

void CircleStamps::circle(QPainter& p, const QPointF& at, double radius, const QPen& pen,
                          const QColor& fill, double dpr) {
  const double pen_width = pen.style() == Qt::NoPen ? 0.0 : pen.widthF();
  const double half = std::ceil(radius + pen_width) + 1;  // logical px, a margin of 1 px
  // The stamp lands on whole device pixels; the circle is drawn into it at the quarter pixel
  // nearest the wanted centre's fraction (at most 1/8 px off, not the 1/2 px of rounding).
  const QPointF corner = (at - QPointF(half, half)) * dpr;
  int ix = int(std::floor(corner.x())), iy = int(std::floor(corner.y()));
  int fx = int(std::lround(4 * (corner.x() - ix))), fy = int(std::lround(4 * (corner.y() - iy)));
  if (fx == 4) fx = 0, ++ix;
  if (fy == 4) fy = 0, ++iy;
  const Key key{radius,      pen_width, dpr, pen.style() == Qt::NoPen ? 0u : pen.color().rgba(),
                fill.rgba(), fx,        fy};
  auto it =
      std::find_if(stamps_.begin(), stamps_.end(), [&](const auto& s) { return s.first == key; });
  if (it == stamps_.end()) {
    QPixmap stamp(QSize(int(2 * half * dpr) + 1, int(2 * half * dpr) + 1));
    stamp.setDevicePixelRatio(dpr);
    stamp.fill(Qt::transparent);
    QPainter s(&stamp);
    s.setRenderHint(QPainter::Antialiasing);
    s.setPen(pen);
    s.setBrush(fill == Qt::transparent ? QBrush(Qt::NoBrush) : QBrush(fill));
    s.drawEllipse(QPointF(half + 0.25 * fx / dpr, half + 0.25 * fy / dpr), radius, radius);
    s.end();
    stamps_.emplace_back(key, stamp);
    it = stamps_.end() - 1;
  }
  p.drawPixmap(QPointF(ix / dpr, iy / dpr), it->second);
}

void CircleStamps::link(QPainter& p, const QPointF& a, const QPointF& b, double width,
                        const QColor& c, double dpr) {
  const double length = QLineF(a, b).length();
  if (length > kMaxStampedLength || length == 0) return p.drawLine(a, b);
  const int steps = std::max(1, int(std::ceil(length / 2)));
  for (int k = 0; k <= steps; ++k)
    circle(p, a + (b - a) * (double(k) / steps), 0.5 * width, QPen(Qt::NoPen), c, dpr);
}

}  // namespace articula
