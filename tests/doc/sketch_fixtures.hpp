#pragma once
// Mechanisms drawn with the sketch edits, as a user would: ground pivots, links pinned at points.
#include <cmath>
#include <vector>

#include "core/doc/sketch_edits.hpp"

namespace articula::test {

// Upper intersection of the circles |x - a| = ra and |x - b| = rb (z = 0).
inline Vec3 circle_intersection(const Vec3& a, double ra, const Vec3& b, double rb,
                                bool upper = true) {
  const Vec3 d = b - a;
  const double L = d.norm();
  const double x = (ra * ra - rb * rb + L * L) / (2 * L);
  const double h = std::sqrt(std::max(0.0, ra * ra - x * x));
  const Vec3 u = d / L, n(-u.y(), u.x(), 0.0);
  return a + x * u + (upper ? h : -h) * n;
}

// The sample four-bar (ground 300, crank 100, coupler 280, rocker 250 mm; crank at 0.3 rad) drawn
// step by step. Bodies: link1 = crank, link2 = coupler, link3 = rocker.
struct FourBarPoints {
  Vec3 A0{0, 0, 0}, B0{0.3, 0, 0};
  Vec3 A = 0.1 * Vec3(std::cos(0.3), std::sin(0.3), 0);
  Vec3 B = circle_intersection(A, 0.28, B0, 0.25);
};

inline std::vector<Edit> draw_fourbar(EditableMechanism& doc) {
  const FourBarPoints p;
  std::vector<Edit> edits;
  auto step = [&](Edit e) {
    doc.apply(e);
    edits.push_back(std::move(e));
  };
  step(add_ground_point(doc, p.A0));
  step(add_ground_point(doc, p.B0));
  step(add_link(doc, {p.A0, p.A}, {Attachment{-1}, std::nullopt}));
  step(add_link(doc, {p.A, p.B}, {Attachment{0}, std::nullopt}));
  step(add_link(doc, {p.B, p.B0}, {Attachment{1}, Attachment{-1}}));
  return edits;
}

}  // namespace articula::test
