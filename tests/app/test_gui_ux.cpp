// The defects of issue 23 found by trying the application as a new user, each reproduced first:
// files (Save As without .json, the File field after Save As, samples opened as copies), editing
// (a link drawn in empty space, a mass of 1e308 kg, a drive whose q(0) differs from the drawn
// angle, long status lists, single-joint bodies in the sketch, the Model tree's column) and the
// view (tracing a point clicked before a run); the sketch's are in test_gui_ux_sketch.cpp. Under
// Xvfb with synthesized events; built only as its own target (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot_history.hpp"
#include "tests/app/gui_ux_window.hpp"
#include "ui/application.hpp"
#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/edit_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/model_tree_dock.hpp"
#include "ui/plot_dock.hpp"
#include "ui/plot_widget.hpp"
#include "ui/properties_dock.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_tool_bar.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_status_dock.hpp"
#include "ui/sketch_tool_bar.hpp"
#include "ui/time_slider.hpp"
#include "ui/viewport_panel.hpp"
#ifdef ARTICULA_HAVE_RENDER
#include "ui/viewport_widget.hpp"
#endif

using namespace articula;
using gui_test::sample;
using gui_test::waitFor;
using gui_test::Win;
using Tool = SketchEditor::Tool;

TEST_CASE("Save As adds .json and the File field follows; samples open as copies",
          "[gui][ux-files]") {
  Win win;
  REQUIRE(win.w.openSample(sample("fourbar")));
  Document* doc = win.w.document();
  CHECK(doc->path().isEmpty());  // Save would ask for a name, never overwrite the sample
  CHECK(doc->savedName() == "fourbar.json");
  CHECK(doc->displayName().contains("fourbar.json"));
  CHECK(Win::treeValue(win.w.properties(), "File") == "(not saved)");
  QTemporaryDir dir;
  REQUIRE(win.w.saveAs(dir.filePath("mine")));
  CHECK(QFileInfo::exists(dir.filePath("mine.json")));
  CHECK_FALSE(QFileInfo::exists(dir.filePath("mine")));
  CHECK(doc->path() == QFileInfo(dir.filePath("mine.json")).absoluteFilePath());
  QCoreApplication::processEvents();
  // The file name only: no machine path in screenshots (the folder is in the tooltip).
  CHECK(Win::treeValue(win.w.properties(), "File") == "mine.json");
  REQUIRE(win.w.saveAs(dir.filePath("second.JSON")));  // a .json suffix in any case is kept
  CHECK(QFileInfo::exists(dir.filePath("second.JSON")));
  CHECK(Win::treeValue(win.w.properties(), "File") == "second.JSON");
}

TEST_CASE("a link drawn in empty space leaves the grounded part running", "[gui][ux-edit]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  const int bodies = static_cast<int>(win.w.document()->spec().bodies.size());
  win.tool(Tool::Link);
  win.click(-0.3, 0.4);
  win.click(-0.2, 0.45);
  REQUIRE(win.w.document()->spec().bodies.size() == std::size_t(bodies + 1));
  REQUIRE(win.w.document()->status().disconnected.size() == 1);
  CHECK(win.w.document()->mechanism() == nullptr);  // not the whole sketch
  const auto sim = win.w.document()->simulated();
  REQUIRE(sim);  // but the grounded part, as the CLI simulates it
  CHECK(static_cast<int>(sim->spec.bodies.size()) == bodies);
  SimulationController* c = win.w.controller();
  CHECK(c->state() == SimulationController::State::Paused);  // Play is enabled
  c->runFor(0.05);
  CHECK(c->current().t == Approx(0.05));
  // The Diagnostics say what is simulated and what is left out.
  CHECK(Win::treeValue(win.w.diagnostics(), "Not connected to ground") ==
        QString::fromStdString(win.w.document()->status().disconnected[0]));
  CHECK(Win::treeValue(win.w.diagnostics(), "Simulated").contains("connected to ground"));
  // Selecting a grounded body in the document selects it in the simulated mechanism.
  win.w.document()->setSelection({1, -1});
  CHECK(win.w.document()->toSimulated({1, -1}).body == 1);
  win.shot("floating_link");
}

