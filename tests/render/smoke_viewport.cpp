// GL smoke test of the 3-D viewport (ui/viewport_widget) showing a mechanism scene: it draws,
// the bodies land where the camera says, clicks pick joints and bodies, frames are counted.
// Needs an X server: ctest runs it under xvfb-run (QT_QPA_PLATFORM=offscreen cannot host GL).
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <catch2/catch.hpp>
#include <string>

#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/snapshot.hpp"
#include "render/mechanism_scene.hpp"
#include "ui/viewport_widget.hpp"

using namespace articula;

namespace {

Mechanism load_sample(const std::string& name) {
  return prepare(load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/" + name).spec);
}

// Lets Qt paint until `frames` more frames are drawn (or two seconds pass).
void draw_frames(ViewportWidget& view, long frames) {
  const long target = view.framesDrawn() + frames;
  QElapsedTimer clock;
  clock.start();
  while (view.framesDrawn() < target && clock.elapsed() < 2000) {
    view.update();
    QTest::qWait(20);
  }
}

// Fraction of pixels that are clearly coloured (saturated), i.e. bodies rather than the grey
// background and grid.
double coloured_fraction(const QImage& image) {
  long coloured = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (QColor(image.pixel(x, y)).hsvSaturation() > 90) ++coloured;
  return double(coloured) / (image.width() * image.height());
}

}  // namespace

TEST_CASE("viewport: a planar four-bar draws, projects and picks", "[render][gl]") {
  const Mechanism mech = load_sample("fourbar.json");
  MechanismScene scene(mech);
  ViewportWidget view;
  view.resize(640, 480);
  view.setWorldUp(scene.up());
  view.setOrthographic2D(scene.planar());
  view.setScene(scene.root());
  view.show();
  REQUIRE(QTest::qWaitForWindowExposed(&view));
  view.fitToView();
  draw_frames(view, 3);
  REQUIRE(view.framesDrawn() >= 3);
  CHECK(view.lastFrameSeconds() > 0);

  const QImage image = view.grabFramebuffer();
  REQUIRE(!image.isNull());
  CHECK(coloured_fraction(image) > 0.01);

  // The coupler's midpoint is drawn in the coupler's colour (orange: red > green > blue).
  const int joint_A = mech.spec.joint_index("A"), joint_B = mech.spec.joint_index("B");
  const osg::Vec3d A = scene.anchor_world(2 * joint_A + 1), B = scene.anchor_world(2 * joint_B);
  const QPointF mid = view.projectToWidget((A + B) * 0.5);
  const double dpr = view.devicePixelRatioF();
  const QColor c(image.pixel(int(mid.x() * dpr), int(mid.y() * dpr)));
  INFO("coupler pixel " << c.red() << " " << c.green() << " " << c.blue());
  CHECK((c.red() > c.green() && c.green() > c.blue()));

  QSignalSpy spy(&view, &ViewportWidget::picked);
  QTest::mouseClick(&view, Qt::LeftButton, {}, view.projectToWidget(A).toPoint());
  REQUIRE(spy.count() == 1);
  CHECK(spy.at(0).at(1).toInt() == joint_A);
  QTest::mouseClick(&view, Qt::LeftButton, {}, mid.toPoint());
  REQUIRE(spy.count() == 2);
  CHECK(spy.at(1).at(0).toInt() == mech.spec.body_index("coupler"));
  CHECK(spy.at(1).at(1).toInt() == -1);
  QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(3, 3));
  REQUIRE(spy.count() == 3);
  CHECK(spy.at(2).at(0).toInt() == -1);
  CHECK(spy.at(2).at(1).toInt() == -1);

  // Snapshots move the bodies without rebuilding the scene; frames keep coming.
  Simulation sim(mech);
  Data data(mech.model());
  Snapshot snap;
  scene.set_forces_visible(true);
  scene.set_trace(mech.spec.body_index("coupler"), {0.14, 0.05, 0});
  const long before = view.framesDrawn();
  for (int k = 0; k < 20; ++k) {
    for (int s = 0; s < 10; ++s) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    take_snapshot(sim, data, snap);
    scene.update(snap);
    scene.extend_trace({snap});
    draw_frames(view, 1);
  }
  CHECK(view.framesDrawn() >= before + 20);
  CHECK(scene.trace_size() == 20);
}

TEST_CASE("viewport: a spatial Stewart platform draws in 3-D", "[render][gl]") {
  const Mechanism mech = load_sample("stewart_platform.json");
  MechanismScene scene(mech);
  ViewportWidget view;
  view.resize(640, 480);
  view.setWorldUp(scene.up());
  view.setScene(scene.root());
  view.show();
  REQUIRE(QTest::qWaitForWindowExposed(&view));
  view.fitToView();
  draw_frames(view, 3);
  CHECK(coloured_fraction(view.grabFramebuffer()) > 0.02);
  // The top plate's centre projects inside the view.
  const QPointF p = view.projectToWidget(osg::Vec3d(0.01, -0.005, 0.45));
  CHECK(view.rect().contains(p.toPoint()));
}

int main(int argc, char** argv) {
  ViewportWidget::setDefaultSurfaceFormat();
  QApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
