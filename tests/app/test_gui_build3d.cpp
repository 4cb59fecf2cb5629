// Building a spatial mechanism by pointing in the 3D view (issue 23, item 3): the RSSR sample's
// four points and two axes clicked with synthesized mouse events (sub-pixel positions, as a
// pointer gives them) using the 3D build bar, then driven and run. Checked against the sample file
// (an independent description of the same mechanism): the built link ends at the sample's points,
// the same mobility, loops closed during the run, and the rocker following the sample's rocker
// simulated by core. The Joint tool shows its axis before the click and joins two links. Under
// Xvfb; built only as its own target (ARTICULA_GUI_BUILD3D_TEST).
#ifdef ARTICULA_GUI_BUILD3D_TEST
#define CATCH_CONFIG_RUNNER
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMouseEvent>
#include <QTest>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/doc/sketch_edits.hpp"
#include "core/doc/sketch_geometry.hpp"
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/snapshot_history.hpp"
#include "tests/app/gui_wait.hpp"
#include "ui/application.hpp"
#include "ui/build3d_controller.hpp"
#include "ui/central_views.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport_panel.hpp"
#include "ui/viewport_widget.hpp"

using namespace articula;
using gui_test::waitFor;

namespace {

struct Win {
  MainWindow w;
  ViewportWidget* v = nullptr;
  Build3DController* b = nullptr;
  Win() {
    w.setInteractive(false);
    w.resize(1400, 900);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.setViewsMode(CentralViews::Mode::Tabs);
    w.centralViews()->bringToFront(CentralViews::View::ThreeD);
    v = w.viewport()->viewportWidget();
    b = w.viewport()->build3D();
    REQUIRE(v);
    REQUIRE(b);
    REQUIRE(waitFor([&] { return v->isVisible() && v->framesDrawn() > 0; }, 5000));
  }
  template <class T>
  T* child(const char* name) {
    T* c = w.viewport()->findChild<T*>(name);
    REQUIRE(c);
    return c;
  }
  void tool(const char* name) { child<QAction>(name)->trigger(); }
  // The bar's choices, as the user makes them: joint kind and axis by their row, plane height.
  void choose(int joint, int axis, double plane_z) {
    child<QComboBox>("build3d.jointType")->setCurrentIndex(joint);
    child<QComboBox>("build3d.axis")->setCurrentIndex(axis);
    child<QDoubleSpinBox>("build3d.planeZ")->setValue(plane_z);
  }
  // The plane's height to the last digit (the bar's field shows 0.1 mm).
  void planeAt(double z) {
    b->settings().plane_z = z;
    b->settingsChanged();
  }
  QPointF at(const Vec3& p) const { return v->projectToWidget(osg::Vec3d(p.x(), p.y(), p.z())); }
  void send(QEvent::Type type, const QPointF& pos, Qt::MouseButton button) {
    const Qt::MouseButtons held = type == QEvent::MouseButtonPress ? button : Qt::NoButton;
    QMouseEvent e(type, pos, v->mapToGlobal(pos), button, held, Qt::NoModifier);
    QApplication::sendEvent(v, &e);
  }
  void hover(const Vec3& p) { send(QEvent::MouseMove, at(p), Qt::NoButton); }
  // Moves to the point's projection, presses and releases there (a click, no drag).
  void click(const Vec3& p) {
    hover(p);
    send(QEvent::MouseButtonPress, at(p), Qt::LeftButton);
    send(QEvent::MouseButtonRelease, at(p), Qt::LeftButton);
    QCoreApplication::processEvents();
  }
  void shot(const QString& name) {
    waitFor([] { return false; }, 150);
    CHECK(w.grab().save("/tmp/articula_build3d_" + name + ".png"));
  }
};

constexpr int kRevolute = 0, kSpherical = 1, kUniversal = 2;
constexpr int kAxisX = 1, kAxisZ = 3;

struct RssrPoints {
  MechanismSpec sample = load_project(ARTICULA_SOURCE_DIR "/samples/rssr.json").spec;
  Vec3 A = Vec3::Zero(), B = to_world(sample, 0, Vec3(0.05, 0, 0));
  Vec3 C = to_world(sample, 2, Vec3(0.08, 0, 0)), D{0.08, 0, 0.15};
};

}  // namespace

