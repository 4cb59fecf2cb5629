// Building a spatial mechanism by pointing in the 3D view (issue 23, item 3): the RSSR sample's
// four points and two axes clicked with synthesized mouse events (sub-pixel positions, as a
// pointer gives them) using the 3D build bar, then driven and run. Checked against the sample file
// (an independent description of the same mechanism): the built link ends at the sample's points,
// the same mobility, loops closed during the run, and the rocker following the sample's rocker
// simulated by core. A Stewart platform (6-UPS) clicked together with the Link and Plate tools
// follows the Stewart sample. The Joint tool shows its axis before the click and joins two links.
// Under Xvfb; built only as its own target (ARTICULA_GUI_BUILD3D_TEST).
#ifdef ARTICULA_GUI_BUILD3D_TEST
#define CATCH_CONFIG_RUNNER
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMouseEvent>
#include <QTest>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/doc/kinematic_drag.hpp"
#include "core/doc/sketch_edits.hpp"
#include "core/doc/sketch_geometry.hpp"
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/snapshot_history.hpp"
#include "tests/app/build3d_support.hpp"
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
using namespace articula::build3d_test;

namespace {

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
  CHECK(win.b->overlay().marks().chain.empty());
  win.tool("build3d.orbit");
  CHECK_FALSE(win.w.viewport()->isBuilding());
}

TEST_CASE("a Stewart platform built by clicking in the 3D view moves as the sample does",
          "[gui][build3d-stewart]") {
  Win win;
  Document* doc = win.w.document();
  const MechanismSpec sample_spec =
      load_project(ARTICULA_SOURCE_DIR "/samples/stewart_platform.json").spec;
  const Mechanism sample = prepare(sample_spec);
  // Per leg: G on the base (its universal joint, z = 0), T on the top plate (its ball joint,
  // where the sample assembles it at t = 0), and M, the cylinder's end, on the plane z = 0.2 m.
  std::vector<Vec3> G, T, M;
  for (int i = 1; i <= 6; ++i) {
    const std::string n = std::to_string(i);
    G.push_back(sample_spec.joints[sample_spec.joint_index("U" + n)].parent_frame.position);
    T.push_back(
        body_point_world(sample, sample.q0, sample_spec.body_index("rod" + n), Vec3::Zero()));
    M.push_back(G.back() + (T.back() - G.back()) * (0.2 / T.back().z()));
  }
  // Gravity along -z as in the sample: the 3D view stands the platform up at the first link.
  MechanismHeader h = doc->editable().header();
  h.gravity = Vec3(0, 0, -9.81);
  REQUIRE(doc->push(set_header(doc->editable(), h), EditKind::MechanismProperties));
  win.tool("build3d.link");
  win.child<QDoubleSpinBox>("build3d.diameter")->setValue(20);
  for (int i = 0; i < 6; ++i) {
    // The cylinder: universal joint on ground (first axis x, across the leg), a free end at M.
    win.choose(kUniversal, kAxisX, 0.0);
    win.clickInSpace(G[i]);
    win.clickInSpace(M[i]);
    if (i == 0) {  // now standing on z: look down on the base from above its rim
      win.v->setCamera(osg::Vec3d(0, 0, 0.2), 1.8);
      win.orbit(0, 100);
    }
    // The rod: sliding in the cylinder along the leg, a free end at T.
    win.choose(kPrismatic, kAlongLink, 0.0);
    REQUIRE(win.b->pickAt(win.at(M[i])).snapped);
    win.click(M[i]);
    win.clickInSpace(T[i]);
  }
  REQUIRE(doc->spec().bodies.size() == 12);
  // The top plate through the six rod ends, each joined by a ball; the first corner closes it.
  win.tool("build3d.plate");
  win.choose(kSpherical, kAxisZ, 0.0);
  for (int i = 0; i < 6; ++i) win.click(T[i]);
  CHECK(doc->spec().bodies.size() == 12);  // waits for the closing click
  win.click(T[0]);
  win.shot("stewart_built");
  const MechanismSpec& s = doc->spec();
  REQUIRE(s.bodies.size() == 13);
  REQUIRE(s.joints.size() == 18);
  const int plate = 12;
  for (int i = 0; i < 6; ++i) {
    CHECK(s.joints[2 * i].joint.type == JointType::Universal);  // per leg: U, then P
    CHECK(s.joints[2 * i + 1].joint.type == JointType::Prismatic);
    CHECK(s.joints[12 + i].joint.type == JointType::Spherical);
    CHECK((joint_world_point(s, 12 + i) - T[i]).norm() < 1e-9);
  }
  // Drive the six legs as the sample does (a common 30 mm sinusoid about the built length).
  for (int i = 0; i < 6; ++i) {
    JointSpec leg = doc->spec().joints[2 * i + 1];
    leg.drive = DriveSpec{};
    leg.drive->expression = "0.03*sin(pi*t)";
    REQUIRE(doc->push(set_joint(doc->editable(), 2 * i + 1, leg), EditKind::Drive));
  }
  const std::shared_ptr<const Mechanism> built = doc->mechanism();
  REQUIRE(built);
  CHECK(built->mobility.mobility == 6);
  CHECK(built->mobility.mobility == sample.mobility.mobility);
  CHECK(built->mobility.redundant == 0);
  SimulationController* c = win.w.controller();
  c->runFor(0.5);
  QCoreApplication::processEvents();
  win.shot("stewart_run");
  // The plate's corners against the sample's ball joints, simulated by core to each recorded
  // time: six driven legs fix the plate (kinematics), so any step gives it to the projection
  // tolerance.
  Simulation ref(sample);
  std::vector<Vec3> corners;
  for (const auto& q : s.bodies[plate].extra["sketch"]["points"])
    corners.emplace_back(q[0].get<double>(), q[1].get<double>(), q[2].get<double>());
  REQUIRE(corners.size() == 6);
  double worst_loop = 0, worst_plate = 0;
  int records = 0;
  c->history().forEach([&](const Snapshot& snap) {
    while (ref.time() < snap.t - 1e-12)
      ref.step(std::min(1e-3, snap.t - ref.time()), Integrator::RK4);
    for (int i = 0; i < 6; ++i) {
      const int rod = sample_spec.body_index("rod" + std::to_string(i + 1));
      const Vec3 expected = body_point_world(sample, ref.q(), rod, Vec3::Zero());
      const Vec3 got = body_point_world(*built, snap.q, plate, corners[i]);
      worst_plate = std::max(worst_plate, (got - expected).norm());
    }
    worst_loop = std::max(worst_loop, snap.loop_error);
    ++records;
  });
  INFO(records << " records to t = " << c->recordedTime() << " s, worst loop error " << worst_loop
               << " m, worst plate corner distance " << worst_plate << " m");
  CHECK(records > 50);
  // Loops: the projection's 1e-12 m (measured to round-off); the plate: the built points are the
  // sample's to 1e-9 m, and the legs' lengths fix the plate to about that.
  CHECK(worst_loop < 1e-10);
  CHECK(worst_plate < 1e-7);
}

