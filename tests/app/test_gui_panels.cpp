// Issue 23's panels, each defect reproduced first: the plots (channels kept across an edit),
// the drive editor (the refusal beside Apply, a stale refusal), and the habits (display units in
// the Properties, the status bar and the plots; the cursor's coordinates in the status bar).
// Under Xvfb with synthesized events; built only as its own target (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QTest>
#include <QTreeWidget>
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/sim/mechanism.hpp"
#include "tests/app/gui_wait.hpp"
#include "ui/application.hpp"
#include "ui/cursor_readout.hpp"
#include "ui/display_units.hpp"
#include "ui/document.hpp"
#include "ui/drive_preview.hpp"
#include "ui/edit_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/motion_law_form.hpp"
#include "ui/plot_dock.hpp"
#include "ui/plot_widget.hpp"
#include "ui/preferences_dialog.hpp"
#include "ui/properties_dock.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_tool_bar.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_status_dock.hpp"
#include "ui/viewport_panel.hpp"
#include "ui/welcome_dialog.hpp"
#ifdef ARTICULA_HAVE_RENDER
#include "ui/viewport_widget.hpp"
#endif

using namespace articula;
using gui_test::waitFor;
using Q = Channel::Quantity;

namespace {

QString sample(const char* name) {
  return QStringLiteral(ARTICULA_SOURCE_DIR "/samples/") + name + ".json";
}

struct Win {
  MainWindow w;
  Win() {
    w.setInteractive(false);
    w.resize(1280, 800);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
  }
  // Every plot's channel keys ("A0.tau"), plot by plot.
  std::vector<QStringList> plotKeys() const {
    std::vector<QStringList> out;
    for (const PlotWidget* p : w.plotDock()->plots()) {
      QStringList keys;
      for (const Channel& c : p->channels()) keys << channelKey(c, *w.document()->simulated());
      out.push_back(keys);
    }
    return out;
  }
  EditPanel* selectJoint(int joint) {
    w.document()->setSelection({-1, joint});
    QCoreApplication::processEvents();
    return w.properties()->editor();
  }
};

// The value shown in a dock's tree for a row named `name` (first match).
QString treeValue(QWidget* dock, const QString& name) {
  for (QTreeWidget* t : dock->findChildren<QTreeWidget*>())
    for (QTreeWidgetItemIterator it(t); *it; ++it)
      if ((*it)->text(0) == name) return (*it)->text(1);
  return {};
}

}  // namespace

TEST_CASE("a drive applied in the properties keeps the channels added to the plots",
          "[gui][ux-panels]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  win.w.plotDock()->setCurrentPlot(win.w.plotDock()->plots().front());
  win.w.plotDock()->plotChannel({Q::Qd, 3, 0});                   // the rocker's rate, added
  win.w.plotDock()->plotChannel({Q::Q, 2, 0}, /*newPlot=*/true);  // and a plot of its own
  const std::vector<QStringList> before = win.plotKeys();
  REQUIRE(before.size() == 3);
  REQUIRE(before[0].contains("B0.qd"));
  EditPanel* p = win.selectJoint(0);
  REQUIRE(p->setField("Drive expression", "0.3 + 3*pi*t"));
  REQUIRE(p->apply());
  QCoreApplication::processEvents();
  CHECK(win.plotKeys() == before);
  CHECK(win.w.plotDock()->plots().front()->title() == "Drive torque");
  // The kept plots are filled from the new run.
  win.w.controller()->runFor(0.1);
  waitFor([] { return false; }, 150);
  for (PlotWidget* plot : win.w.plotDock()->plots()) CHECK(plot->sampleCount() == 101);
  // Opening a project is not an edit: the defaults again (the drive torque and two reactions).
  REQUIRE(win.w.openFile(sample("slider_crank")));
  CHECK(win.w.plotDock()->plots().size() == 2);
}

