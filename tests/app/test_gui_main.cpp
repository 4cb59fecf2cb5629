// The desktop application under Xvfb (run: xvfb-run -a -s "-screen 0 1280x800x24" test_gui):
// every sample opens, a simulated second fills the plots, play/pause/step/reset change state,
// screenshots are not blank and change with time, malformed files keep the previous document.
// Built only as its own target (ARTICULA_GUI_TEST); in any other target this file is empty.
#ifdef ARTICULA_GUI_TEST
#define CATCH_CONFIG_RUNNER
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSlider>
#include <QTemporaryDir>
#include <QThread>
#include <QTreeWidget>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/io/project.hpp"
#include "core/io/visual_json.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/runner.hpp"
#include "core/sim/snapshot_history.hpp"
#include "tests/app/gui_support.hpp"
#include "ui/application.hpp"
#include "ui/autosave.hpp"
#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/model_tree_dock.hpp"
#include "ui/offscreen_gl_widget.hpp"
#include "ui/plot_dock.hpp"
#include "ui/plot_widget.hpp"
#include "ui/recent_files.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_tool_bar.hpp"
#include "ui/viewport_panel.hpp"
#ifdef ARTICULA_HAVE_VIDEO
#include "ui/video_export.hpp"
#endif

using namespace articula;
using namespace articula::gui_test;
using State = SimulationController::State;

TEST_CASE("the window opens every sample", "[gui][samples]") {
  Window win;
  const QStringList files = QDir(kSamples).entryList({"*.json"}, QDir::Files, QDir::Name);
  REQUIRE(files.size() >= 4);
  for (const QString& f : files) {
    INFO(f.toStdString());
    REQUIRE(win.w.openFile(kSamples + "/" + f));
    const Mechanism* m = win.w.document()->mechanism().get();
    REQUIRE(m != nullptr);
    CHECK(win.w.controller()->state() == State::Paused);
    CHECK(win.w.controller()->hasCurrent());
    CHECK(win.w.controller()->current().t == 0.0);
    // Root item, then one group per kind with the bodies and joints of the file.
    QTreeWidgetItem* root = win.w.modelTree()->tree()->topLevelItem(0);
    REQUIRE(root != nullptr);
    CHECK(root->child(0)->childCount() == static_cast<int>(m->spec.bodies.size()));
    CHECK(root->child(1)->childCount() + root->child(2)->childCount() ==
          static_cast<int>(m->spec.joints.size()));
    CHECK(win.w.plotDock()->plots().size() == 2);
    CHECK(win.w.windowTitle().startsWith(f));
  }
}

TEST_CASE("one simulated second runs on the simulation thread and fills the plots",
          "[gui][simulation]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  SimulationController* c = win.w.controller();
  c->setSpeed(4.0);
  c->play();
  CHECK(c->state() == State::Playing);
  REQUIRE(waitFor([&] { return c->current().t >= 1.0; }, 60000));
  c->pause();
  const auto& plots = win.w.plotDock()->plots();
  REQUIRE(plots.size() == 2);
  for (PlotWidget* p : plots) {
    CHECK(p->sampleCount() >= 900);  // every 1 ms step recorded (plus t = 0)
    REQUIRE(!p->channels().empty());
    const std::vector<double>& v = p->values(0);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    CHECK(*hi - *lo > 1e-3);  // the crank torque and the pivot force vary over a turn
  }
  CHECK(c->history().size() >= 1000);
}

TEST_CASE("runFor records every step synchronously", "[gui][simulation]") {
  Window win;
  REQUIRE(win.w.openFile(sample("slider_crank")));
  win.w.controller()->runFor(0.5);
  CHECK(win.w.controller()->current().t == Approx(0.5).margin(1e-9));
  CHECK(win.w.controller()->history().size() == 501);
  for (PlotWidget* p : win.w.plotDock()->plots()) CHECK(p->sampleCount() == 501);
}