TEST_CASE("the build plane is the floor, perpendicular to gravity, and can be chosen",
          "[gui][build3d-plane]") {
  Win win;
  REQUIRE(win.w.openFile(ARTICULA_SOURCE_DIR "/samples/rssr.json"));
  win.w.centralViews()->bringToFront(CentralViews::View::ThreeD);
  const Vec3 g = win.w.document()->spec().gravity;  // (0, -9.81, 0): the floor is y = 0
  win.tool("build3d.link");
  win.v->setCamera(osg::Vec3d(0, 0, 0), 1.0);
  win.orbit(0, 60);  // look down on the floor at a slant
  const BuildPlane floor = win.b->plane();
  CHECK(floor.normal.cross(g).norm() < 1e-15);  // parallel to gravity
  CHECK(floor.normal.dot(g) < 0);               // pointing up
  CHECK(floor.offset == 0.0);
  CHECK(win.child<QLabel>("build3d.planeLabel")->text() == "floor, y =");
  const BuildMarks& m = win.b->overlay().marks();  // the grid lies in the floor
  CHECK(std::abs(m.plane_u * osg::Vec3d(0, 1, 0)) < 1e-15);
  CHECK(std::abs(m.plane_v * osg::Vec3d(0, 1, 0)) < 1e-15);
  win.shot("plane_floor");
  // A click in empty space, away from the mechanism, lands on the floor: y = 0 to round-off of
  // the ray's intersection (1e-12 m), under the pointer (its projection within 1e-6 px).
  for (const Vec3& target : {Vec3(0.3, 0, 0.25), Vec3(-0.2, 0, 0.3), Vec3(0.25, 0, -0.15)}) {
    const BuildPick pick = win.b->pickAt(win.at(target));
    REQUIRE(pick.in_space);
    CHECK(std::abs(pick.point.dot(floor.normal) - floor.offset) < 1e-12);
    CHECK((pick.point - target).norm() < 1e-9);
    CHECK((win.at(pick.point) - win.at(target)).manhattanLength() < 1e-6);
  }
  // Raised by 0.1 m, and the other planes with their labels, picked the same way.
  win.child<QDoubleSpinBox>("build3d.planeOffset")->setValue(0.1);
  CHECK(std::abs(win.b->pickAt(win.at(Vec3(0.3, 0.1, 0.25))).point.y() - 0.1) < 1e-12);
  const char* labels[] = {"plane xy, z =", "plane yz, x =", "plane zx, y ="};
  for (int k = 0; k < 3; ++k) {
    win.child<QComboBox>("build3d.plane")->setCurrentIndex(1 + k);
    CHECK(win.child<QLabel>("build3d.planeLabel")->text() == labels[k]);
    const Vec3 n = win.b->plane().normal;
    CHECK(n == Vec3::Unit((k + 2) % 3));
    const Vec3 target = Vec3(0.3, 0.3, 0.3) - n * (0.3 - 0.1);  // on the plane, 0.1 m out
    const BuildPick pick = win.b->pickAt(win.at(target));
    REQUIRE(pick.in_space);
    CHECK(std::abs(pick.point.dot(n) - 0.1) < 1e-12);
    CHECK(pick.normal == n);
  }
  // Gravity along -z turns the floor to z = 0.1.
  win.child<QComboBox>("build3d.plane")->setCurrentIndex(kPlaneFloor);
  Document* doc = win.w.document();
  MechanismHeader h = doc->editable().header();
  h.gravity = Vec3(0, 0, -9.81);
  REQUIRE(doc->push(set_header(doc->editable(), h), EditKind::MechanismProperties));
  CHECK(win.b->plane().normal == Vec3::UnitZ());
  CHECK(win.child<QLabel>("build3d.planeLabel")->text() == "floor, z =");
}

