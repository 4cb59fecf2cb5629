// The Ground line and Cam tools under Xvfb, as a user draws: a ball (a slider block dropped on a
// vertical rail) over a ground line, its contact made by pressing on the block and dragging out
// the radius, its properties edited and refused in the Properties dock, run until it has hit the
// line (not below it: the gap stays >= 0 to the event location's 1e-9 m); a cam on a crank
// against a roller follower, touching at t = 0; every contact sample's spheres drawn where the
// simulation has them, on their bodies' outlines; a contact picked by its circle or its line,
// highlighted, deleted and restored. Screenshots: /tmp/articula_sketch_contacts_*.png.
// Built into test_gui_sketch (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#include <QPushButton>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>
#include <catch2/catch.hpp>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/contact/unilateral.hpp"
#include "core/sim/simulation.hpp"
#include "tests/app/gui_wait.hpp"
#include "tests/app/sketcher.hpp"
#include "ui/edit_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/properties_dock.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/sketch_contact_tools.hpp"
#include "ui/sketch_contacts.hpp"

using namespace articula;
using gui_test::Sketcher;
using gui_test::waitFor;
using Tool = SketchEditor::Tool;

namespace {
// Press at a world point, drag to another, release: a body point and a radius.
void pressDrag(Sketcher& s, Vec3 from, Vec3 to) {
  QTest::mouseMove(s.e, s.at(from.x(), from.y()));
  QTest::mousePress(s.e, Qt::LeftButton, {}, s.at(from.x(), from.y()));
  QTest::mouseMove(s.e, s.at(to.x(), to.y()));
  QTest::mouseRelease(s.e, Qt::LeftButton, {}, s.at(to.x(), to.y()));
  QCoreApplication::processEvents();
}
}  // namespace

TEST_CASE("a ball on a ground line drawn with the tools: properties, undo, run",
          "[gui][sketch-contacts]") {
  Sketcher s("contacts");
  auto message = [&] { return s.w.statusBar()->currentMessage(); };
  const MechanismSpec& spec = s.w.document()->spec();
  s.tool(Tool::GroundSlider);  // the ball: a block on a vertical rail, its centre at y = 0.25
  s.click(0, 0.25), s.click(0, 0.15);
  s.record();
  REQUIRE(s.status().dof == 1);
  s.tool(Tool::GroundLine);
  CHECK(message() == s.e->toolById(Tool::GroundLine)->description());
  s.click(-0.3, 0);
  CHECK(message() == "Click the line's second point");
  s.click(0.3, 0);
  CHECK(message().startsWith("Press on a body's point that touches the line"));
  s.click(0.1, 0.3);  // empty space: said why, nothing added
  CHECK(message() == "Press on a point of a moving body (a link's end or a slider block)");
  CHECK(spec.contacts.empty());
  pressDrag(s, Vec3(0, 0.25, 0), Vec3(0, 0.2, 0));
  s.record();
  REQUIRE(spec.contacts.size() == 1);
  const ContactSpec& c = spec.contacts[0];
  CHECK(c.name == "C1");
  CHECK(c.body == spec.bodies[0].name);
  CHECK(c.surface_body == "ground");
  CHECK(c.surface_normal == Vec3(0, 1, 0));  // toward the block above the line
  CHECK(c.surface_point.y() == Approx(0).margin(1.0 / s.e->scale()));
  // The radius is the drag, its end snapped to the 10 mm grid: 0.05 m to rounding.
  CHECK(c.radius == Approx(0.05).epsilon(1e-12));
  CHECK(message() == "Added contact C1: set its radius, restitution and friction in Properties");
  CHECK(s.w.document()->selection().contact == 0);
  s.shot("ball");

  // Properties: a bad restitution is refused with the field named; good values are one step.
  EditPanel* p = s.w.properties()->editor();
  REQUIRE(p->setField("Restitution", "1.5"));
  CHECK(!p->apply());
  CHECK(p->error().startsWith("restitution: restitution 1.5 is outside [0, 1]"));
  REQUIRE(p->setField("Radius", "abc"));
  CHECK(!p->apply());
  CHECK(p->error() == "Radius: 'abc' is not a number");
  REQUIRE(p->setField("Radius", "0.05"));
  REQUIRE(p->setField("Restitution", "0.5"));
  REQUIRE(p->setField("Friction", "0.2"));
  const int steps = s.w.document()->undoStack()->count();
  CHECK(p->apply());
  CHECK(s.w.document()->undoStack()->count() == steps + 1);
  CHECK(spec.contacts[0].radius == 0.05);
  CHECK(spec.contacts[0].restitution == 0.5);
  s.record();
  s.undoRedoAll();  // undo to empty and redo, each state exact

  // Delete with the contact selected removes it (one step), and undo brings it back.
  s.tool(Tool::Select);
  Selection picked;
  picked.contact = 0;
  s.w.document()->setSelection(picked);
  QTest::keyClick(s.e, Qt::Key_Delete);
  CHECK(spec.contacts.empty());
  s.w.document()->undoStack()->undo();
  REQUIRE(spec.contacts.size() == 1);

  // Run past the first impact, sqrt(2 * 0.2 / 9.81) = 0.202 s: the block stays on the line.
  s.w.controller()->play();
  REQUIRE(waitFor([&] { return s.w.controller()->current().t >= 0.5; }, 60000));
  s.w.controller()->pause();
  const Snapshot now = s.w.controller()->current();
  // C1's row, then its friction's slide row (bind_unilaterals order; the sketch has no limits).
  REQUIRE(now.gap.size() == 2);
  CHECK(now.gap[0] >= -1e-9);     // never through the line
  CHECK(now.gap[0] < 0.2 * 0.5);  // and it has bounced: e = 0.5 keeps it below e^2 h
  s.shot("ball_run");
}

