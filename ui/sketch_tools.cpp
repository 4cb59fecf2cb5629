#include "ui/sketch_tools.hpp"

#include <QCoreApplication>

namespace articula {

namespace {
QString tr(const char* s) {
  return QCoreApplication::translate("SketchEditor", s);
}

std::vector<SketchToolInfo> makeTools() {
  using T = SketchEditor::Tool;
  return {
      {T::Select, tr("Select / drag"),
       tr("Click to select; drag a point to move the mechanism; Shift+drag to move the point "
          "itself"),
       Qt::Key_S},
      {T::GroundPivot, tr("Ground pivot"), tr("Click to place a fixed pivot on the ground"),
       Qt::Key_G},
      {T::Link, tr("Link"),
       tr("Click the two ends of a new link; ends on existing points are pinned there (hold Alt "
          "not to pin)"),
       Qt::Key_L},
      {T::Ternary, tr("Ternary link"), tr("Click the three corners of a new ternary link"),
       Qt::Key_T},
      {T::Pin, tr("Pin"), tr("Click a point where two links meet to pin them together"), Qt::Key_P},
      {T::Slider, tr("Slider on link"),
       tr("Click on a link to put a slider on it (moves along the link)"), Qt::Key_D},
      {T::GroundSlider, tr("Ground slider"),
       tr("Click where the slider sits, then a second point giving the direction it slides"),
       Qt::Key_R},
      {T::Motor, tr("Motor"),
       tr("Click a pivot to drive it at one turn per second (click again to remove)"), Qt::Key_M},
      {T::Gear, tr("Gear pair"),
       tr("Click two pivots: their links mesh as gears whose pitch circles touch (ratio −rA/rB, "
          "edit it in Properties)"),
       Qt::Key_W},
      {T::Belt, tr("Belt"),
       tr("Click two pivots: a belt turns both the same way (ratio rA/rB, edit it in Properties)"),
       Qt::Key_B},
      {T::Rack, tr("Rack and pinion"),
       tr("Click a pinion's pivot, then a slider: the slider moves rA per radian the pinion turns"),
       Qt::Key_K},
      {T::Delete, tr("Delete"), tr("Click a link, a joint, a gear or a ground pivot to delete it"),
       Qt::Key_X},
  };
}
}  // namespace

const std::vector<SketchToolInfo>& sketchTools() {
  static const std::vector<SketchToolInfo> tools = makeTools();
  return tools;
}

const SketchToolInfo& sketchTool(SketchEditor::Tool tool) {
  for (const SketchToolInfo& t : sketchTools())
    if (t.tool == tool) return t;
  return sketchTools().front();
}

QString SketchEditor::toolName(Tool t) {
  return sketchTool(t).name;
}

QString SketchEditor::toolHint(Tool t) {
  return sketchTool(t).hint;
}

}  // namespace articula