TEST_CASE("a mass of 1e308 kg is refused with the reason", "[gui][ux-edit]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  win.w.document()->setSelection({1, -1});
  QCoreApplication::processEvents();
  EditPanel* p = win.w.properties()->editor();
  REQUIRE(p->setField("Mass", "1e308"));
  CHECK_FALSE(p->apply());
  CHECK(p->error().toStdString() ==
        "mass 1e+308 kg is too large to compute with (its weight "
        "overflows)");
  REQUIRE(p->setField("Mass", "1e200"));  // finite weight, but m |c|² swamps the inertia
  CHECK_FALSE(p->apply());
  CHECK(p->error().startsWith("mass 1e+200 kg is too large to compute with: m |c|^2 = "));
  CHECK(win.w.document()->mechanism() != nullptr);
}

TEST_CASE("a motor whose q(0) differs from the drawn angle: one configuration, nothing locked",
          "[gui][ux-edit]") {
  Win win;
  win.w.newDocument();
  win.tool(Tool::GroundPivot);
  win.click(0, 0);
  win.click(0.3, 0);
  win.tool(Tool::Link);
  win.click(0, 0), win.click(0, 0.1);       // crank, vertical
  win.click(0, 0.1), win.click(0.3, 0.25);  // coupler
  win.click(0.3, 0.25), win.click(0.3, 0);  // rocker
  win.tool(Tool::Motor);
  win.click(0, 0);
  REQUIRE(win.w.document()->status().ready());
  const int crank = win.w.document()->mechanism()->drives.at(0).user_joint;
  win.w.document()->setSelection({-1, crank});
  QCoreApplication::processEvents();
  EditPanel* p = win.w.properties()->editor();
  REQUIRE(p->setField("Drive expression", "2*pi*t"));
  REQUIRE(p->apply());
  QCoreApplication::processEvents();
  const SketchStatus& st = win.w.document()->status();
  CHECK(st.locked.empty());
  CHECK_FALSE(win.w.sketchStatus()->text().contains("Locked"));
  // The sketch shows the t = 0 record the 3D view shows: the crank at q(0) = 0.
  REQUIRE(win.e->snapshot().has_value());
  CHECK(win.e->snapshot()->t == 0.0);
  CHECK(win.e->snapshot()->q == win.w.controller()->current().q);
  win.shot("motor_q0");
}

TEST_CASE("end stops and friction are edited in the joint properties, one undo step each",
          "[gui][ux-edit]") {
  // The door sample's hinge: stops 0 and 1.9 rad, e = 0.3 in the file.
  Win win;
  REQUIRE(win.w.openFile(sample("door_stop")));
  const int hinge = win.w.document()->spec().joint_index("hinge");
  win.w.document()->setSelection({-1, hinge});
  QCoreApplication::processEvents();
  EditPanel* p = win.w.properties()->editor();
  REQUIRE(p->setField("Limits lower, upper, e", "-0.5, none, 0.6"));
  REQUIRE(p->apply());
  const JointSpec& j = win.w.document()->spec().joints[hinge];
  REQUIRE(j.limits);
  CHECK(j.limits->lower == -0.5);
  CHECK_FALSE(j.limits->upper.has_value());
  CHECK(j.limits->restitution == 0.6);
  win.shot("door_limits");
  win.w.document()->undoStack()->undo();
  REQUIRE(win.w.document()->spec().joints[hinge].limits);
  CHECK(win.w.document()->spec().joints[hinge].limits->upper == 1.9);
  // Refused with the field named: bounds the wrong way round, e above 1, negative friction.
  QCoreApplication::processEvents();
  p = win.w.properties()->editor();
  REQUIRE(p->setField("Limits lower, upper, e", "1, 0, 0.5"));
  CHECK_FALSE(p->apply());
  CHECK(p->error().startsWith("Limits lower, upper, e: the lower bound is above"));
  REQUIRE(p->setField("Limits lower, upper, e", "0, 1.9, 1.2"));
  CHECK_FALSE(p->apply());
  CHECK(p->error().contains("restitution must be in [0, 1]"));
  REQUIRE(p->setField("Limits lower, upper, e", "0, 1.9, 0.3"));
  REQUIRE(p->setField("Friction Coulomb, viscous", "-1, 0"));
  CHECK_FALSE(p->apply());
  CHECK(p->error().startsWith("Friction Coulomb, viscous"));
  REQUIRE(p->setField("Friction Coulomb, viscous", "0.2, 0.01"));
  REQUIRE(p->apply());
  REQUIRE(win.w.document()->spec().joints[hinge].friction);
  CHECK(win.w.document()->spec().joints[hinge].friction->coulomb == 0.2);
  // Cleared: no stops.
  p = win.w.properties()->editor();
  REQUIRE(p->setField("Limits lower, upper, e", ""));
  REQUIRE(p->apply());
  CHECK_FALSE(win.w.document()->spec().joints[hinge].limits.has_value());
}

