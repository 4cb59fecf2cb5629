#include "ui/sketch_tool_bar.hpp"

#include <QActionGroup>
#include <QPainter>
#include <QPainterPath>

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
  const std::pair<Tool, QKeySequence> tools[] = {
      {Tool::Select, Qt::Key_S},       {Tool::GroundPivot, Qt::Key_G}, {Tool::Link, Qt::Key_L},
      {Tool::Ternary, Qt::Key_T},      {Tool::Pin, Qt::Key_P},         {Tool::Slider, Qt::Key_D},
      {Tool::GroundSlider, Qt::Key_R}, {Tool::Motor, Qt::Key_M},       {Tool::Delete, Qt::Key_X}};
  for (const auto& [tool, key] : tools) {
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
