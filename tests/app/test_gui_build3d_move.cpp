// The 3D view's Move tool (issue 23, item 3): a joint's frames and a body's pose selected by
// clicking and moved by dragging the gizmo's arrows and rings with synthesized mouse events.
// Checked against the dragged amounts (the world points the pointer was taken between), each
// move one undo step that restores the document exactly. Part of test_gui_build3d.
#ifdef ARTICULA_GUI_BUILD3D_TEST
#include <QUndoStack>
#include <cmath>

#include "core/doc/sketch_geometry.hpp"
#include "tests/app/build3d_support.hpp"
#include "ui/document.hpp"

using namespace articula;
using namespace articula::build3d_test;

namespace {

// A link from (0, 0, 0), pinned to ground there (joint 0), to (0.1, 0.1, 0), drawn on the plane
// xy; the camera looks at it obliquely so that no arrow or ring is seen end or edge on.
void drawLink(Win& win) {
  win.v->setCamera(osg::Vec3d(0.05, 0.05, 0), 0.6);
  win.orbit(60, 50);
  win.tool("build3d.link");
  win.choose(kRevolute, kAxisZ, 0.0);
  win.click(Vec3(0, 0, 0));
  win.click(Vec3(0.1, 0.1, 0));
  REQUIRE(win.w.document()->spec().bodies.size() == 1);
  REQUIRE(win.w.document()->spec().joints.size() == 1);
  win.tool("build3d.move");
}

// A point on the gizmo's arrow k (at 60 % of its length) and on its ring k (at `angle`), along
// the gizmo's axes (the world's, or the frame's own with Local axes).
Vec3 onArrow(Win& win, int k) {
  const FrameGizmo& g = win.b->gizmo();
  return g.pivot() + g.axes().col(k) * (0.6 * FrameGizmo::kArrow * win.v->cameraDistance());
}
Vec3 onRing(Win& win, int k, double angle) {
  const FrameGizmo& g = win.b->gizmo();
  const double r = FrameGizmo::kRing * win.v->cameraDistance();
  return g.pivot() + r * (std::cos(angle) * g.axes().col((k + 1) % 3) +
                          std::sin(angle) * g.axes().col((k + 2) % 3));
}

}  // namespace

TEST_CASE("the Move tool slides and turns a joint's frames by the dragged amount",
          "[gui][build3d-move]") {
  Win win;
  Document* doc = win.w.document();
  drawLink(win);
  win.click(Vec3(0, 0, 0));  // the pinned end: its joint
  REQUIRE(win.b->gizmo().target() == FrameGizmo::Target::Joint);
  CHECK(win.b->gizmo().index() == 0);
  const JointSpec before = doc->spec().joints[0];
  const int steps = doc->undoStack()->count();
  // Slide along x by 0.05 m: the preview follows the pointer before the release.
  const Vec3 from = onArrow(win, 0), to = from + Vec3(0.05, 0, 0);
  CHECK(win.b->gizmo().handleAt(win.at(from)).mode == FrameGizmo::Mode::Translate);
  win.hover(from);
  win.send(QEvent::MouseButtonPress, win.at(from), Qt::LeftButton);
  const QPointF mid = win.at(from + Vec3(0.025, 0, 0));
  QMouseEvent move(QEvent::MouseMove, mid, win.v->mapToGlobal(mid), Qt::NoButton, Qt::LeftButton,
                   Qt::NoModifier);
  QApplication::sendEvent(win.v, &move);
  CHECK(win.b->gizmo().dragging());
  CHECK((win.b->gizmo().move().delta - Vec3(0.025, 0, 0)).norm() < 1e-9);
  CHECK(win.b->overlay().marks().preview.size() == 8);  // three axes and the line moved along
  CHECK(win.b->overlay().marks().gizmo_active == 0);
  CHECK(doc->spec().joints[0] == before);  // nothing committed yet
  win.shot("move_preview");
  win.send(QEvent::MouseButtonRelease, win.at(to), Qt::LeftButton);
  QCoreApplication::processEvents();
  // The unprojection of sub-pixel positions in double precision: 1e-9 m.
  const MechanismSpec& s = doc->spec();
  CHECK((joint_world_point(s, 0) - Vec3(0.05, 0, 0)).norm() < 1e-9);
  CHECK((to_world(s, 0, s.joints[0].child_frame.position) - Vec3(0.05, 0, 0)).norm() < 1e-9);
  CHECK(s.joints[0].parent_frame.orientation.coeffs() == before.parent_frame.orientation.coeffs());
  CHECK(doc->undoStack()->count() == steps + 1);  // one step
  doc->undoStack()->undo();
  CHECK(doc->spec().joints[0] == before);
  // Turn about z by 45° (the ring from 30° to 75°): the axes turn, the point stays.
  win.click(Vec3(0, 0, 0));
  const double a0 = M_PI / 6, a1 = 5 * M_PI / 12;
  CHECK(win.b->gizmo().handleAt(win.at(onRing(win, 2, a0))).mode == FrameGizmo::Mode::Rotate);
  drag(win, onRing(win, 2, a0), onRing(win, 2, a1));
  const JointSpec& turned = doc->spec().joints[0];
  const Mat3 expected = Eigen::AngleAxisd(a1 - a0, Vec3::UnitZ()).toRotationMatrix() *
                        before.parent_frame.orientation.toRotationMatrix();
  CHECK((turned.parent_frame.orientation.toRotationMatrix() - expected).norm() < 1e-9);
  CHECK((joint_world_point(doc->spec(), 0) - Vec3::Zero()).norm() < 1e-12);
  CHECK(doc->undoStack()->count() == steps + 1);
  doc->undoStack()->undo();
  CHECK(doc->spec().joints[0] == before);
}

