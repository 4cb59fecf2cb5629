#pragma once
// The sketch tools as a toolbar: one checkable action per tool, each with a drawn icon, a tooltip
// saying what it does and a shortcut (S, G, L, T, P, D, R, M, Del).
#include <QToolBar>

#include "ui/sketch_editor.hpp"

class QActionGroup;

namespace articula {

class SketchToolBar : public QToolBar {
  Q_OBJECT

 public:
  SketchToolBar(SketchEditor* editor, QWidget* parent = nullptr);
  QAction* action(SketchEditor::Tool tool) const;

 private:
  SketchEditor* editor_;
  QActionGroup* group_;
  std::vector<std::pair<SketchEditor::Tool, QAction*>> actions_;
};

// A 32 px pictogram of a tool.
QIcon sketchToolIcon(SketchEditor::Tool tool);

}  // namespace articula
