#pragma once
// A dock's contents in a frameless scroll area, so that the dock's rows of controls do not set a
// minimum size on the window (it must still shrink to any --size, e.g. for video export).
#include <QFrame>
#include <QScrollArea>

namespace articula {

inline QScrollArea* shrinkable(QWidget* contents) {
  auto* area = new QScrollArea;
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  area->setWidget(contents);
  return area;
}

}  // namespace articula
