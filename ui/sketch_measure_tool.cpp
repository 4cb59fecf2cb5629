#include "ui/sketch_measure_tool.hpp"

#include <QPainter>

#include "ui/sketch_editor.hpp"

namespace articula {

namespace {
const QColor kMeasure(150, 30, 160);
}  // namespace

MeasureTool::MeasureTool(SketchEditor* editor)
    : SketchTool(editor, SketchToolId::Measure, tr("Measure"),
                 tr("Click two points for their distance, a third for the angle at the second"),
                 Qt::Key_E) {}

QIcon MeasureTool::icon() const {
  return paintedIcon([](QPainter& p) {
    p.setPen(QPen(kMeasure, 2.5, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(5, 26, 27, 26);  // a rule with ticks, and an angle's arc
    for (int x : {5, 11, 16, 21, 27}) p.drawLine(x, 26, x, x % 2 ? 20 : 22);
    p.drawLine(5, 17, 27, 5);
    p.drawArc(QRectF(-5, 7, 20, 20), 0, 29 * 16);
  });
}

QString MeasureTool::hint() const {
  const Measurement m = reading();
  switch (points_.size()) {
    case 0:
      return tr("Measure: click the first point");
    case 1:
      return tr("Measure: click the second point (distance)");
    case 2:
      return tr("%1 — click a third point for the angle at the second, Esc to clear").arg(m.text);
    default:
      return tr("%1 at the second point — click to measure again, Esc to clear").arg(m.text);
  }
}

void MeasureTool::mousePress(const SketchMouse& m) {
  if (points_.size() >= 3) points_.clear();
  points_.push_back(m.snap.p);
}

void MeasureTool::paintOverlay(QPainter& p) const {
  if (points_.empty()) return;
  auto s = [this](const Vec3& w) { return editor_->toScreen(w); };
  p.setPen(QPen(kMeasure, 2, Qt::DashLine, Qt::RoundCap));
  p.setBrush(Qt::NoBrush);
  for (std::size_t i = 0; i + 1 < points_.size(); ++i) p.drawLine(s(points_[i]), s(points_[i + 1]));
  if (points_.size() < 3) p.drawLine(s(points_.back()), s(editor_->hover().p));
  for (const Vec3& q : points_) p.drawEllipse(s(q), 4, 4);
  const Measurement m = reading();
  if (m.kind == Measurement::Kind::None) return;
  // The label beside the segment's middle (distance) or the vertex (angle), on a light box so
  // that links under it do not hide it.
  const QPointF at = m.kind == Measurement::Kind::Distance
                         ? 0.5 * (s(points_[0]) + s(points_[1])) + QPointF(10, -10)
                         : s(points_[1]) + QPointF(12, -12);
  QFont f = p.font();
  f.setBold(true);
  p.setFont(f);
  QRectF box = p.fontMetrics().boundingRect(m.text);
  box.moveBottomLeft(at);
  box.adjust(-4, -2, 4, 2);
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(255, 255, 255, 220));
  p.drawRoundedRect(box, 3, 3);
  p.setPen(kMeasure.darker(140));
  p.drawText(box, Qt::AlignCenter, m.text);
}

}  // namespace articula
