// The sketch's joint-name placement (ui/sketch_labels) against the direct form it replaced, which
// tested every candidate place against every label, point and link (kept here as the reference):
// the same labels in the same places, rectangle for rectangle, on random crowded scenes from the
// Jansen leg's size (20 joints) to issue 17's 1,000-body ladder (1,100 joints).
#include <QLineF>
#include <QRectF>
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "ui/sketch_labels.hpp"

using namespace articula;

namespace {
// The placement as written before the grids (sketch_labels.cpp at fcbc417).
std::vector<SketchLabel> reference(const std::vector<std::pair<QString, QPointF>>& wanted,
                                   const LabelObstacles& o, const std::vector<QSizeF>& sizes) {
  const double d = 10.0, half = 5.0;
  std::vector<SketchLabel> placed;
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    const QPointF at = wanted[k].second;
    const double w = sizes[k].width(), h = sizes[k].height();
    const QPointF corners[] = {
        {at.x() + d, at.y() - d - h},     {at.x() + d, at.y() + d},
        {at.x() - d - w, at.y() - d - h}, {at.x() - d - w, at.y() + d},
        {at.x() - w / 2, at.y() - d - h}, {at.x() - w / 2, at.y() + d},
        {at.x() + d + 4, at.y() - h / 2}, {at.x() - d - 4 - w, at.y() - h / 2}};
    int best = -1;
    QRectF best_rect;
    for (const QPointF& c0 : corners) {
      const QRectF r(c0, sizes[k]);
      int c = o.view.contains(r) ? 0 : 1000;
      for (const SketchLabel& l : placed) c += r.intersects(l.rect) ? 100 : 0;
      for (const QRectF& p : o.points)
        if (!p.contains(at)) c += r.intersects(p) ? 10 : 0;
      const QRectF wide = r.adjusted(-half, -half, half, half);
      for (const QLineF& l : o.links) c += crosses(wide, l) ? 1 : 0;
      if (best < 0 || c < best) best = c, best_rect = r;
      if (c == 0) break;
    }
    QRectF r = best_rect;
    if (r.right() > o.view.right()) r.moveRight(o.view.right());
    if (r.bottom() > o.view.bottom()) r.moveBottom(o.view.bottom());
    if (r.left() < o.view.left()) r.moveLeft(o.view.left());
    if (r.top() < o.view.top()) r.moveTop(o.view.top());
    if (std::any_of(placed.begin(), placed.end(),
                    [&](const SketchLabel& l) { return l.rect.intersects(r); }))
      continue;
    placed.push_back({wanted[k].first, at, r});
  }
  return placed;
}

// A chain of `n` links wandering over (and past) a 1280 x 800 view, a point at every joint.
struct Scene {
  LabelObstacles o;
  std::vector<std::pair<QString, QPointF>> wanted;
  std::vector<QSizeF> sizes;
};
Scene scene(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> step(-40.0, 40.0), u(0.0, 1.0);
  Scene s;
  s.o.view = QRectF(0, 0, 1280, 800);
  QPointF at(640, 100);
  for (int k = 0; k < n; ++k) {
    const QPointF next = at + QPointF(step(rng), 0.5 * std::abs(step(rng)));
    s.o.links.emplace_back(at, next);
    s.o.points.emplace_back(at - QPointF(8, 8), QSizeF(16, 16));
    if (u(rng) < 0.1) s.o.links.emplace_back(at, QPointF(1280 * u(rng), 800 * u(rng)));  // a rung
    s.wanted.emplace_back(QString("j%1").arg(k), at);
    s.sizes.emplace_back(20 + 30 * u(rng), 17);
    at = next;
  }
  return s;
}

// Issue 17's hanging ladder seen whole: two rails of n/2 joints packed into a slanted column about
// 20 px wide and 260 px tall (a joint every half pixel), a rung every fifth link. Almost every
// name is left out, most of them because each of their places lies on a name placed before.
Scene column(int n) {
  Scene s;
  s.o.view = QRectF(0, 0, 630, 420);
  const int per_rail = n / 2;
  for (int rail = 0; rail < 2; ++rail) {
    for (int k = 0; k < per_rail; ++k) {
      const QPointF at(290 + 50.0 * k / per_rail + 12 * rail, 80 + 260.0 * k / per_rail);
      const QPointF next(290 + 50.0 * (k + 1) / per_rail + 12 * rail,
                         80 + 260.0 * (k + 1) / per_rail);
      s.o.links.emplace_back(at, next);
      if (rail == 1 && k % 5 == 0) s.o.links.emplace_back(at - QPointF(12, 0), at);
      s.o.points.emplace_back(at - QPointF(8, 8), QSizeF(16, 16));
      s.wanted.emplace_back(QString("%1%2").arg(rail ? "r" : "l").arg(k), at);
      s.sizes.emplace_back(k < 100 ? 26 : 34, 17);
    }
  }
  return s;
}

void check_same(const std::vector<SketchLabel>& fast, const std::vector<SketchLabel>& slow) {
  REQUIRE(fast.size() == slow.size());
  for (std::size_t i = 0; i < fast.size(); ++i) {
    INFO(slow[i].text.toStdString());
    CHECK(fast[i].text == slow[i].text);
    CHECK(fast[i].rect == slow[i].rect);
  }
}
}  // namespace

TEST_CASE("sketch labels: the grids place what the direct form placed", "[ui][labels]") {
  for (int n : {20, 110, 400, 1100}) {
    for (unsigned seed : {1u, 2u}) {
      const Scene s = scene(n, seed);
      const std::vector<SketchLabel> fast = placeLabels(s.wanted, s.o, s.sizes);
      const std::vector<SketchLabel> slow = reference(s.wanted, s.o, s.sizes);
      INFO(n << " joints, seed " << seed);
      CHECK(fast.size() >= std::min<std::size_t>(n, 15));  // a crowded scene still names some
      check_same(fast, slow);
    }
  }
  for (int n : {200, 1100}) {  // the whole ladder: labels ruled out by labels before any link
    const Scene s = column(n);
    INFO("column of " << n << " joints");
    const std::vector<SketchLabel> fast = placeLabels(s.wanted, s.o, s.sizes);
    CHECK(fast.size() >= 10);
    CHECK(fast.size() < static_cast<std::size_t>(n) / 4);
    check_same(fast, reference(s.wanted, s.o, s.sizes));
  }
}