TEST_CASE("a refused drive keeps Apply and the reason in sight; an edit clears the reason",
          "[gui][ux-panels]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  EditPanel* p = win.selectJoint(0);
  REQUIRE(p->setField("Drive expression", "0.3 + 2*pi*"));
  CHECK_FALSE(p->apply());
  CHECK_FALSE(p->error().isEmpty());
  waitFor([] { return false; }, 100);  // the scroll area lays out the longer form
  auto* area = qobject_cast<QScrollArea*>(win.w.properties()->widget());
  REQUIRE(area);
  const QRect shown = area->viewport()->rect();
  const QRect apply(p->applyButton()->mapTo(area->viewport(), QPoint(0, 0)),
                    p->applyButton()->size());
  INFO("Apply at " << apply.top() << ".." << apply.bottom() << ", shown 0.." << shown.bottom());
  CHECK(apply.top() >= shown.top());  // vertically: the dock scrolls up and down
  CHECK(apply.bottom() <= shown.bottom());
  // Typing a correction: the reason was about the old text.
  auto* expr = qobject_cast<QLineEdit*>(p->field("Drive expression"));
  REQUIRE(expr);
  expr->setFocus();
  QTest::keyClicks(expr, "t");
  CHECK(p->error().isEmpty());
  CHECK(p->apply());
}

namespace {
// A mouse move without a button, as the window system sends it to a widget that tracks the mouse.
void hover(QWidget* w, const QPoint& at) {
  QMouseEvent move(QEvent::MouseMove, at, w->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                   Qt::NoModifier);
  QApplication::sendEvent(w, &move);
  QCoreApplication::processEvents();
}

void chooseUnits(MainWindow& w, int length, int angle) {  // 0: mm, °; 1: m, rad
  PreferencesDialog dialog(&w);
  dialog.lengthBox()->setCurrentIndex(length);
  dialog.angleBox()->setCurrentIndex(angle);
  dialog.accept();
}
}  // namespace

TEST_CASE("display units: Preferences set mm and degrees in the Properties and the status bar",
          "[gui][ux-panels]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  chooseUnits(win.w, 0, 0);
  REQUIRE(displayUnits() == DisplayUnits{LengthUnit::Millimetre, AngleUnit::Degree});
  win.w.document()->setSelection({0, -1});  // the crank: com 0.05 m along the bar
  QCoreApplication::processEvents();
  CHECK(treeValue(win.w.properties(), "Centre of mass") == "[50, 0, 0] mm");
  win.selectJoint(0);  // A0: q0 = 0.3 rad = 17.1887°; at t = 0 q is the same
  CHECK(treeValue(win.w.properties(), "q0") == QString::fromUtf8("17.1887°"));
  CHECK(treeValue(win.w.properties(), "q") == QString::fromUtf8("17.1887°"));
  CHECK(treeValue(win.w.properties(), "qd") == QString::fromUtf8("360°/s"));  // 2π rad/s
  // The cursor over the sketch: its world point, snapped as a click would take it (the grid or
  // a point within a few pixels: 10 mm at this zoom is plenty).
  SketchEditor* sketch = win.w.sketchEditor();
  hover(sketch, sketch->toScreen(Vec3(0.2, -0.1, 0)).toPoint());
  auto* readout = win.w.findChild<CursorReadout*>();
  REQUIRE(readout);
  const QRegularExpression xy("^x (-?[0-9.]+) mm   y (-?[0-9.]+) mm$");
  const QRegularExpressionMatch m = xy.match(readout->text());
  INFO(readout->text().toStdString());
  REQUIRE(m.hasMatch());
  CHECK(std::abs(m.captured(1).toDouble() - 200) < 10);
  CHECK(std::abs(m.captured(2).toDouble() + 100) < 10);
  // Back to metres and radians: the same point, redrawn.
  chooseUnits(win.w, 1, 1);
  CHECK(readout->text().startsWith("x 0."));
  CHECK(readout->text().endsWith(" m"));
  CHECK(treeValue(win.w.properties(), "q0") == "0.3 rad");
}