TEST_CASE("a cam on a crank against a roller follower, touching at t = 0",
          "[gui][sketch-contacts]") {
  Sketcher s("contacts_cam");
  auto message = [&] { return s.w.statusBar()->currentMessage(); };
  const MechanismSpec& spec = s.w.document()->spec();
  s.tool(Tool::GroundPivot);
  s.click(0, 0);
  s.tool(Tool::Link);  // the cam's crank
  s.click(0, 0), s.click(0.03, 0);
  s.tool(Tool::GroundSlider);  // the follower: a block on a vertical rail above the cam
  s.click(0, 0.06), s.click(0, 0.1);
  REQUIRE(s.status().dof == 2);
  s.tool(Tool::Cam);
  s.click(0.05, 0.05);
  CHECK(message() == "Click on a pivot (a revolute joint): the cam turns about it");
  s.click(0, 0);
  CHECK(message() == "Press on the follower's roller centre, drag out the roller's radius");
  s.click(0, 0.06);  // a click: the roller's radius is a fifth of the 0.06 m reach
  REQUIRE(spec.contacts.size() == 1);
  const ContactSpec& c = spec.contacts[0];
  CHECK(c.surface_type == "cam");
  CHECK(c.surface_body == spec.bodies[0].name);
  CHECK(c.body == spec.bodies[1].name);
  CHECK(c.radius == Approx(0.012).epsilon(1e-12));
  REQUIRE(s.status().ready());
  // The profile touches the roller where it was drawn (independently of the editor's drawing).
  const Mechanism mech = prepare(spec);
  Simulation sim(mech);
  sim.evaluate();
  REQUIRE(sim.gaps().size() == 1);
  CHECK(std::abs(sim.gaps()[0]) < 1e-12);
  CHECK(s.w.properties()->editor()->field("Profile"));
  s.shot("cam");
  // Properties' Delete Contact removes it in one step.
  QPushButton* remove = nullptr;
  for (QPushButton* b : s.w.properties()->editor()->findChildren<QPushButton*>())
    if (b->text() == "Delete Contact") remove = b;
  REQUIRE(remove);
  remove->click();
  CHECK(spec.contacts.empty());
  s.w.document()->undoStack()->undo();
  CHECK(spec.contacts.size() == 1);
}

namespace {
std::vector<ContactShape> shapesShown(Sketcher& s, double reach) {
  return contactShapes(
      s.w.document()->spec(), [&](int b, const Vec3& l) { return s.e->bodyToWorld(b, l); }, reach);
}
}  // namespace

