#include "ui/sketch_tool.hpp"

#include <QCoreApplication>
#include <QLineF>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <algorithm>

namespace articula {

SketchTool::SketchTool(SketchEditor* editor, SketchToolId id, QString name, QString description,
                       QKeySequence shortcut)
    : editor_(editor),
      id_(id),
      name_(std::move(name)),
      description_(std::move(description)),
      shortcut_(std::move(shortcut)) {}

QString SketchTool::tr(const char* text) {
  return QCoreApplication::translate("SketchEditor", text);
}

double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b, double* u_out) {
  const QPointF d = b - a;
  const double len2 = QPointF::dotProduct(d, d);
  const double u = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / len2, 0.0, 1.0) : 0.0;
  if (u_out) *u_out = u;
  return QLineF(p, a + u * d).length();
}

QIcon paintedIcon(const std::function<void(QPainter&)>& paint) {
  QPixmap pm(32, 32);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setRenderHint(QPainter::Antialiasing);
  paint(p);
  p.end();
  return QIcon(pm);
}

namespace icon_parts {
void ground(QPainter& p, QPointF at) {
  p.setPen(QPen(QColor(80, 80, 80), 1.5));
  p.setBrush(QColor(200, 200, 200));
  QPainterPath tri;
  tri.moveTo(at);
  tri.lineTo(at + QPointF(-6, 9));
  tri.lineTo(at + QPointF(6, 9));
  tri.closeSubpath();
  p.drawPath(tri);
  p.drawLine(at + QPointF(-9, 9), at + QPointF(9, 9));
}

void bar(QPainter& p, QPointF a, QPointF b, QColor c) {
  p.setPen(QPen(c, 5, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(a, b);
}

void pin(QPainter& p, QPointF at, QColor fill) {
  p.setPen(QPen(QColor(30, 30, 30), 1.5));
  p.setBrush(fill);
  p.drawEllipse(at, 3.5, 3.5);
}
}  // namespace icon_parts

}  // namespace articula
