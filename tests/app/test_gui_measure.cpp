// The measure tools (issue 23, item 6) in the sketch and in the 3D view: two clicks give a
// distance, three the angle at the second, shown as a label with its unit. Clicked with
// synthesized mouse events on samples whose geometry is known independently of the tools: the
// four-bar's ground pivots 0.3 m apart and its crank at 2 asin(0.1494...) (its quaternion), the
// RSSR's ground pivots (0, 0, 0) and (0.08, 0, 0.15), 0.17 m apart (an 8-15-17 triangle). Part
// of test_gui_build3d.
#ifdef ARTICULA_GUI_BUILD3D_TEST
#include <QToolBar>
#include <cmath>

#include "core/doc/sketch_geometry.hpp"
#include "core/io/project.hpp"
#include "tests/app/build3d_support.hpp"
#include "tests/app/display_units_guard.hpp"
#include "ui/display_units.hpp"
#include "ui/document.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_measure_tool.hpp"
#include "ui/sketch_tool_bar.hpp"

using namespace articula;
using namespace articula::build3d_test;

namespace {
// The number in a reading's text ("d = 300 mm" -> 300).
double shownNumber(const QString& text) {
  const QStringList words = text.split(' ');
  REQUIRE(words.size() >= 3);
  QString number = words[2];
  number.remove(QChar(0x00B0));  // a degree sign follows the number
  bool ok = false;
  const double v = number.toDouble(&ok);
  REQUIRE(ok);
  return v;
}
}  // namespace

TEST_CASE("the sketch's Measure tool reads the four-bar's distance and crank angle",
          "[gui][sketch-measure]") {
  const test::DisplayUnitsGuard units({LengthUnit::Millimetre, AngleUnit::Degree});
  Win win;
  REQUIRE(win.w.openFile(ARTICULA_SOURCE_DIR "/samples/fourbar.json"));
  win.w.centralViews()->bringToFront(CentralViews::View::Sketch);
  SketchEditor* e = win.w.sketchEditor();
  QAction* measure = win.w.sketchToolBar()->action(SketchToolId::Measure);
  REQUIRE(measure);
  measure->trigger();
  REQUIRE(e->tool() == SketchToolId::Measure);
  const int undo = win.w.document()->undoStack()->count();
  auto click = [&](const Vec3& p) {
    QTest::mouseMove(e, e->toScreen(p).toPoint());
    QTest::mouseClick(e, Qt::LeftButton, {}, e->toScreen(p).toPoint());
    QCoreApplication::processEvents();
  };
  const Vec3 A0(0, 0, 0), B0(0.3, 0, 0);
  const Vec3 A = to_world(win.w.document()->spec(), 0, Vec3(0.1, 0, 0));  // the crank's tip
  click(B0);
  click(A0);  // snapped to the pivots: their coordinates exactly
  const auto* tool = static_cast<MeasureTool*>(e->toolById(SketchToolId::Measure));
  Measurement m = tool->reading();
  REQUIRE(m.kind == Measurement::Kind::Distance);
  CHECK(std::abs(m.value - 0.3) < 1e-9);
  CHECK(m.text.endsWith(" mm"));
  CHECK(std::abs(shownNumber(m.text) - 300) < 1e-9);
  CHECK(e->hint().startsWith(m.text));  // said in the status bar too
  win.shot("measure_sketch_distance");
  click(A);
  m = tool->reading();
  REQUIRE(m.kind == Measurement::Kind::Angle);
  const double crank = 2 * std::asin(0.14943813247359922);  // the sample's crank quaternion
  CHECK(std::abs(m.value - crank) < 1e-9);
  CHECK(std::abs(shownNumber(m.text) - crank * 180 / M_PI) < 1e-3);  // shown to 6 digits
  win.shot("measure_sketch_angle");
  CHECK(win.w.document()->undoStack()->count() == undo);  // measuring edits nothing
  click(A0);                                              // a fourth click starts again
  CHECK(tool->points().size() == 1);
}

TEST_CASE("the 3D view's Measure tool reads the RSSR's distance and angle in a label",
          "[gui][build3d-measure]") {
  const test::DisplayUnitsGuard units({});  // m and rad, whatever an earlier test left
  Win win;
  REQUIRE(win.w.openFile(ARTICULA_SOURCE_DIR "/samples/rssr.json"));
  win.w.centralViews()->bringToFront(CentralViews::View::ThreeD);
  win.v->setCamera(osg::Vec3d(0.05, 0.02, 0.08), 0.7);
  win.orbit(30, 40);
  win.tool("build3d.measure");
  const MechanismSpec& s = win.w.document()->spec();
  const Vec3 A(0, 0, 0), D(0.08, 0, 0.15), B = to_world(s, 0, Vec3(0.05, 0, 0));
  for (const Vec3& p : {A, D, B}) REQUIRE(win.b->pickAt(win.at(p)).snapped);  // exact points
  win.click(A);
  win.click(D);
  Measurement m = win.b->measurement();
  REQUIRE(m.kind == Measurement::Kind::Distance);
  CHECK(std::abs(m.value - 0.17) < 1e-9);
  QLabel* label = win.b->measureLabel();
  CHECK(label->isVisible());
  CHECK(label->text() == m.text);
  CHECK(label->text().endsWith(" m"));  // the default display unit
  CHECK(std::abs(shownNumber(label->text()) - 0.17) < 1e-9);
  CHECK(win.v->rect().contains(label->geometry()));
  win.shot("measure_3d_distance");
  // Escape clears; then D, A, B: the angle at A between the rocker's pivot and the crank's tip,
  // against acos of the cosine (far from 0 and π, where both agree to round-off).
  QTest::keyClick(win.v, Qt::Key_Escape);
  CHECK_FALSE(label->isVisible());
  win.click(D);
  win.click(A);
  win.click(B);
  m = win.b->measurement();
  REQUIRE(m.kind == Measurement::Kind::Angle);
  const Vec3 a = D - A, b = B - A;
  const double expected = std::acos(a.dot(b) / (a.norm() * b.norm()));
  CHECK(std::abs(m.value - expected) < 1e-9);
  CHECK(label->text().endsWith(" rad"));
  win.shot("measure_3d_angle");
  QTest::keyClick(win.v, Qt::Key_Escape);
  CHECK_FALSE(label->isVisible());
  CHECK(win.w.document()->undoStack()->count() == 0);
}
#endif