TEST_CASE("the Move tool moves a body's pose, by grid steps with Snap",
          "[gui][build3d-move-body]") {
  Win win;
  Document* doc = win.w.document();
  drawLink(win);
  win.click(Vec3(0.05, 0.05, 0));  // the middle of the bar: the body
  REQUIRE(win.b->gizmo().target() == FrameGizmo::Target::Body);
  const BodySpec before = doc->spec().bodies[0];
  // 0.0437 m along y with Snap on a 10 mm grid: 0.04 m, exact to round-off.
  win.child<QDoubleSpinBox>("build3d.grid")->setValue(10);
  win.child<QCheckBox>("build3d.snap")->setChecked(true);
  const Vec3 from = onArrow(win, 1);
  drag(win, from, from + Vec3(0, 0.0437, 0));
  const BodySpec& moved = doc->spec().bodies[0];
  CHECK((moved.pose->position - before.pose->position - Vec3(0, 0.04, 0)).norm() < 1e-15);
  CHECK(moved.pose->orientation.coeffs() == before.pose->orientation.coeffs());
  win.shot("move_body");
  doc->undoStack()->undo();
  CHECK(doc->spec().bodies[0] == before);
  // Escape drops the selection and its gizmo.
  QTest::keyClick(win.v, Qt::Key_Escape);
  CHECK(win.b->gizmo().target() == FrameGizmo::Target::None);
  CHECK(win.b->overlay().marks().gizmo[0].empty());
}
TEST_CASE("the Move gizmo along a joint's own axes, turning by 15° steps with Snap",
          "[gui][build3d-move-local]") {
  Win win;
  Document* doc = win.w.document();
  drawLink(win);
  win.click(Vec3(0, 0, 0));  // the pinned end: its joint
  REQUIRE(win.b->gizmo().target() == FrameGizmo::Target::Joint);
  const JointSpec before = doc->spec().joints[0];
  const Mat3 R0 = before.parent_frame.orientation.toRotationMatrix();
  // With Snap on, a ring dragged from 30° to 77° turns the frame by 45°, not 47°.
  win.child<QCheckBox>("build3d.snap")->setChecked(true);
  drag(win, onRing(win, 2, M_PI / 6), onRing(win, 2, 77 * M_PI / 180));
  const Mat3 R45 = Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ()).toRotationMatrix() * R0;
  // Exact multiples of 15° through one rotation product: round-off, 1e-12.
  CHECK((doc->spec().joints[0].parent_frame.orientation.toRotationMatrix() - R45).norm() < 1e-12);
  // Local axes: the arrows follow the turned frame; a slide along its own x by 0.05 m (a
  // 10 mm grid: 0.0537 m dragged) moves the point along (cos 45°, sin 45°) of the world's x-y.
  win.child<QDoubleSpinBox>("build3d.grid")->setValue(10);
  win.child<QCheckBox>("build3d.localAxes")->setChecked(true);
  REQUIRE(win.b->gizmo().localAxes());
  CHECK((win.b->gizmo().axes() - win.b->gizmo().frame()).norm() == 0);
  const Vec3 x = win.b->gizmo().axes().col(0);
  CHECK((x - R45.col(0)).norm() < 1e-12);
  const Vec3 from = onArrow(win, 0);
  CHECK(win.b->gizmo().handleAt(win.at(from)).mode == FrameGizmo::Mode::Translate);
  drag(win, from, from + 0.0537 * x);
  CHECK((joint_world_point(doc->spec(), 0) - 0.05 * x).norm() < 1e-12);
  win.shot("move_local");
  // Two undo steps back to the drawn joint.
  doc->undoStack()->undo();
  doc->undoStack()->undo();
  CHECK(doc->spec().joints[0] == before);
}
#endif
