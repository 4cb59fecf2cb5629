#pragma once
// The sketch tools in one list: what the tool bar shows (name, hint, shortcut) for each tool, in
// tool-bar order. A new tool is an entry here, its icon and what it does on a click.
#include <QKeySequence>
#include <QString>
#include <vector>

#include "ui/sketch_editor.hpp"

namespace articula {

struct SketchToolInfo {
  SketchEditor::Tool tool;
  QString name;
  QString hint;  // what to do with it (status bar, tooltip)
  QKeySequence key;
};

const std::vector<SketchToolInfo>& sketchTools();
const SketchToolInfo& sketchTool(SketchEditor::Tool tool);

}  // namespace articula
