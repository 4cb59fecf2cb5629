// The defects of issue 23's list in the sketch and its editing (item 5), each reproduced first:
// Shift+drag without a preview and with the centre of mass and inertia left behind, the Delete tool
// testing clicks against the t = 0 pose during a run, File > New keeping the zoom, the turning
// crank leaving the sketch, joint names overlapping, cut at the edge or drawn under links, and a
// point of the Jansen leg traced after a run. Under Xvfb with synthesized events
// (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/sim/mechanism.hpp"
#include "tests/app/gui_ux_window.hpp"
#include "ui/application.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/sketch_contacts.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/viewport_panel.hpp"
#ifdef ARTICULA_HAVE_RENDER
#include "ui/viewport_widget.hpp"
#endif

using namespace articula;
using gui_test::sample;
using gui_test::Win;
using Tool = SketchEditor::Tool;

namespace {
// A body's drawn points in the world, as the sketch shows them now.
std::vector<Vec3> drawnPoints(const SketchEditor* e, int body) {
  std::vector<Vec3> out;
  for (const Vec3& v : e->outline(body)) out.push_back(e->bodyToWorld(body, v));
  return out;
}
}  // namespace

TEST_CASE("Shift+drag previews the moved point; centre of mass and inertia follow it",
          "[gui][ux-sketch]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  win.e->setGridSnap(false);
  const MechanismSpec before = win.w.document()->spec();
  const int crank = before.body_index("crank"), coupler = before.body_index("coupler");
  // A, the crank's end (0.1 m from A0), pulled out along the crank to about 0.15 m.
  const QPoint from = win.e->toScreen(win.e->bodyToWorld(crank, Vec3(0.1, 0, 0))).toPoint();
  const QPoint to = win.e->toScreen(win.e->bodyToWorld(crank, Vec3(0.15, 0, 0))).toPoint();
  const Vec3 target = win.e->toWorld(to);
  QTest::mousePress(win.e, Qt::LeftButton, Qt::ShiftModifier, from);
  QTest::mouseMove(win.e, (from + to) / 2);
  QTest::mouseMove(win.e, to);
  QCoreApplication::processEvents();
  // While dragging: the crank and the coupler are drawn to the pointer, the document unchanged.
  for (int b : {crank, coupler}) {
    const std::vector<Vec3> pts = drawnPoints(win.e, b);
    INFO("body " << b);
    CHECK(std::any_of(pts.begin(), pts.end(), [&](const Vec3& p) {
      return (p - target).norm() < 1e-9;  // m: the edit's own arithmetic, no pixel rounding
    }));
  }
  CHECK(win.w.document()->spec() == before);
  win.shot("shift_drag_preview");
  QTest::mouseRelease(win.e, Qt::LeftButton, Qt::ShiftModifier, to);
  QCoreApplication::processEvents();
  const MechanismSpec& after = win.w.document()->spec();
  const JointSpec& A = after.joints[after.joint_index("A")];
  const Vec3 a = A.parent_frame.position;  // A on the crank, crank frame
  CHECK((win.e->bodyToWorld(crank, a) - target).norm() < 1e-9);
  // The sample's masses are typed: kept. The crank's centre of mass is mid-way along the new
  // crank and Izz that of a uniform 20 mm wide bar of that mass and length, m (L² + w²) / 12.
  const double L = a.norm(), w = 0.02;
  REQUIRE(L > 0.13);
  const BodySpec& c = after.bodies[crank];
  CHECK(c.mass == before.bodies[crank].mass);
  CHECK((c.com - 0.5 * a).norm() < 1e-12);
  CHECK(c.inertia[2] == Approx(c.mass * (L * L + w * w) / 12).epsilon(1e-12));
  // The coupler, from A to B (0.28 m on the coupler) before: its length changed with A.
  const BodySpec& k = after.bodies[coupler];
  const Vec3 kA = A.child_frame.position,
             kB = after.joints[after.joint_index("B")].parent_frame.position;
  const double Lk = (kB - kA).norm();
  CHECK(std::abs(Lk - 0.28) > 1e-3);
  CHECK(k.mass == before.bodies[coupler].mass);
  CHECK((k.com - 0.5 * (kA + kB)).norm() < 1e-12);
  CHECK(k.inertia[2] == Approx(k.mass * (Lk * Lk + w * w) / 12).epsilon(1e-12));
  // The 3D view's solid (inertia-equivalent, about the centre of mass) lies on the new crank, so
  // it is drawn as one bar, not the old bar beside a new segment.
  REQUIRE(win.w.document()->mechanism());
  win.shot("shift_drag_after");
  win.w.document()->undoStack()->undo();
  CHECK(win.w.document()->spec() == before);
}

