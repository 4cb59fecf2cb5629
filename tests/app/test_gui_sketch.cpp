// Sketching in the desktop application under Xvfb, with synthesized mouse and key events: draw a
// four-bar from an empty document (ground pivots, three links, a pin), read 1 DOF in the status,
// add a motor to the crank, run, see the crank torque plotted, save, reload and compare; draw a
// slider-crank and a Watt six-bar, undo to empty and redo to the end comparing every step.
// Screenshots of each step go to /tmp/articula_sketch_*.png.
// Built only as its own target (ARTICULA_GUI_TEST).
#ifdef ARTICULA_GUI_TEST
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QElapsedTimer>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <set>

#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "tests/app/gui_wait.hpp"
#include "tests/app/sketcher.hpp"
#include "ui/application.hpp"
#include "ui/document.hpp"
#include "ui/drive_preview.hpp"
#include "ui/edit_panel.hpp"
#include "ui/main_window.hpp"
#include "ui/plot_dock.hpp"
#include "ui/plot_widget.hpp"
#include "ui/properties_dock.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_status_dock.hpp"
#include "ui/sketch_tool_bar.hpp"
#include "ui/viewport_panel.hpp"

using namespace articula;
using gui_test::Sketcher;
using gui_test::waitFor;
using Tool = SketchEditor::Tool;

TEST_CASE("draw a four-bar, drive its crank, read the torque, save and reload",
          "[gui][sketch-fourbar]") {
  Sketcher s("fourbar");
  s.shot("empty");
  // Ground pivots A0 and B0 (grid snapping: 10 mm).
  s.tool(Tool::GroundPivot);
  s.click(0, 0);
  s.record();
  s.click(0.3, 0);
  s.record();
  s.shot("ground_pivots");
  // Crank A0 -> A: pinned to ground at A0 because it starts on the pivot.
  s.tool(Tool::Link);
  s.click(0, 0);
  QTest::mouseMove(s.e, s.at(0.06, 0.08));
  s.shot("drawing_crank");  // rubber band with length and angle
  s.click(0.06, 0.08);
  s.record();
  REQUIRE(s.status().bodies == 1);
  CHECK(s.status().dof == 1);
  // Coupler A -> B, the end typed: 268.3 mm at 26.57° lands on (0.30, 0.20).
  s.click(0.06, 0.08);
  QTest::keyClicks(s.e, QString::number(std::hypot(0.24, 0.12) * 1000, 'f', 9) + "," +
                            QString::number(std::atan2(0.12, 0.24) * 180 / M_PI, 'f', 12));
  s.shot("typing_length");
  QTest::keyClick(s.e, Qt::Key_Return);
  s.record();
  REQUIRE(s.status().bodies == 2);
  CHECK(s.status().dof == 2);
  const Vec3 B = s.w.document()->spec().bodies[1].pose->position +
                 s.w.document()->spec().bodies[1].pose->orientation.toRotationMatrix() *
                     Vec3(std::hypot(0.24, 0.12), 0, 0);
  CHECK((B - Vec3(0.3, 0.2, 0)).norm() < 1e-9);
  // Rocker B0 -> B, its end placed with Alt (not pinned): 3 DOF until the pin.
  s.click(0.3, 0);
  s.click(0.3, 0.2, Qt::AltModifier);
  s.record();
  REQUIRE(s.status().bodies == 3);
  CHECK(s.status().dof == 3);
  s.shot("three_links");
  s.tool(Tool::Pin);
  s.click(0.3, 0.2);
  s.record();
  s.shot("pinned");
  REQUIRE(s.status().ready());
  CHECK(s.status().dof == 1);
  CHECK(s.status().gruebler == 1);
  CHECK(s.status().loops == 1);
  CHECK(s.w.sketchStatus()->text().contains("1 DOF (by rank)"));
  // Motor on the crank pivot A0.
  s.tool(Tool::Motor);
  s.click(0, 0);
  s.record();
  s.shot("motor");
  const std::shared_ptr<const Mechanism> m = s.w.document()->mechanism();
  REQUIRE(m);
  REQUIRE(m->drives.size() == 1);
  CHECK(s.status().free_dof == 0);
  const int crank_joint = m->drives[0].user_joint;
  CHECK(m->spec.joints[crank_joint].parent == "ground");
  // Run one second: the drive torque plot fills.
  s.tool(Tool::Select);
  s.w.controller()->setSpeed(4.0);
  s.w.controller()->play();
  REQUIRE(waitFor([&] { return s.w.controller()->current().t >= 1.0; }, 60000));
  s.w.controller()->pause();
  s.shot("running_torque");
  const auto& plots = s.w.plotDock()->plots();
  REQUIRE(!plots.empty());
  REQUIRE(!plots[0]->channels().empty());
  CHECK(plots[0]->channels()[0].quantity == Channel::Quantity::Tau);
  CHECK(plots[0]->channels()[0].joint == crank_joint);
  CHECK(plots[0]->sampleCount() >= 900);
  const auto& tau = plots[0]->values(0);
  const auto [lo, hi] = std::minmax_element(tau.begin(), tau.end());
  CHECK(*hi - *lo > 1e-4);  // the torque varies over a turn (N·m)
  // Select the crank pivot: the properties show its drive with the preview plot.
  s.click(0, 0);
  CHECK(s.w.document()->selection().joint == crank_joint);
  s.shot("crank_selected");
  // Save, reload, compare.
  QTemporaryDir dir;
  const QString path = dir.filePath("fourbar_sketch.json");
  REQUIRE(s.w.document()->save(path));
  const MechanismSpec saved = s.w.document()->spec();
  REQUIRE(s.w.openFile(path));
  CHECK(s.w.document()->spec() == saved);
  const Mechanism* r = s.w.document()->mechanism().get();
  REQUIRE(r);
  CHECK(r->mobility.mobility == 1);
  CHECK(r->compiled.model.nv == m->compiled.model.nv);
  CHECK((r->q0 - m->q0).norm() == Approx(0).margin(1e-12));
  CHECK(s.w.document()->status().dof == 1);
}

