#pragma once
// Drawing in the sketch editor of a main window as a user does (tool bar actions, clicks at world
// points), with every state recorded for undo/redo checks and screenshots to
// /tmp/articula_sketch_<prefix>_NN_<what>.png. Shared by the sketch GUI tests (test_gui_sketch*).
#include <QApplication>
#include <QTest>
#include <QUndoStack>
#include <catch2/catch.hpp>

#include "tests/app/gui_wait.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_tool_bar.hpp"

namespace articula::gui_test {

using Tool = SketchEditor::Tool;

struct Sketcher {
  MainWindow w;
  SketchEditor* e;
  std::vector<MechanismSpec> states;  // after every user action
  int shots = 0;
  QString prefix;

  explicit Sketcher(QString shot_prefix = {}) : prefix(std::move(shot_prefix)) {
    w.setInteractive(false);
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.activateWindow();
    (void)QTest::qWaitForWindowActive(&w);  // shortcuts (Ctrl+Z) need the active window
    e = w.sketchEditor();
    states.push_back(w.document()->spec());
  }
  // Chooses a tool the way a user does: the toolbar button.
  void tool(Tool t) {
    w.sketchToolBar()->action(t)->trigger();
    REQUIRE(e->tool() == t);
  }
  QPoint at(double x, double y) const { return e->toScreen(Vec3(x, y, 0)).toPoint(); }
  void click(double x, double y, Qt::KeyboardModifiers mods = {}) {
    QTest::mouseMove(e, at(x, y));
    QTest::mouseClick(e, Qt::LeftButton, mods, at(x, y));
    QCoreApplication::processEvents();
  }
  void record() { states.push_back(w.document()->spec()); }
  void shot(const QString& what) {
    if (prefix.isEmpty()) return;
    waitFor([] { return false; }, 150);  // pending layout and paint events
    const QString path = QStringLiteral("/tmp/articula_sketch_%1_%2_%3.png")
                             .arg(prefix)
                             .arg(++shots, 2, 10, QChar('0'))
                             .arg(what);
    CHECK(w.grab().save(path));
  }
  const SketchStatus& status() const { return w.document()->status(); }
  // Undo back to empty and redo to the end, comparing the document with every recorded state.
  void undoRedoAll() {
    QUndoStack* undo = w.document()->undoStack();
    REQUIRE(undo->count() == static_cast<int>(states.size()) - 1);
    for (int i = static_cast<int>(states.size()) - 1; i > 0; --i) {
      REQUIRE(w.document()->spec() == states[i]);
      undo->undo();
    }
    REQUIRE(w.document()->spec() == states[0]);
    CHECK(w.document()->spec().bodies.empty());
    for (std::size_t i = 1; i < states.size(); ++i) {
      undo->redo();
      REQUIRE(w.document()->spec() == states[i]);
    }
  }
};

}  // namespace articula::gui_test