TEST_CASE("long status lists are capped, the whole list in the tooltip", "[gui][ux-edit]") {
  MechanismSpec chain;
  chain.name = "chain of 30";
  for (int i = 0; i < 30; ++i) {
    BodySpec b;
    b.name = "L" + std::to_string(i + 1);
    b.mass = 1.0;
    b.com = Vec3(0.05, 0, 0);
    b.inertia = {1e-4, 1e-3, 1e-3, 0, 0, 0};
    chain.bodies.push_back(b);
    JointSpec j;
    j.name = "J" + std::to_string(i + 1);
    j.joint.type = JointType::Revolute;
    j.parent = i == 0 ? "ground" : chain.bodies[i - 1].name;
    j.child = b.name;
    j.parent_frame.position = Vec3(i == 0 ? 0.0 : 0.1, 0, 0);
    chain.joints.push_back(j);
  }
  Win win;
  REQUIRE(win.w.document()->adoptUntitled(chain));
  REQUIRE(win.w.document()->status().unconstrained.size() == 30);
  const QString text = win.w.sketchStatus()->text();
  CHECK(text.contains("J1, J2, J3, J4, J5, J6, J7, J8, … and 22 more"));
  CHECK_FALSE(text.contains("J30"));
  CHECK(win.w.sketchStatus()->toolTipText().contains("J30"));
}

TEST_CASE("single-joint bodies are bars in the sketch; the Model tree's column says Details",
          "[gui][ux-edit]") {
  Win win;
  REQUIRE(win.w.openFile(sample("pendulum")));
  // The 1 m rod with its bob: from the pivot through the centre of mass (0.956 m) to the end of
  // the uniform rod of the same inertia, sqrt(3 Izz / m) beyond it.
  const std::vector<Vec3> bar = win.e->outline(0);
  REQUIRE(bar.size() == 2);
  const BodySpec& b = win.w.document()->spec().bodies[0];
  CHECK(bar[1].x() == Approx(b.com.x() + std::sqrt(3 * b.inertia[2] / b.mass)).epsilon(1e-12));
  CHECK(std::abs(bar[1].y()) < 1e-12);
  win.shot("pendulum");
  REQUIRE(win.w.openFile(sample("double_pendulum")));
  for (int k = 0; k < 2; ++k) CHECK(win.e->outline(k).size() == 2);
  CHECK(win.w.modelTree()->tree()->headerItem()->text(1) == "Details");
}

TEST_CASE("a drive changed during a run is part of its history: a replay retraces it",
          "[gui][ux-view]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  SimulationController* c = win.w.controller();
  const int crank = win.w.document()->mechanism()->drives.at(0).user_joint;
  c->runFor(1.0);
  c->setDriveExpression(crank, "0.3 + 2*pi*t + 0.5*sin(3*t)");  // at t = 1 s
  c->runFor(1.0);
  std::vector<Snapshot> original;
  c->history().forEach([&](const Snapshot& s) { original.push_back(s); });
  REQUIRE(original.size() == 2001);
  // Back to 0.5 s and on to 2 s: the law of the file until 1 s, then the new one, as before.
  c->showTime(0.5);
  c->runFor(1.5);
  std::size_t compared = 0;
  double worst = 0;
  c->history().forEach([&](const Snapshot& s) {
    const auto k = static_cast<std::size_t>(std::lround(s.t / 1e-3));
    REQUIRE(k < original.size());
    const Snapshot& o = original[k];
    worst = std::max({worst, (s.q - o.q).cwiseAbs().maxCoeff(), (s.qd - o.qd).cwiseAbs().maxCoeff(),
                      std::abs(s.work - o.work)});
    ++compared;
  });
  CHECK(compared == original.size());
  CHECK(worst < 1e-12);
  CHECK(c->current().t == Approx(2.0).margin(1e-9));
  // Reset: the file's law again (the replay to 2 s now differs after 1 s).
  c->reset();
  c->runFor(2.0);
  double after = 0;
  c->history().forEach([&](const Snapshot& s) {
    const auto k = static_cast<std::size_t>(std::lround(s.t / 1e-3));
    after = std::max(after, (s.q - original[k].q).cwiseAbs().maxCoeff());
  });
  CHECK(after > 1e-3);
}

