// Mass properties from link geometry against closed forms (box m(b²+c²)/12, cylinder mr²/2 and
// m(3r²+h²)/12, sphere 2mr²/5, thin rod mL²/12, equilateral plate ms²/12 about its normal), the
// parallel-axis theorem, and a rectangle cut into two triangles. Tolerances: 1e-12 relative.
#include <cmath>
#include <numbers>
#include <random>

#include "core/model/model.hpp"
#include "core/spec/link_inertia.hpp"
#include "tests/support/constants.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
constexpr double kTol = 1e-12;

// Rodrigues' formula, written out here rather than taken from Eigen or the library.
Mat3 rodrigues(const Vec3& axis, double angle) {
  const Vec3 k = axis.normalized();
  Mat3 K;
  K << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
  return Mat3::Identity() + std::sin(angle) * K + (1 - std::cos(angle)) * K * K;
}

Mat3 diag(double a, double b, double c) {
  return Vec3(a, b, c).asDiagonal();
}

void check_physical(const MassProperties& p) {
  INFO("inertia\n" << p.inertia);
  CHECK(p.mass > 0.0);
  CHECK(inertia_problem(p.mass, p.inertia).empty());  // the loader's own check
}
}  // namespace

TEST_CASE("Materials: presets", "[link_inertia]") {
  CHECK(Material::steel().density == 7850.0);
  CHECK(Material::aluminium().density == 2700.0);
  CHECK(Material::custom(1234.5).density == 1234.5);
  CHECK(Material::presets().size() == 2);
}

TEST_CASE("Block: closed form, axis-aligned and rotated", "[link_inertia]") {
  const double a = 0.3, b = 0.05, c = 0.02, rho = 7850;
  const MassProperties p = block(Vec3(a, b, c), Material::steel(), Vec3(0.1, 0.2, 0.3));
  const double m = rho * a * b * c;
  CHECK(std::abs(p.mass - m) <= kTol * m);
  CHECK_CLOSE(p.com, Vec3(0.1, 0.2, 0.3), kTol);
  const Mat3 I = m / 12 * diag(b * b + c * c, a * a + c * c, a * a + b * b);
  CHECK_CLOSE(p.inertia, I, kTol * I.norm());
  const Mat3 R = rodrigues(Vec3(1, 2, 3), 0.7);
  const MassProperties q = block(Vec3(a, b, c), Material::steel(), Vec3::Zero(), R);
  CHECK_CLOSE(q.inertia, R * I * R.transpose(), kTol * I.norm());
  check_physical(q);
  const auto arr = q.inertia_array();  // [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]
  CHECK(arr[0] == q.inertia(0, 0));
  CHECK(arr[3] == q.inertia(0, 1));
  CHECK(arr[4] == q.inertia(0, 2));
  CHECK(arr[5] == q.inertia(1, 2));
}

TEST_CASE("Bar: rectangular bar equals the box along its axis", "[link_inertia]") {
  const double L = 0.4, w = 0.03, t = 0.01;
  // Along x with normal z: box (L, w, t).
  const MassProperties p =
      bar(Vec3(0, 0, 0), Vec3(L, 0, 0), BarSection::rectangular(w, t), Material::aluminium());
  const MassProperties box = block(Vec3(L, w, t), Material::aluminium(), Vec3(L / 2, 0, 0));
  CHECK(std::abs(p.mass - box.mass) <= kTol * box.mass);
  CHECK_CLOSE(p.com, box.com, kTol);
  CHECK_CLOSE(p.inertia, box.inertia, kTol * box.inertia.norm());
  // Along a skew direction: the box rotated by the rotation taking x to the bar and z to the
  // normal's perpendicular part.
  const Mat3 R = rodrigues(Vec3(-0.3, 0.5, 0.8), 1.1);
  const Vec3 a(0.1, -0.2, 0.05), dir = R.col(0);
  const MassProperties q = bar(a, a + L * dir, BarSection::rectangular(w, t), Material::aluminium(),
                               R.col(2) + 0.7 * dir);
  CHECK_CLOSE(q.com, a + 0.5 * L * dir, kTol);
  CHECK_CLOSE(q.inertia, R * box.inertia * R.transpose(), kTol * box.inertia.norm());
  check_physical(q);
}

