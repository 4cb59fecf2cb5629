#pragma once
// The window the issue-23 GUI tests drive (tests/app/test_gui_ux*.cpp): a MainWindow at 1280 x 800
// under Xvfb, with helpers to pick a sketch tool, click at world points, read a dock's tree and
// save a screenshot under /tmp. Needs ARTICULA_SOURCE_DIR (the samples) and Qt Test.
#include <QCoreApplication>
#include <QTest>
#include <QTreeWidget>
#include <catch2/catch.hpp>

#include "tests/app/gui_wait.hpp"
#include "ui/main_window.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_tool_bar.hpp"

namespace articula::gui_test {

using Tool = SketchEditor::Tool;

inline const QString kSamples = QStringLiteral(ARTICULA_SOURCE_DIR "/samples");
inline QString sample(const char* name) {
  return kSamples + "/" + name + ".json";
}

struct Win {
  MainWindow w;
  SketchEditor* e;
  Win() {
    w.setInteractive(false);
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    e = w.sketchEditor();
  }
  void tool(Tool t) {
    w.sketchToolBar()->action(t)->trigger();
    REQUIRE(e->tool() == t);
  }
  QPoint at(double x, double y) const { return e->toScreen(Vec3(x, y, 0)).toPoint(); }
  void click(double x, double y) {
    QTest::mouseMove(e, at(x, y));
    QTest::mouseClick(e, Qt::LeftButton, {}, at(x, y));
    QCoreApplication::processEvents();
  }
  // The value shown in a dock's tree for a row named `name` (first match).
  static QString treeValue(QWidget* dock, const QString& name) {
    for (QTreeWidget* t : dock->findChildren<QTreeWidget*>())
      for (QTreeWidgetItemIterator it(t); *it; ++it)
        if ((*it)->text(0) == name) return (*it)->text(1);
    return {};
  }
  void shot(const QString& name) {
    waitFor([] { return false; }, 150);
    CHECK(w.grab().save("/tmp/articula_ux_" + name + ".png"));
  }
};

}  // namespace articula::gui_test