TEST_CASE("play, pause, step and reset change the state as expected", "[gui][controls]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  SimulationController* c = win.w.controller();
  REQUIRE(c->state() == State::Paused);
  c->play();
  REQUIRE(c->state() == State::Playing);
  REQUIRE(waitFor([&] { return c->current().t > 0.05; }, 10000));
  c->pause();
  CHECK(c->state() == State::Paused);
  settle(100);  // the last published state arrives
  const double paused_at = c->current().t;
  settle(300);
  CHECK(c->current().t == paused_at);  // nothing runs while paused

  c->step();
  REQUIRE(waitFor([&] { return c->current().t > paused_at; }, 5000));
  CHECK(c->current().t == Approx(paused_at + 1e-3).margin(1e-9));
  CHECK(c->state() == State::Paused);

  c->reset();
  CHECK(c->state() == State::Paused);
  CHECK(c->current().t == 0.0);
  CHECK(c->history().size() == 1);
  for (PlotWidget* p : win.w.plotDock()->plots()) CHECK(p->sampleCount() == 1);

  // Scrubbing shows recorded states without running the simulation.
  c->runFor(0.2);
  c->showTime(0.1);
  CHECK_FALSE(c->isFollowing());
  CHECK(c->current().t == Approx(0.1).margin(1e-9));
  c->followLive();
  CHECK(c->current().t == Approx(0.2).margin(1e-9));
}

TEST_CASE("no two actions of the window share a shortcut", "[gui][controls]") {
  // Qt reports an ambiguous shortcut and fires neither (T was Ternary link and Trace).
  Window win;
  std::map<QString, QString> owner;
  for (QAction* a : win.w.findChildren<QAction*>()) {
    for (const QKeySequence& k : a->shortcuts()) {
      const QString key = k.toString(), name = a->text();
      if (key.isEmpty()) continue;
      INFO(key.toStdString() << ": " << owner[key].toStdString() << " and " << name.toStdString());
      CHECK((owner[key].isEmpty() || owner[key] == name));
      owner[key] = name;
    }
  }
  CHECK(owner.size() >= 12);  // the sketch tools alone have a key each
}

TEST_CASE("a simulation error stops the run and shows in the diagnostics", "[gui][controls]") {
  // The Peaucellier crank cannot turn fully: driving it round breaks the loops at t = 0.18 s.
  QFile in(sample("peaucellier"));
  REQUIRE(in.open(QIODevice::ReadOnly));
  QString text = QString::fromUtf8(in.readAll());
  REQUIRE(text.contains("0.3 + 0.6*sin(pi*t)"));
  text.replace("0.3 + 0.6*sin(pi*t)", "0.3 + 2*pi*t");
  QTemporaryDir dir;
  QFile out(dir.filePath("full_turn.json"));
  REQUIRE(out.open(QIODevice::WriteOnly));
  out.write(text.toUtf8());
  out.close();
  Window win;
  REQUIRE(win.w.openFile(out.fileName()));
  SimulationController* c = win.w.controller();
  c->runFor(1.0);
  REQUIRE(waitFor([&] { return c->state() == State::Failed; }, 5000));
  CHECK(c->current().t < 0.5);
  const DiagnosticsDock* d = win.w.diagnostics();
  REQUIRE(d->messageCount() > 0);
  CHECK(d->messageText(d->messageCount() - 1).contains("stopped"));
  c->play();  // refused: a failed run must be reset first
  CHECK(c->state() == State::Failed);
  c->reset();
  CHECK(c->state() == State::Paused);
  CHECK(c->current().t == 0.0);
}

TEST_CASE("a motion law that blows up is named in the diagnostics, as the CLI names it",
          "[gui][controls]") {
  // The four-bar's crank driven by 0.3 + 1/(t - 0.5) (issue 23: it read "drove the mechanism
  // past a dead point"); the words are core's drive_outran_step, as in test_cli_hostile.
  Window win;
  REQUIRE(win.w.openFile(QString(ARTICULA_SOURCE_DIR) + "/tests/data/hostile/drive_blows_up.json"));
  SimulationController* c = win.w.controller();
  c->runFor(1.0);
  REQUIRE(waitFor([&] { return c->state() == State::Failed; }, 5000));
  const DiagnosticsDock* d = win.w.diagnostics();
  REQUIRE(d->messageCount() > 0);
  const QString text = d->messageText(d->messageCount() - 1);
  INFO(text.toStdString());
  CHECK(
      text.contains("at t = 0.481 the motion law of joint 'A0' moves it by 2.63158 rad in one "
                    "step of 0.001 s (q = -52.3316 rad, q' = -2770.08 rad/s), more than a step "
                    "can follow (0.5 rad): check the law, or use a smaller step"));
  CHECK_FALSE(text.contains("dead point"));
  CHECK(c->current().t == Approx(0.48));  // the last good step is kept
}