namespace {
const char* const kEverySample[] = {
    "bennett",   "bouncing_ball", "delta_robot",          "door_stop",        "double_pendulum",
    "excavator", "fourbar",       "geared_crank_rocker",  "jansen_leg",       "peaucellier",
    "pendulum",  "puma560",       "rack_pinion_steering", "rrr3_planar",      "rssr",
    "rsur",      "slider_crank",  "stephenson_six_bar",   "stewart_platform", "watt_six_bar"};
}  // namespace

TEST_CASE("no plot text is elided or clipped after a run of every sample", "[gui][ux-view]") {
  Win win;
  for (const char* name : kEverySample) {
    INFO(name);
    REQUIRE(win.w.openFile(sample(name)));
    win.w.controller()->runFor(0.3);
    win.w.controller()->showTime(0.3);
    waitFor([] { return false; }, 200);  // the plots redraw ~10 times a second
    for (PlotWidget* plot : win.w.plotDock()->plots()) {
      plot->refreshIfDirty();
      QCoreApplication::processEvents();
      const QRectF scene = plot->chart()->rect();
      int labels = 0;
      for (QGraphicsItem* item : plot->chart()->scene()->items()) {
        QString text;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) text = t->toPlainText();
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) text = t->text();
        if (text.isEmpty() || !item->isVisible()) continue;
        ++labels;
        INFO(text.toStdString());
        CHECK_FALSE(text.contains(QChar(0x2026)));  // QtCharts elides with "…"
        CHECK_FALSE(text.contains("..."));
        // Inside the chart: nothing cut at its edges.
        const QRectF r = item->mapRectToScene(item->boundingRect());
        CHECK(scene.adjusted(-1, -1, 1, 1).contains(r));
      }
      CHECK(labels >= 4);                      // tick labels and titles were found
      CHECK(plot->yAxisTitle().size() <= 12);  // a unit with its prefix, never cut
    }
  }
}

// Plots removed when another project opens are deleted later: until then they must not point to
// the mechanism that was freed (a laid-out removed plot named its curves from it: a segfault
// under the GUI monkey, in channelName from PlotWidget::fitAxes).
TEST_CASE("plots removed with their project let go of its mechanism", "[gui][ux-view]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  const std::vector<PlotWidget*> first = win.w.plotDock()->plots();
  REQUIRE_FALSE(first.empty());
  REQUIRE(win.w.openFile(sample("slider_crank")));
  const Mechanism* now = win.w.document()->simulated().get();
  int pending = 0;
  for (PlotWidget* p : win.w.findChildren<PlotWidget*>()) {
    const auto& live = win.w.plotDock()->plots();
    if (std::find(live.begin(), live.end(), p) != live.end()) {
      CHECK(p->mechanism() == now);
    } else {
      ++pending;
      CHECK(p->mechanism() == nullptr);
    }
  }
  CHECK(pending == static_cast<int>(first.size()));  // still there, awaiting deletion
}

// The text QtCharts draws for a visible item of the plot (tick labels, axis titles).
static bool drawsText(PlotWidget* plot, const QString& wanted) {
  for (QGraphicsItem* item : plot->chart()->scene()->items())
    if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
      if (item->isVisible() && t->toPlainText() == wanted) return true;
  return false;
}