TEST_CASE("Shift+drag while paused at t > 0 moves the drawn point, shown at t = 0",
          "[gui][ux-sketch]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  win.e->setGridSnap(false);
  const MechanismSpec before = win.w.document()->spec();
  const int crank = before.body_index("crank");
  // A, the crank's end, where the drawing has it (t = 0), and 5 cm further out along the crank.
  const Vec3 a0 = win.e->bodyToWorld(crank, Vec3(0.1, 0, 0));
  const Vec3 a1 = win.e->bodyToWorld(crank, Vec3(0.15, 0, 0));
  SimulationController* c = win.w.controller();
  c->runFor(0.25);  // a quarter turn: A is shown 90° away from where it is drawn
  c->showTime(0.25);
  QCoreApplication::processEvents();
  REQUIRE(win.e->snapshot());
  REQUIRE((win.e->bodyToWorld(crank, Vec3(0.1, 0, 0)) - a0).norm() > 0.05);
  const QPoint from = win.e->toScreen(a0).toPoint();
  QTest::mousePress(win.e, Qt::LeftButton, Qt::ShiftModifier, from);
  QCoreApplication::processEvents();
  // The press returned the sketch to t = 0 (as the drawing tools do) and took A as drawn.
  CHECK((!win.e->snapshot() || win.e->snapshot()->t == 0));
  CHECK((win.e->bodyToWorld(crank, Vec3(0.1, 0, 0)) - a0).norm() < 1e-12);
  const QPoint to = win.e->toScreen(a1).toPoint();
  const Vec3 target = win.e->toWorld(to);
  QTest::mouseMove(win.e, (from + to) / 2);
  QTest::mouseMove(win.e, to);
  QTest::mouseRelease(win.e, Qt::LeftButton, Qt::ShiftModifier, to);
  QCoreApplication::processEvents();
  const MechanismSpec& after = win.w.document()->spec();
  REQUIRE(!(after == before));
  const JointSpec& A = after.joints[after.joint_index("A")];
  // m: the edit's own arithmetic from the pixel the pointer was released on.
  CHECK((win.e->bodyToWorld(crank, A.parent_frame.position) - target).norm() < 1e-9);
  CHECK(A.parent_frame.position.norm() > 0.13);  // the crank grew, it did not turn
  // The ground pivots are where they were drawn.
  for (const char* name : {"A0", "B0"}) {
    const JointSpec& j0 = before.joints[before.joint_index(name)];
    const JointSpec& j1 = after.joints[after.joint_index(name)];
    CHECK((j1.parent_frame.position - j0.parent_frame.position).norm() < 1e-12);
  }
}

TEST_CASE("the Delete tool during a run deletes what is shown, not the t = 0 pose",
          "[gui][ux-sketch]") {
  Win win;
  REQUIRE(win.w.openFile(sample("fourbar")));
  SimulationController* c = win.w.controller();
  c->runFor(0.25);  // the crank turns 2π t: a quarter turn, from 17° to 107°
  c->showTime(0.25);
  QCoreApplication::processEvents();
  REQUIRE(win.e->snapshot());
  REQUIRE(win.e->snapshot()->t == Approx(0.25));
  const int crank = win.w.document()->spec().body_index("crank");
  const Vec3 mid = win.e->bodyToWorld(crank, Vec3(0.05, 0, 0));  // as shown at 0.25 s
  win.tool(Tool::Delete);
  win.click(mid.x(), mid.y());
  CHECK(win.w.document()->spec().body_index("crank") < 0);
  CHECK(win.w.document()->spec().bodies.size() == 2);
}