TEST_CASE("a malformed file shows the error and keeps the previous document", "[gui][files]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  const QString before = win.w.document()->path();
  const Mechanism* mech = win.w.document()->mechanism().get();
  QTemporaryDir dir;
  QFile in(sample("fourbar"));
  REQUIRE(in.open(QIODevice::ReadOnly));
  QString text = QString::fromUtf8(in.readAll());
  text.replace("\"type\": \"revolute\"", "\"type\": \"hinge\"");  // every joint: the first fails
  const QString bad = dir.filePath("bad_type.json");
  QFile out(bad);
  REQUIRE(out.open(QIODevice::WriteOnly));
  out.write(text.toUtf8());
  out.close();

  CHECK_FALSE(win.w.openFile(bad));
  CHECK(win.w.lastError().contains("/joints/0/type"));
  CHECK(win.w.document()->path() == before);
  CHECK(win.w.document()->mechanism().get() == mech);
  const DiagnosticsDock* d = win.w.diagnostics();
  REQUIRE(d->messageCount() > 0);
  CHECK(d->messageText(d->messageCount() - 1).contains("/joints/0/type"));

  const QString syntax = dir.filePath("syntax.json");
  QFile s(syntax);
  REQUIRE(s.open(QIODevice::WriteOnly));
  s.write("{ \"format\": \"articula\", ");
  s.close();
  CHECK_FALSE(win.w.openFile(syntax));
  CHECK_FALSE(win.w.lastError().isEmpty());
  CHECK(win.w.document()->path() == before);
  // The simulation of the kept document still works.
  win.w.controller()->runFor(0.01);
  CHECK(win.w.controller()->current().t == Approx(0.01));
}

TEST_CASE("new, save and recent files", "[gui][files]") {
  Window win;
  REQUIRE(win.w.openFile(sample("double_pendulum")));
  QTemporaryDir dir;
  const QString copy = dir.filePath("copy.json");
  REQUIRE(win.w.document()->save(copy));
  CHECK(win.w.document()->path() == QFileInfo(copy).absoluteFilePath());
  CHECK_FALSE(win.w.document()->isModified());
  CHECK(win.w.windowTitle().startsWith("copy.json"));
  REQUIRE(win.w.openFile(copy));  // what was saved reads back
  CHECK(RecentFiles().files().value(0) == QFileInfo(copy).absoluteFilePath());

  win.w.newDocument();
  CHECK(win.w.document()->mechanism() == nullptr);
  CHECK(win.w.document()->path().isEmpty());
  CHECK(win.w.controller()->state() == State::Empty);
  CHECK(win.w.plotDock()->plots().empty());
  win.w.controller()->play();  // nothing to run
  CHECK(win.w.controller()->state() == State::Empty);
  REQUIRE(win.w.openFile(sample("fourbar")));
  CHECK(win.w.controller()->state() == State::Paused);
}

TEST_CASE("unsaved changes are asked about before the window closes", "[gui][files]") {
  Window win;
  REQUIRE(win.w.openFile(sample("pendulum")));
  win.w.document()->undoStack()->push(new QUndoCommand("an edit"));
  REQUIRE(win.w.document()->isModified());
  int asked = 0;
  win.w.setUnsavedChangesPrompt([&] { return ++asked, QMessageBox::Cancel; });
  win.w.close();
  CHECK(asked == 1);
  CHECK(win.w.isVisible());
  win.w.setUnsavedChangesPrompt([&] { return ++asked, QMessageBox::Discard; });
  win.w.close();
  CHECK(asked == 2);
  CHECK_FALSE(win.w.isVisible());
}

TEST_CASE("selection follows between the model tree and the document", "[gui][selection]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  win.w.document()->setSelection({-1, 3});
  QTreeWidgetItem* item = win.w.modelTree()->tree()->currentItem();
  REQUIRE(item != nullptr);
  CHECK(item->text(0) == "B0");
  win.w.document()->setSelection({1, -1});
  REQUIRE(win.w.modelTree()->tree()->currentItem() != nullptr);
  CHECK(win.w.modelTree()->tree()->currentItem()->text(0) == "coupler");
  // And back: choosing a tree item selects it in the document (and so in the viewport).
  QTreeWidgetItem* rocker = win.w.modelTree()->tree()->topLevelItem(0)->child(0)->child(2);
  win.w.modelTree()->tree()->setCurrentItem(rocker);
  CHECK(win.w.document()->selection() == Selection{2, -1});
}