TEST_CASE("Bar: round sections, thin-rod limit, tube", "[link_inertia]") {
  const double L = 1.2, r = 0.01, rho = 7850;
  const MassProperties p =
      bar(Vec3::Zero(), Vec3(0, 0, L), BarSection::round(2 * r), Material::steel());
  const double m = rho * kPi * r * r * L;
  CHECK(std::abs(p.mass - m) <= kTol * m);
  const Mat3 I = diag(m * (3 * r * r + L * L) / 12, m * (3 * r * r + L * L) / 12, m * r * r / 2);
  CHECK_CLOSE(p.inertia, I, kTol * I.norm());
  // Thin rod: the transverse moment tends to mL²/12; with r = 1e-7 the 3r² term is 2e-14 of L².
  const MassProperties thin =
      bar(Vec3::Zero(), Vec3(L, 0, 0), BarSection::round(2e-7), Material::steel());
  const double ml2 = thin.mass * L * L / 12;
  CHECK(std::abs(thin.inertia(1, 1) - ml2) <= kTol * ml2);
  CHECK(std::abs(thin.inertia(2, 2) - ml2) <= kTol * ml2);
  // Tube: m = ρπ(ro² − ri²)L, axial m(ro² + ri²)/2.
  const double ro = 0.025, ri = 0.02;
  const MassProperties tube = cylinder(Vec3::Zero(), Vec3(0, L, 0), ro, Material::steel(), ri);
  const double mt = rho * kPi * (ro * ro - ri * ri) * L;
  CHECK(std::abs(tube.mass - mt) <= kTol * mt);
  CHECK(std::abs(tube.inertia(1, 1) - mt * (ro * ro + ri * ri) / 2) <= kTol * mt * ro * ro);
  CHECK(std::abs(tube.inertia(0, 0) - mt * (3 * (ro * ro + ri * ri) + L * L) / 12) <=
        kTol * mt * L * L);
  check_physical(tube);
}

TEST_CASE("Cylinder and sphere: closed forms", "[link_inertia]") {
  const double r = 0.2, h = 0.05, rho = 2700;
  const MassProperties c = cylinder(Vec3(0, 0, -h), Vec3::Zero(), r, Material::aluminium());
  const double m = rho * kPi * r * r * h;
  const Mat3 I = diag(m * (3 * r * r + h * h) / 12, m * (3 * r * r + h * h) / 12, m * r * r / 2);
  CHECK(std::abs(c.mass - m) <= kTol * m);
  CHECK_CLOSE(c.com, Vec3(0, 0, -h / 2), kTol);
  CHECK_CLOSE(c.inertia, I, kTol * I.norm());
  const MassProperties s = sphere(Vec3(1, 2, 3), 0.05, Material::custom(1000));
  const double ms = 1000 * 4.0 / 3.0 * kPi * 0.05 * 0.05 * 0.05;
  CHECK(std::abs(s.mass - ms) <= kTol * ms);
  CHECK_CLOSE(s.inertia, 0.4 * ms * 0.0025 * Mat3::Identity(), kTol * ms * 0.0025);
}

TEST_CASE("Parallel axis: two spheres, and a rod about its end", "[link_inertia]") {
  const MassProperties s1 = sphere(Vec3(-0.5, 0, 0), 0.05, Material::steel());
  const MassProperties s2 = sphere(Vec3(0.5, 0, 0), 0.05, Material::steel());
  const MassProperties both = combine({s1, s2});
  const double m = s1.mass, Ic = 0.4 * m * 0.0025;
  CHECK(std::abs(both.mass - 2 * m) <= kTol * m);
  CHECK_CLOSE(both.com, Vec3::Zero(), kTol);
  const Mat3 I = diag(2 * Ic, 2 * Ic + 2 * m * 0.25, 2 * Ic + 2 * m * 0.25);
  CHECK_CLOSE(both.inertia, I, kTol * I.norm());
  // A thin rod about its end: mL²/3 = mL²/12 + m(L/2)².
  const double L = 0.8;
  const MassProperties rod =
      bar(Vec3::Zero(), Vec3(L, 0, 0), BarSection::round(2e-7), Material::steel());
  const Mat3 end = inertia_about(rod, Vec3::Zero());
  CHECK(std::abs(end(1, 1) - rod.mass * L * L / 3) <= kTol * rod.mass * L * L);
  // Combining a body with itself split in two halves gives the whole (box cut along x).
  const MassProperties half1 = block(Vec3(0.2, 0.1, 0.05), Material::steel(), Vec3(-0.1, 0, 0));
  const MassProperties half2 = block(Vec3(0.2, 0.1, 0.05), Material::steel(), Vec3(0.1, 0, 0));
  const MassProperties whole = block(Vec3(0.4, 0.1, 0.05), Material::steel());
  const MassProperties joined = combine({half1, half2});
  CHECK_CLOSE(joined.inertia, whole.inertia, kTol * whole.inertia.norm());
}

TEST_CASE("Plate: a rectangle as two triangles equals the block; equilateral closed form",
          "[link_inertia]") {
  const double a = 0.3, b = 0.2, t = 0.01;
  const Mat3 R = rodrigues(Vec3(0.2, -1, 0.4), 0.9);
  const Vec3 o(0.05, 0.1, -0.2);
  auto P = [&](double x, double y) -> Vec3 { return o + R * Vec3(x, y, 0); };
  const MassProperties two = combine({plate(P(0, 0), P(a, 0), P(a, b), t, Material::steel()),
                                      plate(P(0, 0), P(a, b), P(0, b), t, Material::steel())});
  const MassProperties box = block(Vec3(a, b, t), Material::steel(), P(a / 2, b / 2), R);
  CHECK(std::abs(two.mass - box.mass) <= kTol * box.mass);
  CHECK_CLOSE(two.com, box.com, kTol);
  CHECK_CLOSE(two.inertia, box.inertia, kTol * box.inertia.norm());
  // Equilateral triangle of side s in x-y: Izz = m s²/12, Ixx = Iyy = m s²/24 + m t²/12.
  const double s = 0.25;
  const MassProperties eq = plate(Vec3(0, 0, 0), Vec3(s, 0, 0),
                                  Vec3(s / 2, s * std::sqrt(3.0) / 2, 0), t, Material::aluminium());
  const double m = 2700 * std::sqrt(3.0) / 4 * s * s * t;
  CHECK(std::abs(eq.mass - m) <= kTol * m);
  const Mat3 I =
      diag(m * s * s / 24 + m * t * t / 12, m * s * s / 24 + m * t * t / 12, m * s * s / 12);
  CHECK_CLOSE(eq.inertia, I, kTol * I.norm());
  check_physical(eq);
}