TEST_CASE("File > New shows the default view, not the previous zoom", "[gui][ux-sketch]") {
  Win win;
  win.w.newDocument();
  QCoreApplication::processEvents();
  const double scale0 = win.e->scale();
  const QPointF origin0 = win.e->toScreen(Vec3::Zero());
  REQUIRE(win.w.openFile(sample("fourbar")));
  const QPoint at = win.e->rect().center();
  QWheelEvent wheel(QPointF(at), QPointF(win.e->mapToGlobal(at)), QPoint(), QPoint(0, 480),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(win.e, &wheel);
  REQUIRE(std::abs(win.e->scale() - scale0) > 1);
  win.w.newDocument();
  QCoreApplication::processEvents();
  CHECK(win.e->scale() == scale0);
  CHECK(win.e->toScreen(Vec3::Zero()) == origin0);
}

TEST_CASE("the sketch keeps the moving mechanism in view", "[gui][ux-sketch]") {
  // The four-bar's crank (0.1 m) and the Jansen leg's (0.15 m) turn once a second: every drawn
  // point stays inside the sketch at every shown instant of the turn.
  Win win;
  for (const char* name : {"fourbar", "jansen_leg"}) {
    INFO(name);
    REQUIRE(win.w.openFile(sample(name)));
    SimulationController* c = win.w.controller();
    c->runFor(1.0);
    int outside = 0;
    for (int k = 0; k <= 50; ++k) {
      c->showTime(0.02 * k);
      QCoreApplication::processEvents();
      for (int b = 0; b < static_cast<int>(win.w.document()->spec().bodies.size()); ++b)
        for (const Vec3& p : drawnPoints(win.e, b))
          outside += !QRectF(win.e->rect()).contains(win.e->toScreen(p));
    }
    CHECK(outside == 0);
    win.shot(QString("in_view_") + name);
  }
}

TEST_CASE("every planar sample opens whole in the sketch, its contact geometry included",
          "[gui][ux-sketch]") {
  // The Geneva drive opened cut: its crank pin and the wheel's slot mouths were outside the view
  // (the fit took joints and outlines, not what the contacts draw).
  Win win;
  const QDir dir(QStringLiteral(ARTICULA_SOURCE_DIR "/samples"));
  for (const QString& file : dir.entryList({"*.json"}, QDir::Files)) {
    INFO(file.toStdString());
    REQUIRE(win.w.openFile(dir.filePath(file)));
    const auto mech = win.w.document()->simulated();
    if (!mech || !mech->planar) continue;
    QCoreApplication::processEvents();
    const MechanismSpec& spec = win.w.document()->spec();
    std::vector<Vec3> shown;
    for (int b = 0; b < static_cast<int>(spec.bodies.size()); ++b)
      for (const Vec3& p : drawnPoints(win.e, b)) shown.push_back(p);
    for (const ContactPoint& c :
         contactExtent(spec, [&](int b, const Vec3&local) { return win.e->bodyToWorld(b, local); }))
      shown.push_back(c.world);
    int outside = 0;
    for (const Vec3& p : shown) outside += !QRectF(win.e->rect()).contains(win.e->toScreen(p));
    CHECK(outside == 0);
  }
}

namespace {
// Two chains of `links` bars hanging from ground side by side (planar, no loop): 2 * links joints.
QString writeChains(const QTemporaryDir& dir, int links) {
  nlohmann::json bodies = nlohmann::json::array(), joints = nlohmann::json::array();
  for (int side = 0; side < 2; ++side)
    for (int k = 0; k < links; ++k) {
      const std::string name = (side ? "b" : "a") + std::to_string(k + 1);
      const std::string parent = k ? (side ? "b" : "a") + std::to_string(k) : "ground";
      bodies.push_back({{"name", name},
                        {"mass", 0.34},
                        {"com", {0.05, 0, 0}},
                        {"inertia", {6.8e-5, 3.2e-4, 3.2e-4, 0, 0, 0}},
                        {"pose", {{"position", {0.1 * k, -0.3 * side, 0}}}}});
      const double x = k ? 0.1 : 0.0, y = k ? 0.0 : -0.3 * side;
      joints.push_back({{"name", "j" + name},
                        {"type", "revolute"},
                        {"parent", parent},
                        {"child", name},
                        {"parent_frame", {{"position", {x, y, 0}}}}});
    }
  const nlohmann::json project = {{"format", "articula"}, {"version", 1},
                                  {"name", "chains"},     {"gravity", {0, -9.81, 0}},
                                  {"bodies", bodies},     {"joints", joints}};
  const QString path = dir.filePath("chains.json");
  QFile f(path);
  REQUIRE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray::fromStdString(project.dump()));
  return path;
}
}  // namespace