// The ratchet's drive torque starts at exactly 0 (constant data: a ±1 band) and then swings by
// 0.02 N·m: the axis must follow it down, not keep ±1 with the curve a flat line. Its title
// changes from µN·m to mN·m on the way, and the drawn title follows (QtCharts kept the first:
// the walker's torque plot read "mN·m" beside ticks of ±100 N·m).
TEST_CASE("a plot whose data starts constant tightens its axis to the data", "[gui][ux-view]") {
  Win win;
  REQUIRE(win.w.openFile(sample("ratchet")));
  win.w.controller()->runFor(0.002);
  win.w.controller()->showTime(0.002);
  waitFor([] { return false; }, 200);  // laid out with the first title
  const QString first = win.w.plotDock()->plots().front()->yAxisTitle();
  INFO("first title " << first.toStdString());
  win.w.controller()->runFor(0.3);
  win.w.controller()->showTime(0.3);
  waitFor([] { return false; }, 200);
  PlotWidget* plot = win.w.plotDock()->plots().front();
  plot->refreshIfDirty();
  const std::vector<double>& v = plot->values(0);
  REQUIRE(v.size() > 10);
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const auto [y0, y1] = plot->yRange();
  INFO("data " << *lo << " .. " << *hi << ", axis " << y0 << " .. " << y1);
  CHECK(*hi - *lo > 0.015);  // N·m: 0.02 sin(2πt) up to t = 0.3 s
  CHECK(y0 <= *lo);
  CHECK(y1 >= *hi);
  CHECK(y1 - y0 < 2.5 * (*hi - *lo));  // the data fills more than 40 % of the height
  CHECK(plot->yAxisTitle() == QString::fromUtf8("mN·m"));  // ticks at ±20: in mN·m
  QCoreApplication::processEvents();
  CHECK(first != plot->yAxisTitle());  // the title did change
  CHECK(drawsText(plot, plot->yAxisTitle()));
}

TEST_CASE("spatial samples open with the 3D view in front, planar ones with the sketch",
          "[gui][ux-view]") {
  Win win;
  for (const char* name : kEverySample) {
    INFO(name);
    REQUIRE(win.w.openFile(sample(name)));
    const auto mech = win.w.document()->simulated();
    REQUIRE(mech);
    CentralViews* views = win.w.centralViews();
    CHECK(views->front() ==
          (mech->planar ? CentralViews::View::Sketch : CentralViews::View::ThreeD));
    if (!mech->planar) CHECK(win.w.viewport()->width() > win.w.sketchEditor()->width());
#ifdef ARTICULA_HAVE_RENDER
    // Every body's frame origin and centre of mass at t = 0 project inside the 3D view, also
    // where it is the narrow view beside the sketch (the Jansen leg was cut at its left edge).
    QCoreApplication::processEvents();
    ViewportWidget* view = win.w.viewport()->viewportWidget();
    const Snapshot& s = win.w.controller()->current();
    const QRectF inside = QRectF(view->rect());
    for (int b = 1; b < static_cast<int>(s.X0.size()); ++b) {
      const Transform& X = s.X0[b];
      const Vec3 com = X.r + X.E.transpose() * mech->model().inertia[b].com();
      for (const Vec3& p : {Vec3(X.r), com}) {
        INFO("body " << b);
        CHECK(inside.contains(view->projectToWidget(osg::Vec3d(p.x(), p.y(), p.z()))));
      }
    }
#endif
  }
  win.w.setViewsMode(CentralViews::Mode::Tabs);
  REQUIRE(win.w.openFile(sample("fourbar")));
  CHECK(win.w.centralViews()->isShown(CentralViews::View::Sketch));
  CHECK_FALSE(win.w.centralViews()->isShown(CentralViews::View::ThreeD));
  REQUIRE(win.w.openFile(sample("stewart_platform")));
  CHECK(win.w.centralViews()->isShown(CentralViews::View::ThreeD));
  CHECK_FALSE(win.w.centralViews()->isShown(CentralViews::View::Sketch));
  win.shot("tabs_stewart");
}

