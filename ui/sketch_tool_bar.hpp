#pragma once
// The sketch tools as a toolbar: one checkable action per tool in the editor's list (its icon,
// name, shortcut, and a tooltip saying what it does).
#include <QToolBar>

#include "ui/sketch_editor.hpp"

class QActionGroup;

namespace articula {

class SketchToolBar : public QToolBar {
  Q_OBJECT

 public:
  SketchToolBar(SketchEditor* editor, QWidget* parent = nullptr);
  QAction* action(SketchToolId tool) const;

 private:
  SketchEditor* editor_;
  QActionGroup* group_;
  std::vector<std::pair<SketchToolId, QAction*>> actions_;
};

}  // namespace articula