TEST_CASE("the trace of a selected joint follows it, and reset starts it anew",
          "[gui][selection]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  REQUIRE(win.w.viewport()->has3D());
  QAction* trace = nullptr;
  for (QAction* a : win.w.findChildren<QAction*>())
    if (a->text() == "&Trace Selected Point") trace = a;
  REQUIRE(trace);
  trace->trigger();  // nothing selected: nothing to trace
  CHECK_FALSE(win.w.viewport()->isTracing());
  win.w.document()->setSelection({-1, 1});  // joint A, crank to coupler
  trace->trigger();
  REQUIRE(win.w.viewport()->isTracing());
  SimulationController* c = win.w.controller();
  c->play();
  REQUIRE(waitFor([&] { return c->current().t >= 0.5; }, 30000));
  c->pause();
  settle(100);
  CHECK(win.w.viewport()->traceSize() >= 3);  // a point per displayed frame
  c->reset();
  settle(100);
  CHECK(win.w.viewport()->traceSize() <= 1);
  CHECK(win.w.viewport()->isTracing());
}

TEST_CASE("reaction-force arrows, joint axes and body frames show when switched on",
          "[gui][selection]") {
  Window win;
  REQUIRE(win.w.openFile(sample("stewart_platform")));
  win.w.controller()->runFor(0.2);
  auto* gl = win.w.viewport()->findChild<OffscreenGLWidget*>();
  REQUIRE(gl);
  settle(300);
  const QImage plain = gl->grabFramebuffer();
  for (const char* name : {"Reaction-Force Arro&ws", "Joint &Axes", "Body F&rames"}) {
    INFO(name);
    QAction* overlay = nullptr;
    for (QAction* a : win.w.findChildren<QAction*>())
      if (a->text() == name) overlay = a;
    REQUIRE(overlay);
    overlay->setChecked(true);
    settle(300);
    const QImage shown = gl->grabFramebuffer();
    if (const QString dir = qEnvironmentVariable("ARTICULA_TEST_SHOTS"); !dir.isEmpty())
      shown.save(QDir(dir).filePath(QString(name).remove('&') + ".png"));  // to look at
    CHECK(changedFraction(plain, shown) > 3e-4);  // the joint axes are small arrows
    overlay->setChecked(false);
    settle(300);
    CHECK(changedFraction(plain, gl->grabFramebuffer()) < 0.001);
  }
}