TEST_CASE("draw a slider-crank; undo to empty and redo to the end", "[gui][sketch-slider]") {
  Sketcher s("slider");
  s.tool(Tool::GroundPivot);
  s.click(0, 0);
  s.record();
  s.tool(Tool::Link);
  s.click(0, 0);
  s.click(0.03, 0.04);
  s.record();
  s.tool(Tool::GroundSlider);
  s.click(0.2, 0);
  s.click(0.3, 0);
  s.record();
  s.tool(Tool::Link);
  s.click(0.03, 0.04);
  s.click(0.2, 0);
  s.record();
  s.shot("done");
  REQUIRE(s.status().ready());
  CHECK(s.status().bodies == 3);
  CHECK(s.status().dof == 1);
  CHECK(s.status().gruebler == 1);
  const MechanismSpec& spec = s.w.document()->spec();
  int prismatic = 0;
  for (const JointSpec& j : spec.joints) prismatic += j.joint.type == JointType::Prismatic;
  CHECK(prismatic == 1);
  s.undoRedoAll();
  // Drag the crank end: the slider follows along its rail with the loop closed.
  s.tool(Tool::Select);
  const Mechanism* m = s.w.document()->mechanism().get();
  REQUIRE(m);
  QTest::mousePress(s.e, Qt::LeftButton, {}, s.at(0.03, 0.04));
  for (int k = 1; k <= 10; ++k) QTest::mouseMove(s.e, s.at(0.03 - 0.006 * k, 0.04 + 0.001 * k));
  s.shot("dragging");  // the crank end follows the pointer, the slider follows along its rail
  QTest::mouseRelease(s.e, Qt::LeftButton, {}, s.at(-0.03, 0.05));
  const Mechanism* d = s.w.document()->mechanism().get();
  REQUIRE(d);
  CHECK(d->assembly.residual <= 1e-12);
  CHECK(s.w.document()->undoStack()->undoText().startsWith("Drag"));
}

