#include "ui/sketch_stamps.hpp"

#include <QLineF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace articula {

void CircleStamps::circle(QPainter& p, const QPointF& at, double radius, const QPen& pen,
                          const QColor& fill, double dpr) {
  const double pen_width = pen.style() == Qt::NoPen ? 0.0 : pen.widthF();
  const Key key{radius, pen_width, dpr, pen.style() == Qt::NoPen ? 0u : pen.color().rgba(),
                fill.rgba()};
  auto it =
      std::find_if(stamps_.begin(), stamps_.end(), [&](const auto& s) { return s.first == key; });
  if (it == stamps_.end()) {
    const double half = std::ceil(radius + pen_width) + 1;
    QPixmap stamp(QSize(int(2 * half * dpr), int(2 * half * dpr)));
    stamp.setDevicePixelRatio(dpr);
    stamp.fill(Qt::transparent);
    QPainter s(&stamp);
    s.setRenderHint(QPainter::Antialiasing);
    s.setPen(pen);
    s.setBrush(fill == Qt::transparent ? QBrush(Qt::NoBrush) : QBrush(fill));
    s.drawEllipse(QPointF(half, half), radius, radius);
    s.end();
    stamps_.emplace_back(key, stamp);
    it = stamps_.end() - 1;
  }
  const double half = it->second.width() / (2 * it->second.devicePixelRatio());
  p.drawPixmap(at - QPointF(half, half), it->second);
}

void CircleStamps::link(QPainter& p, const QPointF& a, const QPointF& b, double width,
                        const QColor& c, double dpr) {
  const double length = QLineF(a, b).length();
  if (length > kMaxStampedLength) return p.drawLine(a, b);
  const int steps = std::max(1, int(std::ceil(length / 2)));
  for (int k = 0; k <= steps; ++k)
    circle(p, a + (b - a) * (double(k) / steps), 0.5 * width, QPen(Qt::NoPen), c, dpr);
}

}  // namespace articula