TEST_CASE("the window shows the mechanism and exports CSV", "[gui][export]") {
  Window win;
  REQUIRE(win.w.openFile(sample("jansen_leg")));
  win.w.controller()->runFor(0.25);
  settle(300);
  const QImage shot = win.w.grab().toImage();
  const QRect view(win.w.viewport()->mapTo(&win.w, QPoint(0, 0)), win.w.viewport()->size());
  CHECK(luma(shot, view).stddev > 5.0);  // the viewport is not blank (GL composed into grab)
  QTemporaryDir dir;
  const QString csv = dir.filePath("run.csv");
  REQUIRE(win.w.exportCsv(csv));
  QFile f(csv);
  REQUIRE(f.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
  CHECK(lines.size() == 252);  // header + t = 0 .. 0.25 s
  const auto header = csv_header(*win.w.document()->mechanism());
  CHECK(lines[0].split(',').size() == static_cast<int>(header.size()));
  CHECK(lines[0].startsWith("t,"));
}

#ifdef ARTICULA_HAVE_INTERCHANGE
TEST_CASE("File > Import and Export: a URDF opens untitled, exports to SDF and back",
          "[gui][export]") {
  Window win;
  const QString urdf = QString(ARTICULA_SOURCE_DIR) + "/tests/data/interchange/iiwa14.urdf";
  REQUIRE(win.w.importFile(urdf));
  CHECK(win.w.document()->path().isEmpty());  // untitled: Save asks where
  CHECK(win.w.document()->spec().bodies.size() == 8);
  REQUIRE(win.w.document()->mechanism());
  QTemporaryDir dir;
  REQUIRE(win.w.exportFile(dir.filePath("iiwa.sdf")));
  REQUIRE(win.w.openFile(dir.filePath("iiwa.sdf")));  // opening an SDF imports it
  CHECK(win.w.document()->spec().joints.size() == 8);
  CHECK(!win.w.exportFile(dir.filePath("iiwa.step")));
  CHECK(win.w.lastError().contains("unknown extension"));
  CHECK(!win.w.importFile(QString(ARTICULA_SOURCE_DIR) +
                          "/tests/data/interchange/hostile/unknown_joint_type.urdf"));
  CHECK(win.w.lastError().contains("<joint name='elbow'>"));
  CHECK(win.w.document()->spec().joints.size() == 8);  // the failed import kept the document
  // URDF visuals come in as the bodies' shapes and go back out to URDF
  REQUIRE(
      win.w.importFile(QString(ARTICULA_SOURCE_DIR) + "/tests/data/interchange/arm_visuals.urdf"));
  auto visuals = [&](const char* body) {
    const MechanismSpec& spec = win.w.document()->spec();
    return body_visuals(spec.bodies.at(spec.body_index(body))).size();
  };
  CHECK(visuals("upper_arm") == 2);
  REQUIRE(win.w.exportFile(dir.filePath("arm.urdf")));
  REQUIRE(win.w.openFile(dir.filePath("arm.urdf")));
  CHECK(visuals("upper_arm") == 2);
  CHECK(visuals("base") == 1);
}
#endif

#ifdef ARTICULA_HAVE_VIDEO
TEST_CASE("File > Export Video writes the recorded motion and can be cancelled", "[gui][export]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  win.w.controller()->runFor(0.5);
  settle(200);
  QTemporaryDir dir;
  VideoSettings s;
  s.path = dir.filePath("fourbar.webm");
  s.duration = 0.5;
  s.fps = 8;
  s.size = QSize(200, 150);
  const VideoResult r = exportVideo(win.w, s);
  CHECK(r.error.isEmpty());
  CHECK(r.frames == 4);
  CHECK(r.size == QSize(200, 150));
  CHECK(QFileInfo(s.path).size() > 0);
  s.path = dir.filePath("cancelled.mp4");
  const VideoResult c = exportVideo(win.w, s, [](int done, int) { return done < 2; });
  CHECK(c.cancelled);
  CHECK(!QFileInfo::exists(s.path));
  CHECK(QDir(dir.path()).entryList(QDir::Files).size() == 1);  // no partial file left
}
#endif

TEST_CASE("history decimation keeps uniform resolution within its budget", "[gui][history]") {
  SnapshotHistory h(1);  // tiny budget: the minimum capacity (1000 records) applies
  Snapshot s;
  for (long step = 0; step <= 5000; ++step) {
    s.t = step * 1e-3;
    h.append(step, s);
  }
  CHECK(h.size() < h.capacity());
  CHECK(h.stride() == 8);
  long last = -1;
  bool uniform = true;
  double prev = -1;
  h.forEach([&](const Snapshot& r) {
    if (prev >= 0 && last >= 0) uniform &= std::abs((r.t - prev) - 8e-3) < 1e-12;
    last = 1;
    prev = r.t;
  });
  CHECK(uniform);
  Snapshot latest;
  REQUIRE(h.latest(latest));
  CHECK(latest.t == Approx(5.0));
}

TEST_CASE("the 3-D view is opaque, so the 2-D grid keeps its grey in window grabs",
          "[gui][screenshot]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));  // planar: the 2-D orthographic view
  auto* gl = win.w.viewport()->findChild<OffscreenGLWidget*>();
  REQUIRE(gl);
  settle(500);
  // The frame must be opaque: composed as premultiplied RGBA (as QOpenGLWidget's was), any alpha
  // below 1 (blended grid lines used to leave 0.77) made colour exceed alpha, and QPainter's
  // blending wrapped those channels; the view now paints its frame as opaque RGB.
  const QImage fb = gl->grabFramebuffer().convertToFormat(QImage::Format_ARGB32);
  int min_alpha = 255;
  for (int y = 0; y < fb.height(); ++y)
    for (int x = 0; x < fb.width(); ++x) min_alpha = std::min(min_alpha, qAlpha(fb.pixel(x, y)));
  CHECK(min_alpha == 255);
  // In the window grab the only saturated red is the world x axis (one line of the grid); the
  // wrapped grid lines had coloured several whole rows and columns red, yellow and black.
  const QImage shot = win.w.grab().toImage().convertToFormat(QImage::Format_RGB32);
  const QRect view(gl->mapTo(&win.w, QPoint(0, 0)), gl->size());
  long red = 0;
  for (int y = view.top(); y <= view.bottom(); ++y)
    for (int x = view.left(); x <= view.right(); ++x) {
      const QColor c(shot.pixel(x, y));
      red += c.hsvSaturation() > 150 && (c.hsvHue() < 15 || c.hsvHue() > 345) && c.value() > 150;
    }
  CHECK(red < 3 * view.width());
}

TEST_CASE("play after scrubbing back continues from the scrubbed instant", "[gui][history]") {
  Window win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  SimulationController* c = win.w.controller();
  c->runFor(1.0);
  std::vector<Snapshot> original;
  c->history().forEach([&](const Snapshot& s) { original.push_back(s); });
  REQUIRE(original.size() == 1001);  // every 1 ms step and t = 0
  // The user drags the time slider back to 40 % and presses play.
  auto* slider = win.w.simulationToolBar()->findChild<QSlider*>();
  REQUIRE(slider);
  slider->setValue(400);
  CHECK(c->current().t == Approx(0.4).margin(1e-9));
  CHECK_FALSE(c->isFollowing());
  win.w.simulationToolBar()->playAction()->trigger();
  CHECK(c->state() == State::Playing);
  // The later history is gone at once (the plots follow at the next poll), and the run goes on.
  CHECK(c->history().duration() < 0.45);
  REQUIRE(waitFor([&] { return c->current().t >= 0.6; }, 30000));
  c->pause();
  settle(100);
  const std::size_t n = c->history().size();
  CHECK(n < original.size());
  for (PlotWidget* p : win.w.plotDock()->plots()) CHECK(p->sampleCount() == n);
  // From the same state the same integrator retraces the original run: every record after the
  // restart equals the one recorded before scrubbing (1e-12, round-off only), work included.
  std::size_t compared = 0;
  double worst = 0;
  c->history().forEach([&](const Snapshot& s) {
    const std::size_t k = static_cast<std::size_t>(std::lround(s.t / 1e-3));
    if (k >= original.size()) return;
    const Snapshot& o = original[k];
    REQUIRE(o.t == Approx(s.t).margin(1e-12));
    worst = std::max({worst, (s.q - o.q).cwiseAbs().maxCoeff(), (s.qd - o.qd).cwiseAbs().maxCoeff(),
                      std::abs(s.work - o.work)});
    ++compared;
  });
  CHECK(compared == n);
  CHECK(worst < 1e-12);
  CHECK(c->current().t > 0.55);
}

TEST_CASE("the screenshot command writes a non-blank image that changes with time",
          "[gui][screenshot]") {
  QTemporaryDir dir;
  const QString t0 = dir.filePath("t0.png"), t1 = dir.filePath("t1.png");
  const Run a = runApp({"--screenshot", t0, "--run-for", "0", sample("fourbar")});
  INFO(a.output.toStdString());
  REQUIRE(a.status == 0);
  // Half a crank turn (the drive turns it once a second, so at t = 1 s it is back where it began).
  const Run b =
      runApp({"--screenshot", t1, "--run-for", "0.5", "--size", "1280x800", sample("fourbar")});
  INFO(b.output.toStdString());
  REQUIRE(b.status == 0);
  const QImage i0(t0), i1(t1);
  REQUIRE(i0.size() == QSize(1280, 800));
  REQUIRE(i1.size() == QSize(1280, 800));
  CHECK(luma(i0).stddev > 20.0);
  CHECK(luma(i1).stddev > 20.0);
  CHECK(changedFraction(i0, i1) > 0.005);  // the linkage moved and the plots filled

  const Run missing = runApp({"--screenshot", t0, dir.filePath("none.json")});
  CHECK(missing.status == 2);
  CHECK(missing.output.contains("none.json"));
  const Run usage = runApp({"--screenshot", t0, "--size", "big", sample("fourbar")});
  CHECK(usage.status == 1);
}

int main(int argc, char* argv[]) {
  prepareApplication();
  QApplication app(argc, argv);                           // needs a display: run under xvfb-run
  QCoreApplication::setOrganizationName("ArticulaTest");  // keep the user's settings out of it
  if (argc == 3 && QByteArray(argv[1]) == "--autosave-child") return autosaveChild(argv[2]);
  return Catch::Session().run(argc, argv);
}
#endif  // ARTICULA_GUI_TEST