TEST_CASE("Triangle of bars: mass, and the sum of its three bars", "[link_inertia]") {
  const Vec3 A(0, 0, 0), B(0.3, 0, 0), C(0.1, 0.2, 0);
  const BarSection sec = BarSection::rectangular(0.02, 0.01);
  const MassProperties p = triangle_of_bars(A, B, C, sec, Material::steel());
  const double perimeter = (B - A).norm() + (C - B).norm() + (A - C).norm();
  CHECK(std::abs(p.mass - 7850 * 0.02 * 0.01 * perimeter) <= kTol * p.mass);
  // Independent sum: each bar's box rotated into place, moved to the common centre by hand.
  Mat3 I = Mat3::Zero();
  for (auto [u, v] : {std::pair{A, B}, {B, C}, {C, A}}) {
    const double L = (v - u).norm();
    const double m = 7850 * 0.02 * 0.01 * L;
    Mat3 R;
    R.col(0) = (v - u) / L;
    R.col(2) = Vec3::UnitZ();
    R.col(1) = R.col(2).cross(R.col(0));
    const Mat3 Ic = R *
                    diag(m * (0.02 * 0.02 + 0.01 * 0.01) / 12, m * (L * L + 0.01 * 0.01) / 12,
                         m * (L * L + 0.02 * 0.02) / 12) *
                    R.transpose();
    const Vec3 d = 0.5 * (u + v) - p.com;
    I += Ic + m * (d.dot(d) * Mat3::Identity() - d * d.transpose());
  }
  CHECK_CLOSE(p.inertia, I, kTol * I.norm());
  check_physical(p);
}

TEST_CASE("Random shapes are physical: positive definite, triangle inequality", "[link_inertia]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> len(0.001, 1.0), coord(-1, 1);
  for (int k = 0; k < 200; ++k) {
    const Vec3 a(coord(rng), coord(rng), coord(rng)), b(coord(rng), coord(rng), coord(rng)),
        c(coord(rng), coord(rng), coord(rng));
    const Material mat = Material::custom(100 + 10000 * len(rng));
    check_physical(bar(a, b, BarSection::rectangular(len(rng), len(rng)), mat, c));
    check_physical(bar(a, b, BarSection::round(0.1, 0.05), mat));
    check_physical(plate(a, b, c, len(rng), mat));
    check_physical(triangle_of_bars(a, b, c, BarSection::round(len(rng)), mat));
    check_physical(block(Vec3(len(rng), len(rng), len(rng)), mat, a, rodrigues(c, len(rng))));
    check_physical(cylinder(a, b, len(rng), mat));
    check_physical(sphere(a, len(rng), mat));
  }
}

TEST_CASE("Bad geometry is refused with the parameter named", "[link_inertia]") {
  const Material steel = Material::steel();
  auto message = [](auto f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message([&] { bar(Vec3::Zero(), Vec3::Zero(), BarSection::round(0.01), steel); }),
             Catch::Contains("bar length"));
  CHECK_THAT(message([&] {
               bar(Vec3::Zero(), Vec3::UnitX(), BarSection::round(0.01), Material::custom(-1));
             }),
             Catch::Contains("density"));
  CHECK_THAT(message([&] {
               bar(Vec3::Zero(), Vec3::UnitZ(), BarSection::rectangular(0.01, 0.01), steel,
                   Vec3::UnitZ());
             }),
             Catch::Contains("normal"));
  CHECK_THAT(
      message([&] { bar(Vec3::Zero(), Vec3::UnitX(), BarSection::round(0.01, 0.02), steel); }),
      Catch::Contains("inner diameter"));
  CHECK_THAT(message([&] { plate(Vec3::Zero(), Vec3::UnitX(), 2 * Vec3::UnitX(), 0.01, steel); }),
             Catch::Contains("collinear"));
  CHECK_THAT(message([&] { plate(Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), 0.0, steel); }),
             Catch::Contains("thickness"));
  CHECK_THAT(message([&] { block(Vec3(1, -1, 1), steel); }), Catch::Contains("size y"));
  CHECK_THAT(message([&] { sphere(Vec3::Zero(), std::nan(""), steel); }),
             Catch::Contains("radius"));
}