TEST_CASE("a plot of an angle and a torque: the right axis in its unit, every series read out",
          "[gui][ux-panels]") {
  Win win;
  chooseUnits(win.w, 0, 0);  // mm and degrees: the angle is drawn in °, the torque in N·m
  REQUIRE(win.w.openFile(sample("fourbar")));
  PlotDock* dock = win.w.plotDock();
  PlotWidget* plot = dock->plots().front();  // the crank's drive torque
  dock->setCurrentPlot(plot);
  dock->plotChannel({Q::Q, 0, 0});  // A0.q, rad: a second unit, the right axis
  REQUIRE(plot->channels().size() == 2);
  const std::size_t plots = dock->plots().size();
  dock->plotChannel({Q::Qd, 0, 0});  // a third unit: a plot of its own
  CHECK(dock->plots().size() == plots + 1);
  CHECK(plot->channels().size() == 2);
  win.w.controller()->runFor(0.3);
  win.w.controller()->showTime(0.3);
  waitFor([] { return false; }, 200);
  plot->refreshIfDirty();
  QCoreApplication::processEvents();
  CHECK(plot->yAxisTitle(1) == QString::fromUtf8("°"));
  CHECK(plot->yAxisTitle(0).endsWith(QString::fromUtf8("N·m")));
  // q runs from 0.3 rad (17.19°) to 0.3 + 0.6π rad (125.2°) at 0.3 s: the axis holds it in °.
  const auto [q0, q1] = plot->yRange(1);
  CHECK(q0 <= 17.19);
  CHECK(q1 >= 125.2);
  CHECK(q1 <= 250);  // degrees, not radians drawn on a degree axis nor degrees squared
  // Every text whole and inside the chart; the legend above the plot area, not over the data.
  int right_labels = 0;
  const QRectF area = plot->chart()->plotArea();
  for (QGraphicsItem* item : plot->chart()->scene()->items()) {
    QString text;
    if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) text = t->toPlainText();
    if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = t->text();
    if (text.isEmpty() || !item->isVisible()) continue;
    INFO(text.toStdString());
    CHECK_FALSE(text.contains(QChar(0x2026)));
    const QRectF r = item->mapRectToScene(item->boundingRect());
    CHECK(plot->chart()->rect().adjusted(-1, -1, 1, 1).contains(r));
    if (r.left() >= area.right()) ++right_labels;
  }
  CHECK(right_labels >= 3);  // ticks and the title "°" right of the data
  CHECK_FALSE(plot->chart()->legend()->geometry().intersects(area));
  // The crosshair's readout names both series with their values in their units.
  auto* view = plot->findChild<QChartView*>();
  REQUIRE(view);
  const QPoint at = view->mapFromScene(plot->chart()->mapToScene(area.center()));
  hover(view->viewport(), at);
  QCoreApplication::processEvents();
  QString readout;
  for (QLabel* l : plot->findChildren<QLabel*>())
    if (l->text().startsWith("t = ")) readout = l->text();
  INFO(readout.toStdString());
  CHECK(readout.contains("A0.q = "));
  CHECK(readout.contains(QString::fromUtf8("°")));
  CHECK(readout.contains(QString::fromUtf8("N·m")));
  win.w.plotDock()->plots().front()->exportPng(QStringLiteral("/tmp/articula_panels_two_axes.png"));
  chooseUnits(win.w, 1, 1);
  CHECK(plot->yAxisTitle(1) == "rad");
}

TEST_CASE("a motion law is chosen and filled in a form; JSON stays as the advanced option",
          "[gui][ux-panels]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  EditPanel* p = win.selectJoint(0);
  auto* law = qobject_cast<MotionLawForm*>(p->field("Motion law"));
  REQUIRE(law);
  CHECK(law->law().is_null());  // the sample drives by expression
  REQUIRE(law->setType("harmonic"));
  REQUIRE(law->setValue("offset", "0.3"));
  REQUIRE(law->setValue("amplitude", "0.5"));
  REQUIRE(law->setValue("frequency", "2"));
  // The preview follows the form: q(0) = 0.3, q at a quarter period (0.125 s) = 0.8.
  REQUIRE(p->preview()->error().isEmpty());
  REQUIRE(p->apply());
  const nlohmann::json stored = win.w.document()->spec().joints[0].drive->law;
  CHECK(stored ==
        nlohmann::json{
            {"type", "harmonic"}, {"offset", 0.3}, {"amplitude", 0.5}, {"frequency", 2.0}});
  // A number that is not one is refused with the field's name.
  p = win.w.properties()->editor();
  law = qobject_cast<MotionLawForm*>(p->field("Motion law"));
  REQUIRE(law);
  CHECK(law->law() == stored);  // shown again from the document
  REQUIRE(law->setValue("amplitude", "half"));
  CHECK_FALSE(p->apply());
  CHECK(p->error() == "Motion law amplitude: 'half' is not a number");
  // The advanced JSON: a cycloidal rise-dwell-return typed by hand, read back into the form.
  REQUIRE(law->setValue(
      "json",
      R"({"type":"rise_dwell_return","high":1,"rise":0.5,"dwell":0.25,"return":0.5,"dwell_low":0.25})"));
  REQUIRE(p->apply());
  CHECK(win.w.document()->spec().joints[0].drive->law.value("type", "") == "rise_dwell_return");
  law = qobject_cast<MotionLawForm*>(win.w.properties()->editor()->field("Motion law"));
  REQUIRE(law);
  CHECK(law->text().contains("\"rise\":0.5"));
  // Back to the expression: no law.
  QCoreApplication::processEvents();  // the panel shows the stored law
  law = qobject_cast<MotionLawForm*>(win.w.properties()->editor()->field("Motion law"));
  REQUIRE(law);
  REQUIRE(law->setType(""));
  INFO(law->text().toStdString());
  REQUIRE(win.w.properties()->editor()->apply());
  INFO(win.w.document()->spec().joints[0].drive->law.dump());
  CHECK(win.w.document()->spec().joints[0].drive->law.is_null());
}

