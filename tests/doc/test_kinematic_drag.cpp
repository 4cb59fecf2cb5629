// Kinematic dragging of a drawn four-bar: the coupler follows the pointer, crank and rocker move
// consistently with loop closure (checked against the link lengths and an independent
// circle-intersection solution), and an unreachable target leaves the mechanism at the nearest
// reachable position instead of breaking it.
#include <catch2/catch.hpp>

#include "core/doc/kinematic_drag.hpp"
#include "core/doc/sketch_status.hpp"
#include "sketch_fixtures.hpp"

using namespace articula;
using namespace articula::test;

namespace {
struct FourBar {
  EditableMechanism doc;
  std::shared_ptr<const Mechanism> mech;
  FourBarPoints p;
  FourBar() {
    draw_fourbar(doc);
    mech = analyse(doc.spec()).mechanism;
    REQUIRE(mech);
  }
  // World points at q: A (crank end), B (rocker end), M (coupler midpoint).
  Vec3 A(const VecX& q) const { return body_point_world(*mech, q, 0, Vec3(0.1, 0, 0)); }
  Vec3 B(const VecX& q) const { return body_point_world(*mech, q, 2, Vec3::Zero()); }
  Vec3 M(const VecX& q) const { return body_point_world(*mech, q, 1, Vec3(0.14, 0, 0)); }
  // The coupler midpoint at crank angle th, independently (circle intersection, same branch).
  Vec3 coupler_point(double th) const {
    const Vec3 a = 0.1 * Vec3(std::cos(th), std::sin(th), 0);
    return 0.5 * (a + circle_intersection(a, 0.28, p.B0, 0.25));
  }
};
}  // namespace

TEST_CASE("dragging the coupler moves crank and rocker with the loop closed", "[doc][drag]") {
  FourBar f;
  // A one-DOF mechanism: the coupler point can only follow its coupler curve. Aim at the point
  // the curve passes through at crank angle 0.9 rad (sketched at 0.3).
  CHECK((f.M(f.mech->q0) - f.coupler_point(0.3)).norm() < 1e-12);
  const Vec3 target = f.coupler_point(0.9);
  const DragResult r = drag_point(*f.mech, f.mech->q0, 1, Vec3(0.14, 0, 0), target);
  CHECK(r.loop_error <= 1e-12);
  CHECK(r.distance <= 1e-9);  // reachable: the point arrives (m)
  const Vec3 A = f.A(r.q), B = f.B(r.q);
  // Link lengths kept (1e-12 m).
  CHECK((A - f.p.A0).norm() == Approx(0.1).margin(1e-12));
  CHECK((B - A).norm() == Approx(0.28).margin(1e-12));
  CHECK((B - f.p.B0).norm() == Approx(0.25).margin(1e-12));
  // Independently: from the crank angle alone, B is the circle intersection on the same branch.
  const Vec3 B_expected = circle_intersection(A, 0.28, f.p.B0, 0.25);
  CHECK((B - B_expected).norm() <= 1e-11);
  // The crank turned to 0.9 rad (the coupler cannot move alone in a one-DOF mechanism).
  CHECK(std::atan2(A.y(), A.x()) == Approx(0.9).margin(1e-9));
}

TEST_CASE("an unreachable target stops the mechanism at the nearest position", "[doc][drag]") {
  FourBar f;
  const Vec3 target(0.1, 2.0, 0);  // far above: the coupler point rises as high as it can
  const DragResult r = drag_point(*f.mech, f.mech->q0, 1, Vec3(0.14, 0, 0), target, false, 400);
  CHECK(r.loop_error <= 1e-12);
  // Brute force over crank angles on the same assembly branch (upper B): nearest distance.
  double best = 1e9;
  for (int k = 0; k < 200000; ++k) {
    const double th = 2 * M_PI * k / 200000.0;
    const Vec3 A = 0.1 * Vec3(std::cos(th), std::sin(th), 0);
    if ((A - f.p.B0).norm() > 0.28 + 0.25 || (A - f.p.B0).norm() < 0.03) continue;
    const Vec3 B = circle_intersection(A, 0.28, f.p.B0, 0.25);
    best = std::min(best, (0.5 * (A + B) - target).norm());
  }
  INFO("drag " << r.distance << " brute force " << best);
  CHECK(r.distance == Approx(best).margin(1e-6));
  CHECK((f.B(r.q) - f.A(r.q)).norm() == Approx(0.28).margin(1e-12));
}

TEST_CASE("dragging writes the configuration back as body poses", "[doc][drag]") {
  FourBar f;
  const Vec3 target = f.coupler_point(0.5);
  const DragResult r = drag_point(*f.mech, f.mech->q0, 1, Vec3(0.14, 0, 0), target);
  REQUIRE(r.distance <= 1e-9);
  const Edit e = set_configuration(f.doc, *f.mech, r.q);
  f.doc.apply(e);
  const Analysis a = analyse(f.doc.spec());
  REQUIRE(a.mechanism);
  // The new sketch assembles where it was dragged to (1e-9 m).
  CHECK((body_point_world(*a.mechanism, a.mechanism->q0, 1, Vec3(0.14, 0, 0)) - target).norm() <=
        1e-9);
}