TEST_CASE("many joints: names only zoomed in or selected; every joint and link still drawn",
          "[gui][ux-sketch]") {
  // Issue 17 item 4: above SketchEditor::kSketchManyNames joints, the names of the points in
  // view while there are no more than that many (zoomed in), else the selected joint's alone.
  QTemporaryDir dir;
  Win win;
  const int links = 90;  // 180 joints
  REQUIRE(win.w.openFile(writeChains(dir, links)));
  QCoreApplication::processEvents();
  const MechanismSpec& spec = win.w.document()->spec();
  REQUIRE(spec.joints.size() > SketchEditor::kSketchManyNames);
  CHECK(win.e->jointLabels().empty());  // all 180 points in view: no clutter
  win.w.document()->setSelection({-1, 7});
  QCoreApplication::processEvents();
  std::vector<SketchLabel> labels = win.e->jointLabels();
  REQUIRE(labels.size() == 1);
  CHECK(labels[0].text.toStdString() == spec.joints[7].name);
  // Zoomed in on the first links: their names come back, none overlapping.
  const QPoint at = win.e->toScreen(Vec3(0.3, -0.15, 0)).toPoint();
  QWheelEvent wheel(QPointF(at), QPointF(win.e->mapToGlobal(at)), QPoint(), QPoint(0, 1200),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(win.e, &wheel);
  QCoreApplication::processEvents();
  labels = win.e->jointLabels();
  CHECK(labels.size() >= 4);
  CHECK(labels.size() <= SketchEditor::kSketchManyNames);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    CHECK(QRectF(win.e->rect()).contains(labels[i].rect));
    for (std::size_t k = i + 1; k < labels.size(); ++k)
      CHECK_FALSE(labels[i].rect.intersects(labels[k].rect));
  }
  win.shot("many_joints_zoomed");
  // Every joint of the whole mechanism drawn when fitted: a dark joint ring at each joint point
  // (the stamped circle; nothing selected, which would be drawn in the selection colour).
  win.w.document()->setSelection({});
  win.e->fitToView();
  QCoreApplication::processEvents();
  const QImage image = win.e->grab().toImage();
  const double dpr = image.devicePixelRatio();
  int rings = 0;
  for (const JointSpec& js : spec.joints) {
    const QPointF c = win.e->toScreen(win.e->bodyToWorld(spec.body_index(js.child), Vec3::Zero()));
    bool dark = false;  // the ring's 2 px pen, 6 px from the centre (some of the 8 directions)
    for (int d = 0; d < 8 && !dark; ++d) {
      const QPointF q = c + 6 * QPointF(std::cos(d * M_PI / 4), std::sin(d * M_PI / 4));
      const QColor px = image.pixelColor(QPoint(int(q.x() * dpr), int(q.y() * dpr)));
      dark = std::max({px.red(), px.green(), px.blue()}) < 110;
    }
    rings += dark;
  }
  CHECK(rings == static_cast<int>(spec.joints.size()));
  win.shot("many_joints");
}