TEST_CASE("the welcome panel shows every sample as a thumbnail; a click opens a copy",
          "[gui][ux-panels]") {
  QSettings().remove("welcome");
  CHECK(WelcomeDialog::firstStart());
  CHECK_FALSE(WelcomeDialog::firstStart());  // once per user
  Win win;
  WelcomeDialog* dialog = win.w.showWelcome();
  REQUIRE(dialog);
  REQUIRE(QTest::qWaitForWindowExposed(dialog));
  dialog->grab().save("/tmp/articula_panels_welcome.png");
  const QDir dir(QStringLiteral(ARTICULA_SOURCE_DIR "/samples"));
  const int files = static_cast<int>(dir.entryList({"*.json"}, QDir::Files).size());
  QListWidget* list = dialog->samples();
  REQUIRE(list->count() == files);
  QListWidgetItem* slider = nullptr;
  // Planar samples are drawn by the sketch, spatial ones by the 3D view: told apart by the
  // background in the corner (the sketch's paper, the 3D view's sky).
  std::map<bool, std::set<QRgb>> corners;  // planar or not: the corner colours seen
  for (int i = 0; i < list->count(); ++i) {
    QListWidgetItem* item = list->item(i);
    INFO(item->text().toStdString());
    // Drawn, not blank: the links differ from the background somewhere.
    const QImage image = item->icon().pixmap(QSize(220, 150)).toImage();
    REQUIRE_FALSE(image.isNull());
    const QRgb corner = image.pixel(1, 1);
    bool drawn = false;
    for (int y = 0; y < image.height() && !drawn; y += 3)
      for (int x = 0; x < image.width() && !drawn; x += 3) drawn = image.pixel(x, y) != corner;
    CHECK(drawn);
    Document doc;
    REQUIRE(doc.load(item->data(Qt::UserRole).toString()));
    REQUIRE(doc.simulated());
    corners[doc.simulated()->planar].insert(corner);
    if (item->text() == "slider crank") slider = item;
  }
  // Every spatial one under the 3D view's sky (the same top row at the same size); the sketch's
  // paper, its grid or a label, never that colour.
  REQUIRE(corners[false].size() == 1);
  CHECK(corners[true].count(*corners[false].begin()) == 0);
  REQUIRE(slider);
  list->scrollToItem(slider);
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(slider).center());
  REQUIRE(waitFor([&] { return win.w.document()->displayName().contains("slider_crank"); }, 2000));
  CHECK(win.w.document()->path().isEmpty());  // a copy: Save asks for a name
}