TEST_CASE("an RSSR built by clicking in the 3D view runs as the sample does",
          "[gui][build3d-rssr]") {
  Win win;
  const RssrPoints p;
  Document* doc = win.w.document();
  win.v->setCamera(osg::Vec3d(0.05, 0.02, 0.08), 0.7);
  win.tool("build3d.link");
  REQUIRE(win.w.viewport()->isBuilding());
  // Crank: from A on ground (revolute about z, clicked in space on the plane z = 0) to a free
  // end B.
  win.choose(kRevolute, kAxisZ, 0.0);
  REQUIRE(win.b->pickAt(win.at(p.A)).in_space);
  win.click(p.A);
  win.click(p.B);
  REQUIRE(doc->spec().bodies.size() == 1);
  // Coupler: from B, snapped to the crank's end (a ball joint), to C in space on its plane.
  win.choose(kSpherical, kAxisZ, 0.0);
  win.planeAt(p.C.z());
  const BuildPick on_b = win.b->pickAt(win.at(p.B));
  CHECK(on_b.snapped);
  CHECK(on_b.body == 0);
  win.click(p.B);
  REQUIRE(win.b->pickAt(win.at(p.C)).in_space);
  win.click(p.C);
  REQUIRE(doc->spec().bodies.size() == 2);
  // Rocker: from D on ground (revolute about x) to C, snapped to the coupler's end (a ball).
  win.choose(kRevolute, kAxisX, p.D.z());
  win.click(p.D);
  win.choose(kSpherical, kAxisX, p.D.z());
  win.hover(p.C);
  CHECK(win.b->overlay().marks().snapped);  // drawn in green: the click will join the coupler
  win.click(p.C);
  win.shot("rssr_built");
  const MechanismSpec& s = doc->spec();
  REQUIRE(s.bodies.size() == 3);
  REQUIRE(s.joints.size() == 4);
  CHECK(doc->undoStack()->count() == 3);  // one undo step per link
  // Clicked points land on the sample's to 1e-9 m (double-precision unprojection of sub-pixel
  // positions; snapped points exactly).
  CHECK((to_world(s, 0, Vec3::Zero()) - p.A).norm() < 1e-9);
  CHECK((to_world(s, 1, Vec3::Zero()) - p.B).norm() < 1e-9);
  CHECK((to_world(s, 2, Vec3::Zero()) - p.D).norm() < 1e-9);
  CHECK((joint_world_point(s, 3) - p.C).norm() < 1e-9);
  CHECK(s.joints[0].joint.type == JointType::Revolute);
  CHECK(s.joints[1].joint.type == JointType::Spherical);
  CHECK(s.joints[2].joint.type == JointType::Revolute);
  CHECK(s.joints[3].joint.type == JointType::Spherical);
  CHECK(s.joints[3].parent == "link2");
  CHECK(s.joints[3].child == "link3");
  // The rocker's axis is world x as chosen: its parent frame's z on ground.
  const Vec3 z2 = s.joints[2].parent_frame.orientation.toRotationMatrix().col(2);
  CHECK((z2 - Vec3::UnitX()).norm() < 1e-15);

  // Drive the crank one turn per second, as the sample, and run half a turn.
  JointSpec crank = s.joints[0];
  crank.drive = DriveSpec{};
  crank.drive->expression = "2*pi*t";
  REQUIRE(doc->push(set_joint(doc->editable(), 0, crank), EditKind::Drive));
  const std::shared_ptr<const Mechanism> built = doc->mechanism();
  REQUIRE(built);
  const Mechanism sample = prepare(p.sample);
  CHECK(built->mobility.mobility == 2);  // the crank and the coupler's spin, as in the sample
  CHECK(built->mobility.mobility == sample.mobility.mobility);
  SimulationController* c = win.w.controller();
  c->runFor(0.5);
  QCoreApplication::processEvents();
  win.shot("rssr_run");
  // The sample simulated by core to each recorded time: its rocker is fixed by the crank alone
  // (kinematics), so any step gives it to the projection tolerance.
  Simulation ref(sample);
  double worst_loop = 0, worst_rocker = 0;
  int records = 0;
  c->history().forEach([&](const Snapshot& snap) {
    while (ref.time() < snap.t - 1e-12)
      ref.step(std::min(1e-3, snap.t - ref.time()), Integrator::RK4);
    ref.evaluate();
    const double sample_rocker = ref.joint_states()[3].q[0] - p.sample.joints[3].q0->at(0);
    worst_loop = std::max(worst_loop, snap.loop_error);
    worst_rocker = std::max(worst_rocker, std::abs(snap.joints[2].q[0] - sample_rocker));
    ++records;
  });
  INFO(records << " records to t = " << c->recordedTime() << " s, worst loop error " << worst_loop
               << " m, worst rocker difference " << worst_rocker << " rad");
  CHECK(records > 50);
  CHECK(c->recordedTime() == Approx(0.5).margin(1e-9));
  // Loops: the projection's 1e-12 m; the rocker: the built points are the sample's to 1e-9 m,
  // which moves the rocker by about that over its 0.08 m (1e-8 rad), far below its 1.5 rad swing.
  CHECK(worst_loop < 1e-10);
  CHECK(worst_rocker < 1e-6);
  // Undo takes the three links back one by one; redo restores the mechanism.
  for (int k = 0; k < 4; ++k) doc->undoStack()->undo();
  CHECK(doc->spec().bodies.empty());
  for (int k = 0; k < 4; ++k) doc->undoStack()->redo();
  CHECK(doc->spec().joints.size() == 4);
}