// Session 22 saw the walker's foot circles 0.3-0.5 m below its legs: the circles were where the
// simulation has the feet, the legs were drawn through their joints only, without the foot.
TEST_CASE("contact samples: each sphere drawn where the simulation has it, on its body",
          "[gui][sketch-contacts]") {
  for (const char* name : {"bouncing_ball", "cam_follower", "geneva", "incline_stick_slip",
                           "ratchet", "strandbeest_walker"}) {
    INFO(name);
    Sketcher s;
    REQUIRE(s.w.openFile(QString(ARTICULA_SOURCE_DIR "/samples/%1.json").arg(name)));
    s.w.controller()->play();  // moved from the file's poses: the sketch shows a snapshot
    REQUIRE(waitFor([&] { return s.e->snapshot() && s.e->snapshot()->t >= 0.05; }, 60000));
    s.w.controller()->pause();
    const Snapshot shown = *s.e->snapshot();
    const std::vector<ContactShape> shapes = shapesShown(s, 1.0);
    const MechanismSpec& spec = s.w.document()->spec();
    REQUIRE(shapes.size() == spec.contacts.size());
    // The simulation's own account: forward kinematics at the shown q, each contact's centre.
    const auto mech = s.w.document()->simulated();
    Data data(mech->model());
    forward_kinematics(mech->model(), data, shown.q);
    std::size_t checked = 0;
    for (const Unilateral& u : bind_unilaterals(*mech)) {
      if (u.kind != Unilateral::Kind::Contact && u.kind != Unilateral::Kind::Slot) continue;
      Vec3 centre, normal;
      contact_frame(data, u, centre, normal);
      const ContactShape& shape = shapes[u.contact];
      REQUIRE(shape.contact == u.contact);
      // 1e-9 m: the same rigid transforms composed in another order (the sketch maps the point
      // by the user body's pose, the simulation by the model body's X0).
      CHECK((shape.centre - centre).head<2>().norm() < 1e-9);
      const int b = spec.body_index(spec.contacts[u.contact].body);
      double off = std::numeric_limits<double>::infinity();  // from the body's drawn corners
      for (const Vec3& v : s.e->outline(b))
        off = std::min(off, (s.e->bodyToWorld(b, v) - shape.centre).head<2>().norm());
      CHECK(off < 1e-9);  // a corner of its body's outline (the walker's feet: 0.49 m off before)
      ++checked;
    }
    CHECK(checked == spec.contacts.size());
  }
}

TEST_CASE("a contact picked in the sketch by its circle or its line, highlighted, deleted",
          "[gui][sketch-contacts]") {
  Sketcher s("contacts_pick");
  REQUIRE(s.w.openFile(ARTICULA_SOURCE_DIR "/samples/strandbeest_walker.json"));
  s.tool(Tool::Select);
  waitFor([] { return false; }, 200);  // layout and the first snapshot
  const MechanismSpec& spec = s.w.document()->spec();
  const MechanismSpec before = spec;
  const std::size_t n = spec.contacts.size();
  REQUIRE(n == 12);
  std::vector<ContactShape> shapes = shapesShown(s, s.e->contactReach());
  REQUIRE(shapes.size() == n);
  auto pixel = [&](const QPoint& at) { return s.e->grab().toImage().pixelColor(at); };

  // A foot's circle: a click on its rim, right of its centre.
  const ContactShape foot = shapes[3];
  const double r = std::max(foot.radius * s.e->scale(), 3.0);
  const QPoint rim = (s.e->toScreen(foot.centre) + QPointF(r, 0)).toPoint();
  const QColor unpicked = pixel(rim);
  CHECK(unpicked.green() > unpicked.red());  // the sphere's green (40, 120, 70)
  QTest::mouseMove(s.e, rim);
  QTest::mouseClick(s.e, Qt::LeftButton, {}, rim);
  REQUIRE(s.w.document()->selection().contact == 3);
  CHECK(s.w.properties()->editor()->field("Restitution"));  // its Properties
  const QColor picked = pixel(rim);  // the selected joint's orange (230, 120, 0)
  CHECK(picked.red() > 180);
  CHECK(picked.blue() < 80);
  s.shot("foot");
  QTest::keyClick(s.e, Qt::Key_Delete);
  CHECK(spec.contacts.size() == n - 1);
  CHECK(std::none_of(spec.contacts.begin(), spec.contacts.end(),
                     [&](const ContactSpec& c) { return c.name == before.contacts[3].name; }));
  s.w.document()->undoStack()->undo();
  REQUIRE(spec == before);

  // The ground line left of the leftmost foot (no link there): the nearest foot's contact.
  std::size_t left = 0;
  for (std::size_t k = 0; k < n; ++k)
    if (shapes[k].centre.x() < shapes[left].centre.x()) left = k;
  const Vec3 on_line(shapes[left].centre.x() - 0.15, shapes[left].lines[0][0].y(), 0);
  const QPoint at = s.e->toScreen(on_line).toPoint();
  REQUIRE(s.e->rect().contains(at));
  QTest::mouseMove(s.e, at);
  QTest::mouseClick(s.e, Qt::LeftButton, {}, at);
  const int chosen = s.w.document()->selection().contact;
  REQUIRE(chosen >= 0);
  auto from_click = [&](std::size_t k) {
    return QLineF(QPointF(at), s.e->toScreen(shapes[k].centre)).length();
  };
  double nearest = from_click(left);  // the feet share the line: the nearest one (ties: any)
  for (std::size_t k = 0; k < n; ++k) nearest = std::min(nearest, from_click(k));
  CHECK(from_click(static_cast<std::size_t>(chosen)) == Approx(nearest).margin(1e-9));
  s.shot("ground_line");
  QTest::keyClick(s.e, Qt::Key_Delete);
  CHECK(spec.contacts.size() == n - 1);
  s.w.document()->undoStack()->undo();
  CHECK(spec == before);
}
#endif