TEST_CASE("the arrow keys step forward and back through the run", "[gui][ux-panels]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));  // h = 1 ms, every step recorded
  SimulationController* c = win.w.controller();
  c->runFor(0.1);
  c->showTime(0.1);
  // The bindings, then the actions (Xvfb has no window manager to make the window active and
  // deliver the keys as shortcuts).
  SimulationToolBar* bar = win.w.simulationToolBar();
  CHECK(bar->stepBackAction()->shortcut() == QKeySequence(Qt::Key_Left));
  CHECK(bar->stepAction()->shortcuts().contains(QKeySequence(Qt::Key_Right)));
  CHECK(bar->toggleAction()->shortcut() == QKeySequence(Qt::Key_Space));
  CHECK(bar->resetAction()->shortcut() == QKeySequence(Qt::Key_Home));
  bar->stepBackAction()->trigger();
  CHECK(c->current().t == Approx(0.099).margin(1e-9));
  bar->stepBackAction()->trigger();
  CHECK(c->current().t == Approx(0.098).margin(1e-9));
  bar->stepAction()->trigger();  // a step from the instant on display
  REQUIRE(waitFor([&] { return c->current().t > 0.0985; }, 2000));
  CHECK(c->current().t == Approx(0.099).margin(1e-9));
}

// Issue 17: a large mechanism opens before its joint lists are known (about 1 s at 1,000 bodies);
// they follow from a worker thread. Forced here on small samples (threshold 0 coordinates).
TEST_CASE("the sketch status's joint lists follow from a worker; a newer document wins",
          "[gui][ux-panels]") {
  Win win;
  Document* doc = win.w.document();
  doc->setDeferredDetailsFrom(0);
  int changes = 0;
  QObject::connect(doc, &Document::statusChanged, [&] { ++changes; });
  REQUIRE(win.w.openFile(sample("fourbar")));
  const SketchStatus full = analyse(doc->spec()).status;
  if (doc->status().details_pending)  // else the worker was done before the event loop ran
    CHECK(win.w.sketchStatus()->text().contains("analysing the joints"));
  REQUIRE(waitFor([&] { return !doc->status().details_pending; }, 5000));
  CHECK(doc->status().unconstrained == full.unconstrained);
  CHECK(doc->status().locked == full.locked);
  CHECK(doc->status().free_dof == full.free_dof);
  CHECK(changes >= 2);  // the counts, then the details
  CHECK(win.w.sketchStatus()->text().contains("Free with drives held"));
  CHECK_FALSE(win.w.sketchStatus()->text().contains("analysing the joints"));
  // Two documents in quick succession: the first one's late details are dropped.
  REQUIRE(win.w.openFile(sample("fourbar")));
  REQUIRE(win.w.openFile(sample("slider_crank")));
  doc->waitForStatus();
  const SketchStatus slider = analyse(doc->spec()).status;
  CHECK_FALSE(doc->status().details_pending);
  CHECK(doc->status().bodies == slider.bodies);
  CHECK(doc->status().unconstrained == slider.unconstrained);
  CHECK(doc->status().locked == slider.locked);
  CHECK(doc->status().free_dof == slider.free_dof);
}

#ifdef ARTICULA_HAVE_RENDER
TEST_CASE("the status bar names the point of the mechanism under the cursor in the 3D view",
          "[gui][ux-panels]") {
  Win win;
  REQUIRE(win.w.openFile(sample("rssr")));
  chooseUnits(win.w, 0, 1);
  ViewportWidget* view = win.w.viewport()->viewportWidget();
  REQUIRE(view);
  waitFor([&] { return win.w.viewport()->framesDrawn() > 1; }, 2000);
  gui_test::settle(500);  // the view fits the mechanism once it is shown
  // A point on the mechanism: the first hit on a grid across the view.
  QPoint on(-1, -1);
  RayHit hit;
  for (int y = 10; y < view->height() && on.x() < 0; y += 8)
    for (int x = 10; x < view->width() && on.x() < 0; x += 8)
      if ((hit = view->rayAt(QPointF(x, y))).hit && hit.body >= 0) on = QPoint(x, y);
  REQUIRE(on.x() >= 0);
  hover(view, on);
  auto* readout = win.w.findChild<CursorReadout*>();
  REQUIRE(waitFor([&] { return !readout->text().isEmpty(); }, 1000));
  const QString body =
      QString::fromStdString(win.w.document()->simulated()->spec.bodies[hit.body].name);
  INFO(readout->text().toStdString());
  CHECK(readout->text().startsWith("x "));
  CHECK(readout->text().contains(QString(" mm   z ")));
  CHECK(readout->text().endsWith("on " + body));
  chooseUnits(win.w, 1, 1);
}
#endif

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("ArticulaTest");  // keep the user's settings out of it
  return Catch::Session().run(argc, argv);
}
#endif