TEST_CASE("joint names do not overlap, stay in the view and are drawn over the links",
          "[gui][ux-sketch]") {
  Win win;
  for (const char* name : {"jansen_leg", "stewart_platform", "rssr", "fourbar"}) {
    INFO(name);
    REQUIRE(win.w.openFile(sample(name)));
    QCoreApplication::processEvents();
    const std::vector<SketchLabel> labels = win.e->jointLabels();
    REQUIRE(labels.size() >= 3);
    const QImage image = win.e->grab().toImage();
    const double dpr = image.devicePixelRatio();
    for (std::size_t i = 0; i < labels.size(); ++i) {
      INFO(labels[i].text.toStdString());
      CHECK(QRectF(win.e->rect()).contains(labels[i].rect));
      for (std::size_t k = i + 1; k < labels.size(); ++k) {
        INFO("and " << labels[k].text.toStdString());
        CHECK_FALSE(labels[i].rect.intersects(labels[k].rect));
      }
      // The backing's top margin (2 px above the text) is light: nothing was drawn over it.
      const QRectF& r = labels[i].rect;
      const QPoint px(static_cast<int>(r.center().x() * dpr), static_cast<int>(r.top() * dpr) + 1);
      const QColor c = image.pixelColor(px);
      CHECK(std::min({c.red(), c.green(), c.blue()}) >= 225);
    }
    win.shot(QString("labels_") + name);
  }
}

#ifdef ARTICULA_HAVE_RENDER
TEST_CASE("Jansen leg: a point of the lower link traced after a 3 s run stays on the link",
          "[gui][ux-sketch]") {
  // Clicked at t = 0 and again after the run, paused at 3 s: the trace's first point is where
  // the clicked point was at t = 0 and its last where the link has it at 3 s.
  for (const bool click_after_run : {false, true}) {
    INFO((click_after_run ? "clicked after the run" : "clicked before the run"));
    Win win;
    REQUIRE(win.w.openFile(sample("jansen_leg")));
    const auto mech = win.w.document()->simulated();
    const int body = mech->spec.body_index("lower_triangle");
    const int m = mech->compiled.model_body[body];
    SimulationController* c = win.w.controller();
    // The link's centre of mass in the world at the shown instant (on its drawn solid).
    auto com_now = [&] {
      const Transform& X = c->current().X0[m];
      return Vec3(X.r + X.E.transpose() * mech->model().inertia[m].com());
    };
    const Vec3 com0 = com_now();
    ViewportWidget* view = win.w.viewport()->viewportWidget();
    auto click = [&](const Vec3& p) {
      win.w.viewport()->fitToView();
      QCoreApplication::processEvents();
      QTest::mouseClick(view, Qt::LeftButton, {},
                        view->projectToWidget(osg::Vec3d(p.x(), p.y(), p.z())).toPoint());
      QCoreApplication::processEvents();
      REQUIRE(win.w.document()->selection().body == body);
    };
    if (!click_after_run) click(com0);
    c->runFor(3.0);
    c->showTime(3.0);
    QCoreApplication::processEvents();
    const Vec3 com3 = com_now();
    if (click_after_run) click(com3);
    QAction* trace = nullptr;
    for (QAction* a : win.w.findChildren<QAction*>())
      if (a->text() == "&Trace Selected Point") trace = a;
    REQUIRE(trace);
    trace->trigger();
    REQUIRE(win.w.viewport()->traceSize() > 100);
    // Within 5 mm: the click fixes x and y to a pixel or two of the fitted view (the leg moves
    // by decimetres in 3 s); z is the depth of the drawn solid, so only x and y are compared.
    const Vec3 first = win.w.viewport()->tracePoint(0);
    const Vec3 last = win.w.viewport()->tracePoint(win.w.viewport()->traceSize() - 1);
    CHECK((first.head<2>() - com0.head<2>()).norm() < 0.005);
    CHECK((last.head<2>() - com3.head<2>()).norm() < 0.005);
    win.shot(click_after_run ? "jansen_trace_after" : "jansen_trace_before");
  }
}
#endif

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
#endif