TEST_CASE("clicks in space snap to the grid's crossings when Snap is on", "[gui][build3d-snap]") {
  Win win;
  win.tool("build3d.link");
  win.v->setCamera(osg::Vec3d(0, 0, 0), 0.8);
  win.orbit(0, 60);
  win.child<QDoubleSpinBox>("build3d.grid")->setValue(25);              // mm
  const Vec3 target(0.1123, 0, 0.0388);                                 // on the floor y = 0
  CHECK((win.b->pickAt(win.at(target)).point - target).norm() < 1e-9);  // off: under the pointer
  win.child<QCheckBox>("build3d.snap")->setChecked(true);
  const BuildPick pick = win.b->pickAt(win.at(target));
  // The nearest crossing of the 25 mm grid: (0.1, 0, 0.05), exact to round-off of the step.
  CHECK((pick.point - Vec3(0.1, 0, 0.05)).norm() < 1e-15);
  win.click(target);
  win.click(Vec3(0.2312, 0, 0.0113));
  const MechanismSpec& s = win.w.document()->spec();
  REQUIRE(s.bodies.size() == 1);
  CHECK((to_world(s, 0, Vec3::Zero()) - Vec3(0.1, 0, 0.05)).norm() < 1e-15);
  const Vec3 end(0.225, 0, 0), along = end - Vec3(0.1, 0, 0.05);  // x of a link's frame: along
  CHECK((to_world(s, 0, Vec3(along.norm(), 0, 0)) - end).norm() < 1e-12);
}

TEST_CASE("every control of the build bar is visible at 1280x800", "[gui][build3d-bar]") {
  for (CentralViews::Mode mode : {CentralViews::Mode::SideBySide, CentralViews::Mode::Tabs}) {
    Win win(QSize(1280, 800), mode);
    REQUIRE(win.w.openFile(ARTICULA_SOURCE_DIR "/samples/stewart_platform.json"));
    win.w.centralViews()->bringToFront(CentralViews::View::ThreeD);
    QCoreApplication::processEvents();
    auto* bar = win.child<QWidget>("build3d.bar");
    INFO("mode " << static_cast<int>(mode) << ", bar " << bar->width() << " x " << bar->height()
                 << " px, 3D view " << win.v->width() << " x " << win.v->height() << " px");
    CHECK(win.v->height() > 300);  // the bar's rows leave the view most of the panel
    int controls = 0;
    for (QWidget* c : bar->findChildren<QWidget*>()) {
      if (!c->inherits("QAbstractButton") && !c->inherits("QAbstractSpinBox") &&
          !c->inherits("QComboBox") && !c->inherits("QLabel"))
        continue;
      INFO(c->objectName().toStdString() << " " << c->metaObject()->className());
      CHECK(c->isVisible());
      const QRect r(c->mapTo(bar, QPoint(0, 0)), c->size());
      CHECK(bar->rect().contains(r));
      CHECK(r.width() >= c->minimumSizeHint().width());  // not squeezed
      ++controls;
    }
    CHECK(controls == 17);  // 6 tools, 3 choices, 3 fields and their labels, Snap, Local axes
    win.shot(mode == CentralViews::Mode::Tabs ? "bar_tabs_1280" : "bar_side_1280");
  }
}

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName("ArticulaTest");  // keep the user's settings out of it
  return Catch::Session().run(argc, argv);
}
#endif