TEST_CASE("the Joint tool shows its axis before the click and joins two links",
          "[gui][build3d-joint]") {
  Win win;
  Document* doc = win.w.document();
  win.v->setCamera(osg::Vec3d(0.1, 0.05, 0), 0.8);
  win.tool("build3d.link");
  win.choose(kRevolute, kAxisZ, 0.0);
  const Vec3 a0(0, 0, 0), a(0.1, 0.1, 0), b0(0.25, 0, 0), b(0.2, 0.12, 0);
  win.click(a0);
  win.click(a);
  win.click(b0);
  win.click(b);
  REQUIRE(doc->spec().bodies.size() == 2);
  win.tool("build3d.joint");
  win.choose(kUniversal, kAxisX, 0.0);
  win.hover(a);
  const BuildMarks& m = win.b->overlay().marks();
  REQUIRE(m.axis);
  CHECK((*m.axis - osg::Vec3d(1, 0, 0)).length() == 0.0);
  REQUIRE(m.axis_at);
  CHECK((*m.axis_at - osg::Vec3d(a.x(), a.y(), a.z())).length() < 1e-12);
  CHECK(m.snapped);
  win.click(a);
  CHECK(doc->spec().joints.size() == 2);  // nothing yet: the tool waits for the second body
  win.shot("joint_pending");
  win.click(b);  // link2's end
  const MechanismSpec& s = doc->spec();
  REQUIRE(s.joints.size() == 3);
  const JointSpec& u = s.joints[2];
  CHECK(u.joint.type == JointType::Universal);
  CHECK(u.parent == "link1");
  CHECK(u.child == "link2");
  // At the first point (link1's end, a plane click: round-off of its pose), both frames there.
  CHECK((joint_world_point(s, 2) - a).norm() < 1e-12);
  CHECK((to_world(s, 1, u.child_frame.position) - a).norm() < 1e-12);
  CHECK((u.parent_frame.orientation.toRotationMatrix().col(2) -
         s.bodies[0].pose->orientation.inverse() * Vec3::UnitX())
            .norm() < 1e-12);
  // Joining a link to itself is refused with the reason, and nothing changes: two points on
  // link1's bar (a, its end, is now on link2 as well).
  const Vec3 middle = 0.5 * (a0 + a), further = 0.25 * a0 + 0.75 * a;
  for (const Vec3& q : {middle, further}) {
    const BuildPick on_bar = win.b->pickAt(win.at(q));
    CHECK(on_bar.body == 0);
    CHECK_FALSE(on_bar.snapped);
    win.click(q);
  }
  CHECK(doc->spec().joints.size() == 3);
  CHECK(win.w.viewport()
            ->findChild<QLabel*>("build3d.prompt")
            ->text()
            .contains("a joint joins two different bodies"));
  // Escape drops the pending point; Orbit gives the mouse back to picking.
  QTest::keyClick(win.v, Qt::Key_Escape);
  CHECK_FALSE(win.b->overlay().marks().first);
  win.tool("build3d.orbit");
  CHECK_FALSE(win.w.viewport()->isBuilding());
}

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
#endif