#ifdef ARTICULA_HAVE_RENDER
#ifdef ARTICULA_HAVE_RENDER
TEST_CASE("the 3D view keeps the moving mechanism in view", "[gui][ux-view]") {
  // The double pendulum's lower link and the geared crank-rocker's gear left the narrow 3D view
  // beside the sketch as they moved: it was fitted at t = 0 only.
  Win win;
  for (const char* name : {"double_pendulum", "geared_crank_rocker"}) {
    INFO(name);
    REQUIRE(win.w.openFile(sample(name)));
    SimulationController* c = win.w.controller();
    c->runFor(1.0);
    ViewportWidget* view = win.w.viewport()->viewportWidget();
    int outside = 0;
    for (int k = 0; k <= 25; ++k) {
      c->showTime(0.04 * k);
      waitFor([] { return false; }, 120);  // the view checks at most every 100 ms
      const osg::BoundingBox box = view->mechanismBounds();
      REQUIRE(box.valid());
      // The box's corners pulled 10 % towards its centre: the perspective frame holds the box's
      // sphere, whose rim can project a little past the corners' own.
      for (int i = 0; i < 8; ++i) {
        const osg::Vec3d p = box.center() + (box.corner(i) - box.center()) * 0.9;
        outside += !QRectF(view->rect()).contains(view->projectToWidget(p));
      }
    }
    CHECK(outside == 0);
    win.shot(QString("in_view_3d_") + name);
  }
}
#endif

TEST_CASE("a point clicked in the 3D view before a run is the point traced after it",
          "[gui][ux-view]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  ViewportWidget* view = win.w.viewport()->viewportWidget();
  REQUIRE(view);
  win.w.viewport()->fitToView();
  QCoreApplication::processEvents();
  // The middle of the coupler (body 1) at t = 0, clicked in the 3D view.
  const std::vector<Vec3> pts = win.e->outline(1);
  REQUIRE(pts.size() >= 2);
  const Vec3 mid = win.e->bodyToWorld(1, 0.5 * (pts[0] + pts[1]));
  const QPoint px = view->projectToWidget(osg::Vec3d(mid.x(), mid.y(), mid.z())).toPoint();
  QTest::mouseClick(view, Qt::LeftButton, {}, px);
  QCoreApplication::processEvents();
  REQUIRE(win.w.document()->selection().body == 1);
  SimulationController* c = win.w.controller();
  c->runFor(0.6);
  c->showTime(0.6);
  QCoreApplication::processEvents();
  QAction* trace = nullptr;
  for (QAction* a : win.w.findChildren<QAction*>())
    if (a->text() == "&Trace Selected Point") trace = a;
  REQUIRE(trace);
  trace->trigger();
  REQUIRE(win.w.viewport()->isTracing());
  REQUIRE(win.w.viewport()->traceSize() > 10);
  // The trace starts where the point was at t = 0: where it was clicked (the view is planar and
  // orthographic, so the click fixes x and y: within 3 mm, a few pixels of the view; the coupler
  // moves by centimetres in 0.6 s).
  const Vec3 start = win.w.viewport()->tracePoint(0);
  CHECK((start.head<2>() - mid.head<2>()).norm() < 0.003);
  win.shot("trace_after_run");
}

TEST_CASE("contact events are marked on the time slider and the plots", "[gui][ux-view]") {
  // The bouncing ball dropped from 1 m (radius 5 cm, e = 0.5): first impact at
  // sqrt(2 · 0.95 / 9.81) = 0.44008 s; the events are the simulation's own, located to 1e-9 s.
  Win win;
  REQUIRE(win.w.openFile(sample("bouncing_ball")));
  SimulationController* c = win.w.controller();
  c->runFor(1.2);
  QCoreApplication::processEvents();
  const auto& events = c->events();
  REQUIRE(!events.empty());
  CHECK(events[0].kind == "impact");
  CHECK(events[0].t == Approx(std::sqrt(2 * 0.95 / 9.81)).margin(1e-9));
  TimeSlider* slider = win.w.simulationToolBar()->timeSlider();
  REQUIRE(slider);
  CHECK(slider->span() == Approx(1.2).margin(1e-9));
  CHECK(slider->xOfTime(events[0].t) < slider->xOfTime(1.2));
  const auto& plots = win.w.plotDock()->plots();
  REQUIRE(!plots.empty());
  waitFor([&] { return plots[0]->eventMarksDrawn() == static_cast<int>(events.size()); }, 2000);
  CHECK(plots[0]->eventMarksDrawn() == static_cast<int>(events.size()));
  win.shot("contact_events");
  // Reset forgets them with the run.
  c->reset();
  waitFor([&] { return c->events().empty(); }, 2000);
  CHECK(c->events().empty());
}
#endif

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
#endif
