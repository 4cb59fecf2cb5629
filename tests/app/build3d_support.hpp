#pragma once
// The 3D view's build tools driven as a user drives them (tests/app/test_gui_build3d*.cpp): a
// main window with the 3D view in front, the bar's choices set through its widgets, and mouse
// events synthesized at the projections of world points (sub-pixel, as a pointer gives them).
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMouseEvent>
#include <QTest>
#include <catch2/catch.hpp>

#include "tests/app/gui_wait.hpp"
#include "ui/build3d_controller.hpp"
#include "ui/central_views.hpp"
#include "ui/main_window.hpp"
#include "ui/viewport_panel.hpp"
#include "ui/viewport_widget.hpp"

namespace articula::build3d_test {

using gui_test::waitFor;

constexpr int kPlaneFloor = 0, kPlaneXY = 1;

struct Win {
  MainWindow w;
  ViewportWidget* v = nullptr;
  Build3DController* b = nullptr;
  explicit Win(QSize size = {1400, 900}, CentralViews::Mode mode = CentralViews::Mode::Tabs) {
    w.setInteractive(false);
    w.resize(size);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    w.setViewsMode(mode);
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
  // The bar's choices, as the user makes them: joint kind and axis by their row, the plane
  // xy at height z.
  void choose(int joint, int axis, double plane_z) {
    child<QComboBox>("build3d.jointType")->setCurrentIndex(joint);
    child<QComboBox>("build3d.axis")->setCurrentIndex(axis);
    child<QComboBox>("build3d.plane")->setCurrentIndex(kPlaneXY);
    child<QDoubleSpinBox>("build3d.planeOffset")->setValue(plane_z);
  }
  // The plane xy's height to the last digit (the bar's field shows 0.1 mm).
  void planeAt(double z) {
    b->settings().plane = BuildSettings::Plane::XY;
    b->settings().plane_offset = z;
    b->settingsChanged();
  }
  QPointF at(const Vec3& p) const { return v->projectToWidget(osg::Vec3d(p.x(), p.y(), p.z())); }
  void send(QEvent::Type type, const QPointF& pos, Qt::MouseButton button) {
    const Qt::MouseButtons held = type == QEvent::MouseButtonPress ? button : Qt::NoButton;
    QMouseEvent e(type, pos, v->mapToGlobal(pos), button, held, Qt::NoModifier);
    QApplication::sendEvent(v, &e);
  }
  void hover(const Vec3& p) { send(QEvent::MouseMove, at(p), Qt::NoButton); }
  // Orbits the camera by dragging with the left button from the centre by (dx, dy) pixels.
  void orbit(int dx, int dy) {
    const QPointF c(v->width() / 2.0, v->height() / 2.0);
    send(QEvent::MouseButtonPress, c, Qt::LeftButton);
    QMouseEvent move(QEvent::MouseMove, c + QPointF(dx, dy), v->mapToGlobal(c + QPointF(dx, dy)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(v, &move);
    send(QEvent::MouseButtonRelease, c + QPointF(dx, dy), Qt::LeftButton);
  }
  // A click on the build plane in empty space, which must not hit anything built so far.
  void clickInSpace(const Vec3& p) {
    planeAt(p.z());
    REQUIRE(b->pickAt(at(p)).in_space);
    click(p);
  }
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

constexpr int kRevolute = 0, kSpherical = 1, kUniversal = 2, kPrismatic = 3;
constexpr int kAxisX = 1, kAxisZ = 3, kAlongLink = 4;
// Drags with the left button from a to b (world points) in `steps` moves, as a hand does.
inline void drag(Win& win, const Vec3& a, const Vec3& b, int steps = 8) {
  win.hover(a);
  win.send(QEvent::MouseButtonPress, win.at(a), Qt::LeftButton);
  for (int i = 1; i <= steps; ++i) {
    const QPointF p = win.at(a) + (win.at(b) - win.at(a)) * (double(i) / steps);
    QMouseEvent move(QEvent::MouseMove, p, win.v->mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(win.v, &move);
  }
  win.send(QEvent::MouseButtonRelease, win.at(b), Qt::LeftButton);
  QCoreApplication::processEvents();
}

}  // namespace articula::build3d_test