TEST_CASE("draw a Watt six-bar with a ternary link; undo and redo every step",
          "[gui][sketch-watt]") {
  Sketcher s("watt");
  s.tool(Tool::GroundPivot);
  for (auto [x, y] : {std::pair{0.0, 0.0}, {0.3, 0.0}, {0.6, 0.1}}) {
    s.click(x, y);
    s.record();
  }
  s.tool(Tool::Link);
  s.click(0, 0), s.click(0.06, 0.08), s.record();      // crank
  s.click(0.06, 0.08), s.click(0.3, 0.2), s.record();  // coupler 1
  s.tool(Tool::Ternary);
  s.click(0.3, 0), s.click(0.3, 0.2), s.click(0.4, 0.15), s.record();  // ternary rocker
  s.tool(Tool::Link);
  s.click(0.4, 0.15), s.click(0.55, 0.3), s.record();  // coupler 2
  s.click(0.55, 0.3), s.click(0.6, 0.1), s.record();   // output rocker
  s.tool(Tool::Motor);
  s.click(0, 0), s.record();
  s.shot("done");
  REQUIRE(s.status().ready());
  CHECK(s.status().bodies == 5);
  CHECK(s.status().joints == 7);
  CHECK(s.status().dof == 1);
  CHECK(s.status().gruebler == 1);
  CHECK(s.status().loops == 2);
  CHECK(s.status().free_dof == 0);
  s.undoRedoAll();
  // Delete the output rocker and undo: back to the same document.
  const MechanismSpec before = s.w.document()->spec();
  s.tool(Tool::Delete);
  s.click(0.575, 0.2);  // middle of the output rocker
  CHECK(s.w.document()->spec().bodies.size() == 4);
  CHECK(s.status().dof == 2);
  QTest::keyClick(&s.w, Qt::Key_Z, Qt::ControlModifier);
  CHECK(s.w.document()->spec() == before);
  QTest::keyClick(&s.w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
  CHECK(s.w.document()->spec().bodies.size() == 4);
}

TEST_CASE("properties are edited in place; invalid values are refused with the reason",
          "[gui][sketch-properties]") {
  Sketcher s("properties");
  s.tool(Tool::GroundPivot);
  s.click(0, 0);
  s.tool(Tool::Link);
  s.click(0, 0), s.click(0.1, 0);
  s.w.document()->setSelection({0, -1});
  EditPanel* p = s.w.properties()->editor();
  // Mass from the drawn geometry and a material: a steel bar 20 × 6 mm, 100 mm long.
  REQUIRE(p->setChoice("Material", "steel"));
  CHECK(p->apply());
  CHECK(s.w.document()->spec().bodies[0].mass == Approx(7850 * 1.2e-4 * 0.1).epsilon(1e-12));
  QCoreApplication::processEvents();  // the panel rebuilds after the edit
  p = s.w.properties()->editor();
  REQUIRE(p->setField("Mass", "-2"));
  CHECK(!p->apply());
  CHECK(p->error() == "mass must be a positive number (kg)");
  CHECK(s.w.document()->spec().bodies[0].mass == Approx(7850 * 1.2e-4 * 0.1).epsilon(1e-12));
  REQUIRE(p->setField("Name", "crank"));
  REQUIRE(p->setField("Mass", "0.5"));
  const int before = s.w.document()->undoStack()->count();
  CHECK(p->apply());
  CHECK(s.w.document()->undoStack()->count() == before + 1);
  CHECK(s.w.document()->spec().bodies[0].name == "crank");
  CHECK(s.w.document()->spec().bodies[0].mass == 0.5);
  CHECK(s.w.document()->spec().joints[0].child == "crank");  // the pin follows the rename
  s.w.document()->setSelection({-1, 0});
  p = s.w.properties()->editor();
  REQUIRE(p->setChoice("Drive", "motion"));
  REQUIRE(p->setField("Drive expression", "sin(2*pi*t"));
  CHECK(!p->preview()->error().isEmpty());
  CHECK(!p->apply());
  CHECK(p->error().startsWith("drive: "));
  REQUIRE(p->setField("Drive expression", "0.5*sin(2*pi*t)"));
  CHECK(p->preview()->error().isEmpty());
  // Preview: q̇ peaks at 0.5·2π (1e-9).
  const auto& qd = p->preview()->values(1);
  CHECK(*std::max_element(qd.begin(), qd.end()) == Approx(M_PI).epsilon(1e-9));
  CHECK(p->apply());
  REQUIRE(s.w.document()->spec().joints[0].drive);
  CHECK(s.w.document()->spec().joints[0].drive->expression == "0.5*sin(2*pi*t)");
  s.shot("joint_drive");
  s.w.document()->undoStack()->undo();
  CHECK(!s.w.document()->spec().joints[0].drive);
  // A link not connected to ground: the status names it; it is saved under /sketch/floating
  // (format v1 requires every body to reach ground) and comes back when the file is opened.
  s.tool(Tool::Link);
  s.click(0.2, 0.1), s.click(0.3, 0.1);
  REQUIRE(s.status().disconnected.size() == 1);
  CHECK(s.w.sketchStatus()->text().contains("Not connected to ground"));
  QTemporaryDir dir;
  const std::string saved_text = to_text(s.w.document()->spec());
  REQUIRE(s.w.document()->save(dir.filePath("x.json")));
  CHECK(load_project(dir.filePath("x.json").toStdString()).spec.bodies.size() == 1);
  REQUIRE(s.w.openFile(dir.filePath("x.json")));
  CHECK(s.w.document()->spec().bodies.size() == 2);
  CHECK(s.status().disconnected.size() == 1);
  CHECK(to_text(s.w.document()->spec()) == saved_text);
}

TEST_CASE("gear two cranks of a five-bar with the Gear tool; edit, undo, run, rename",
          "[gui][sketch-gears]") {
  Sketcher s("gears");
  s.tool(Tool::GroundPivot);
  s.click(0, 0), s.click(0.2, 0);
  s.tool(Tool::Link);
  s.click(0, 0), s.click(0, 0.08);        // crank 1
  s.click(0.2, 0), s.click(0.2, 0.08);    // crank 2
  s.click(0, 0.08), s.click(0.1, 0.2);    // coupler 1
  s.click(0.1, 0.2), s.click(0.2, 0.08);  // coupler 2, pinned at both ends
  REQUIRE(s.status().ready());
  REQUIRE(s.status().dof == 2);
  s.record();
  s.tool(Tool::Gear);
  s.click(0, 0);
  CHECK(s.w.document()->spec().couplings.empty());  // waiting for the second pivot
  s.click(0.2, 0);
  const MechanismSpec& spec = s.w.document()->spec();
  REQUIRE(spec.couplings.size() == 1);
  const CouplingSpec& g = spec.couplings[0];
  CHECK(g.type == CouplingSpec::Type::Gear);
  CHECK(g.ratio == -1.0);  // equal pitch circles touching halfway: -rA/rB
  REQUIRE(g.radii);
  CHECK((*g.radii)[0] == Approx(0.1).epsilon(1e-12));
  CHECK(s.status().dof == 1);
  CHECK(s.w.document()->selection().coupling == 0);
  s.shot("gear_added");
  // Properties: a new ratio keeps the centre distance (rA + rB = 0.2 m).
  EditPanel* p = s.w.properties()->editor();
  REQUIRE(p->setField("Ratio", "0.5"));
  CHECK(!p->apply());
  CHECK(p->error().contains("an external gear pair turns the other way"));
  REQUIRE(p->setField("Ratio", "-0.5"));
  CHECK(p->apply());
  const CouplingSpec g2 = s.w.document()->spec().couplings[0];
  CHECK(g2.ratio == -0.5);
  CHECK((*g2.radii)[0] + (*g2.radii)[1] == Approx(0.2).epsilon(1e-12));
  CHECK((*g2.radii)[0] / (*g2.radii)[1] == Approx(0.5).epsilon(1e-12));
  s.shot("gear_properties");
  s.w.document()->undoStack()->undo();
  CHECK(s.w.document()->spec().couplings[0].ratio == -1.0);
  s.w.document()->undoStack()->redo();
  CHECK(s.w.document()->spec().couplings[0].ratio == -0.5);
  // Drive crank 1 and run: the coupling force is a plot channel, the cranks keep the ratio.
  s.tool(Tool::Motor);
  s.click(0, 0);
  CHECK(s.status().free_dof == 0);
  // A full turn of crank 1 would take crank 2 half a turn back, out of the five-bar's reach:
  // the crank rocks instead (the expression keeps the motor's start angle).
  const int j1 = s.w.document()->spec().joint_index("J1");
  s.w.document()->setSelection({-1, j1});
  p = s.w.properties()->editor();
  QString law = QString::fromStdString(s.w.document()->spec().joints[j1].drive->expression);
  REQUIRE(law.endsWith(" + 2*pi*t"));
  law.replace(" + 2*pi*t", " + 0.4*sin(2*pi*t)");
  REQUIRE(p->setField("Drive expression", law));
  CHECK(p->apply());
  s.tool(Tool::Select);
  s.w.controller()->setSpeed(4.0);
  s.w.controller()->play();
  REQUIRE(waitFor([&] { return s.w.controller()->current().t >= 0.5; }, 60000));
  const std::shared_ptr<const Mechanism> m = s.w.document()->mechanism();
  REQUIRE(m);
  REQUIRE(s.w.controller()->current().coupling_tau.size() == 1);
  // A rename does not restart the simulation: time keeps going from where it was.
  const double t_before = s.w.controller()->current().t;
  s.w.document()->setSelection({0, -1});
  p = s.w.properties()->editor();
  REQUIRE(p->setField("Name", "left_crank"));
  CHECK(p->apply());
  CHECK(s.w.document()->spec().bodies[0].name == "left_crank");
  CHECK(s.w.controller()->state() == SimulationController::State::Playing);
  REQUIRE(waitFor([&] { return s.w.controller()->current().t > t_before + 0.1; }, 60000));
  s.w.controller()->pause();
  s.shot("running_after_rename");
  // Delete the gear with the Delete tool: back to 2 DOF; undo brings it back.
  s.w.document()->undoStack()->undo();  // the rename
  s.tool(Tool::Delete);
  s.click(0.2 / 3, 0);  // where the pitch circles touch (rA = 0.2/3 m)
  CHECK(s.w.document()->spec().couplings.empty());
  s.w.document()->undoStack()->undo();
  CHECK(s.w.document()->spec().couplings.size() == 1);
}

TEST_CASE("sketch tools: one action each; belt and rack by clicking; messages stay shown",
          "[gui][sketch-tools]") {
  Sketcher s("tools");
  auto message = [&] { return s.w.statusBar()->currentMessage(); };
  // The tool bar is built from the editor's tool list: an action per tool, with its shortcut.
  std::set<QString> keys;
  for (const SketchTool* t : s.e->tools()) {
    QAction* a = s.w.sketchToolBar()->action(t->id());
    REQUIRE(a);
    CHECK(a->shortcut() == t->shortcut());
    CHECK(a->text() == t->name());
    CHECK_FALSE(t->icon().isNull());
    CHECK(keys.insert(t->shortcut().toString()).second);
    s.tool(t->id());
    CHECK(message() == t->hint());  // the description, or a tool's first prompt (Measure)
  }
  CHECK(keys.size() == 15);
  QTest::keyClick(s.e, Qt::Key_T);  // T was also Trace Selected Point: neither fired
  CHECK(s.e->tool() == Tool::Ternary);
  QTest::keyClick(s.e, Qt::Key_B);
  CHECK(s.e->tool() == Tool::Belt);
  // Two cranks on ground pivots: 2 DOF.
  s.tool(Tool::GroundPivot);
  s.click(0, 0), s.click(0.2, 0);
  s.tool(Tool::Link);
  s.click(0, 0), s.click(0, 0.08);
  s.click(0.2, 0), s.click(0.2, 0.06);
  REQUIRE(s.status().dof == 2);
  // A click that does nothing says why, and that stays in the status bar.
  s.tool(Tool::Belt);
  s.click(0.1, 0.1);
  CHECK(message() == "Click on a pivot (a revolute joint)");
  s.click(0, 0);
  CHECK(message() == "Now click the second pivot");
  QTest::mouseClick(s.e, Qt::RightButton, {}, s.at(0.1, 0.1));  // cancels the first pivot
  CHECK(message() == s.e->toolById(Tool::Belt)->description());
  s.click(0.2, 0), s.click(0, 0);
  const MechanismSpec& spec = s.w.document()->spec();
  REQUIRE(spec.couplings.size() == 1);
  CHECK(spec.couplings[0].name == "B1");
  CHECK(spec.couplings[0].type == CouplingSpec::Type::Belt);
  CHECK(spec.couplings[0].ratio == 1.0);  // equal pulleys, a quarter of the distance each
  REQUIRE(spec.couplings[0].radii);
  CHECK((*spec.couplings[0].radii)[0] == Approx(0.05).epsilon(1e-12));
  CHECK(s.status().dof == 1);
  CHECK(message().startsWith("Added"));
  s.w.document()->undoStack()->undo();
  CHECK(s.w.document()->spec().couplings.empty());
  s.w.document()->undoStack()->redo();
  REQUIRE(s.w.document()->spec().couplings.size() == 1);
  // A rack along a ground slider 0.1 m below the pinion: 0.1 m per radian.
  s.tool(Tool::GroundSlider);
  s.click(-0.1, -0.1), s.click(0.1, -0.1);
  REQUIRE(s.status().dof == 2);
  s.tool(Tool::Rack);
  s.click(0, 0);
  CHECK(message() == "Now click the slider (the rack)");
  s.click(0.2, 0);
  CHECK(message() == "Click the slider the pinion drives (a sliding joint)");
  s.click(-0.1, -0.1);
  REQUIRE(spec.couplings.size() == 2);
  const CouplingSpec& r = spec.couplings[1];
  CHECK(r.name == "R1");
  CHECK(r.type == CouplingSpec::Type::RackPinion);
  CHECK(r.ratio == Approx(0.1).epsilon(1e-12));
  CHECK(spec.joints[spec.joint_index(r.joints[1])].joint.type == JointType::Prismatic);
  CHECK(s.status().dof == 1);
  s.shot("belt_and_rack");
  // Delete (Select tool) removes the selected coupling; undo restores it.
  s.tool(Tool::Select);
  REQUIRE(s.w.document()->selection().coupling == 1);
  QTest::keyClick(s.e, Qt::Key_Delete);
  CHECK(s.w.document()->spec().couplings.size() == 1);
  s.w.document()->undoStack()->undo();
  REQUIRE(s.w.document()->spec().couplings.size() == 2);
  // Drive the pinion and run: crank 2 turns with it, the slider moves 0.1 m per radian.
  s.tool(Tool::Motor);
  s.click(0, 0);
  REQUIRE(s.status().free_dof == 0);
  const std::shared_ptr<const Mechanism> m = s.w.document()->mechanism();
  REQUIRE(m);
  auto q = [&](const VecX& at, const std::string& joint) {
    return at[m->compiled.q_index(m->spec.joint_index(joint))];
  };
  const VecX start = m->q0;
  s.tool(Tool::Select);
  s.w.controller()->play();
  REQUIRE(waitFor([&] { return s.w.controller()->current().t >= 0.2; }, 60000));
  s.w.controller()->pause();
  REQUIRE(s.w.controller()->current().coupling_tau.size() == 2);
  const VecX now = s.w.controller()->current().q;
  const CouplingSpec belt = m->spec.couplings[0], rack = m->spec.couplings[1];
  const double turned = q(now, rack.joints[0]) - q(start, rack.joints[0]);
  CHECK(std::abs(turned) > 0.5);
  CHECK(q(now, rack.joints[1]) - q(start, rack.joints[1]) == Approx(0.1 * turned).epsilon(1e-6));
  CHECK(q(now, belt.joints[1]) - q(start, belt.joints[1]) ==
        Approx(q(now, belt.joints[0]) - q(start, belt.joints[0])).epsilon(1e-6));
}

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);  // needs a display: run under xvfb-run
  QCoreApplication::setOrganizationName("ArticulaTest");
  return Catch::Session().run(argc, argv);
}
#endif
