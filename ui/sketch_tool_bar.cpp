#include "ui/sketch_tool_bar.hpp"

#include <QActionGroup>

namespace articula {

SketchToolBar::SketchToolBar(SketchEditor* editor, QWidget* parent)
    : QToolBar(tr("Sketch"), parent), editor_(editor), group_(new QActionGroup(this)) {
  setObjectName("SketchToolBar");
  setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
  setIconSize(QSize(28, 28));
  for (const SketchTool* tool : editor_->tools()) {
    QAction* a = addAction(tool->icon(), tool->name());
    a->setCheckable(true);
    a->setShortcut(tool->shortcut());
    a->setToolTip(QStringLiteral("<b>%1</b> (%2)<br>%3")
                      .arg(tool->name(), tool->shortcut().toString(), tool->description()));
    a->setStatusTip(tool->description());
    group_->addAction(a);
    actions_.emplace_back(tool->id(), a);
    connect(a, &QAction::triggered, editor_, [this, id = tool->id()] { editor_->setTool(id); });
  }
  action(editor_->tool())->setChecked(true);
  connect(editor_, &SketchEditor::toolChanged, this,
          [this](SketchToolId t) { action(t)->setChecked(true); });
}

QAction* SketchToolBar::action(SketchToolId tool) const {
  for (const auto& [t, a] : actions_)
    if (t == tool) return a;
  return nullptr;
}

}  // namespace articula
