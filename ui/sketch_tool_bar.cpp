#include "ui/sketch_tool_bar.hpp"

#include <QActionGroup>
#include <QPainter>
#include <QPainterPath>

#include "ui/sketch_tools.hpp"

namespace articula {

namespace {
using Tool = SketchEditor::Tool;

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

void bar(QPainter& p, QPointF a, QPointF b, QColor c = QColor(60, 90, 140)) {
  p.setPen(QPen(c, 5, Qt::SolidLine, Qt::RoundCap));
  p.drawLine(a, b);
}

void pin(QPainter& p, QPointF at, QColor fill = Qt::white) {
  p.setPen(QPen(QColor(30, 30, 30), 1.5));
  p.setBrush(fill);
  p.drawEllipse(at, 3.5, 3.5);
}
// Two pitch circles touching (gear), two pulleys and a belt, a pinion on a toothed rack.
void couplingIcon(QPainter& p, Tool tool) {
  const QColor ink(120, 80, 20);
  p.setPen(QPen(ink, 2));
  p.setBrush(Qt::NoBrush);
  if (tool == Tool::Gear) {
    p.drawEllipse(QPointF(11, 16), 8, 8), p.drawEllipse(QPointF(25, 16), 6, 6);
  } else if (tool == Tool::Belt) {
    p.drawEllipse(QPointF(8, 16), 6, 6), p.drawEllipse(QPointF(25, 16), 5, 5);
    p.drawLine(QPointF(8, 10), QPointF(25, 11)), p.drawLine(QPointF(8, 22), QPointF(25, 21));
  } else {
    p.drawEllipse(QPointF(16, 12), 8, 8);
    p.drawLine(2, 24, 30, 24);
    for (int x = 4; x < 30; x += 4) p.drawLine(x, 24, x, 28);
  }
  pin(p, tool == Tool::Rack ? QPointF(16, 12) : QPointF(11, 16));
}
}  // namespace

QIcon sketchToolIcon(Tool tool) {
  QPixmap pm(32, 32);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setRenderHint(QPainter::Antialiasing);
  switch (tool) {
    case Tool::Select: {
      QPainterPath arrow;
      arrow.moveTo(8, 4);
      arrow.lineTo(8, 26);
      arrow.lineTo(13, 21);
      arrow.lineTo(17, 29);
      arrow.lineTo(20, 27);
      arrow.lineTo(16, 19);
      arrow.lineTo(23, 19);
      arrow.closeSubpath();
      p.setPen(QPen(Qt::black, 1.5));
      p.setBrush(Qt::white);
      p.drawPath(arrow);
      break;
    }
    case Tool::GroundPivot:
      ground(p, {16, 14}), pin(p, {16, 14});
      break;
    case Tool::Link:
      bar(p, {6, 24}, {26, 8}), pin(p, {6, 24}), pin(p, {26, 8});
      break;
    case Tool::Ternary: {
      QPolygonF tri({QPointF(5, 26), QPointF(27, 26), QPointF(16, 6)});
      p.setPen(QPen(QColor(60, 90, 140), 4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
      p.setBrush(QColor(160, 180, 210));
      p.drawPolygon(tri);
      for (const QPointF& q : tri) pin(p, q);
      break;
    }
    case Tool::Pin:
      bar(p, {4, 26}, {16, 16}), bar(p, {16, 16}, {28, 24}, QColor(90, 130, 70)), pin(p, {16, 16});
      break;
    case Tool::Slider:
      bar(p, {3, 22}, {29, 10});
      p.setPen(QPen(QColor(30, 30, 30), 1.5));
      p.setBrush(QColor(150, 175, 215));
      p.save(), p.translate(16, 16), p.rotate(-25), p.drawRect(QRectF(-7, -5, 14, 10)), p.restore();
      break;
    case Tool::GroundSlider:
      p.setPen(QPen(QColor(80, 80, 80), 2));
      p.drawLine(2, 22, 30, 22);
      for (int x = 4; x < 30; x += 5) p.drawLine(x, 27, x + 4, 22);
      p.setPen(QPen(QColor(30, 30, 30), 1.5));
      p.setBrush(QColor(150, 175, 215));
      p.drawRect(QRectF(9, 12, 14, 10));
      break;
    case Tool::Motor:
      p.setPen(QPen(QColor(200, 120, 0), 2.5));
      p.drawArc(QRectF(5, 5, 22, 22), 30 * 16, 270 * 16);
      p.setBrush(QColor(245, 190, 40));
      p.setPen(QPen(QColor(30, 30, 30), 1.5));
      p.drawEllipse(QPointF(16, 16), 5, 5);
      break;
    case Tool::Gear:
    case Tool::Belt:
    case Tool::Rack:
      couplingIcon(p, tool);
      break;
    case Tool::Delete:
      p.setPen(QPen(QColor(200, 40, 40), 4, Qt::SolidLine, Qt::RoundCap));
      p.drawLine(8, 8, 24, 24);
      p.drawLine(24, 8, 8, 24);
      break;
  }
  return QIcon(pm);
}

SketchToolBar::SketchToolBar(SketchEditor* editor, QWidget* parent)
    : QToolBar(tr("Sketch"), parent), editor_(editor), group_(new QActionGroup(this)) {
  setObjectName("SketchToolBar");
  setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
  setIconSize(QSize(28, 28));
  for (const SketchToolInfo& info : sketchTools()) {
    const Tool tool = info.tool;
    const QKeySequence key = info.key;
    QAction* a = addAction(sketchToolIcon(tool), SketchEditor::toolName(tool));
    a->setCheckable(true);
    a->setShortcut(key);
    a->setToolTip(
        QStringLiteral("<b>%1</b> (%2)<br>%3")
            .arg(SketchEditor::toolName(tool), key.toString(), SketchEditor::toolHint(tool)));
    a->setStatusTip(SketchEditor::toolHint(tool));
    group_->addAction(a);
    actions_.emplace_back(tool, a);
    connect(a, &QAction::triggered, editor_, [this, t = tool] { editor_->setTool(t); });
  }
  action(editor_->tool())->setChecked(true);
  connect(editor_, &SketchEditor::toolChanged, this,
          [this](Tool t) { action(t)->setChecked(true); });
}

QAction* SketchToolBar::action(Tool tool) const {
  for (const auto& [t, a] : actions_)
    if (t == tool) return a;
  return nullptr;
}

}  // namespace articula
