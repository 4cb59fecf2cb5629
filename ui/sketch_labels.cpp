#include "ui/sketch_labels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace articula {

namespace {
constexpr double kPad = 2.0;     // pixels of backing around the text
constexpr double kReach = 10.0;  // pixels from the point to the label: clears a driven joint's ring
constexpr double kLinkHalf = 5.0;  // half the drawn width of a link, plus a pixel

// The places tried, in order: right above (the usual place), right below, left above, left below,
// straight above, straight below, right, left.
std::vector<QRectF> candidates(const QPointF& at, const QSizeF& size) {
  const double w = size.width(), h = size.height(), d = kReach;
  const QPointF corners[] = {
      {at.x() + d, at.y() - d - h},     {at.x() + d, at.y() + d},
      {at.x() - d - w, at.y() - d - h}, {at.x() - d - w, at.y() + d},
      {at.x() - w / 2, at.y() - d - h}, {at.x() - w / 2, at.y() + d},
      {at.x() + d + 4, at.y() - h / 2}, {at.x() - d - 4 - w, at.y() - h / 2}};
  std::vector<QRectF> out;
  for (const QPointF& c : corners) out.emplace_back(c, size);
  return out;
}

// A uniform grid of the boxes of one kind of item (points, links or placed labels), so that a
// candidate place is tested only against the items near it: testing every label against every
// item cost 0.1 s per repaint on issue 17's 1,000-body ladder (1,100 joint names). Exact: every
// item whose box touches the query box is visited (the predicates then decide as before).
class Grid {
 public:
  Grid(const QRectF& bounds, int items) : origin_(bounds.topLeft()) {
    const double area = std::max(1.0, bounds.width() * bounds.height());
    cell_ = std::max(32.0, std::sqrt(area / std::max(1, items)));  // about one item per cell
    nx_ = std::max(1, static_cast<int>(bounds.width() / cell_) + 1);
    ny_ = std::max(1, static_cast<int>(bounds.height() / cell_) + 1);
    cells_.resize(static_cast<std::size_t>(nx_) * ny_);
  }
  void insert(int item, const QRectF& box) {
    stamp_.resize(std::max<std::size_t>(stamp_.size(), item + 1), 0);
    const Span s = span(box);
    if ((s.x1 - s.x0 + 1) * (s.y1 - s.y0 + 1) > kBigCells) return big_.push_back(item);
    for (int y = s.y0; y <= s.y1; ++y)
      for (int x = s.x0; x <= s.x1; ++x) cells_[y * nx_ + x].push_back(item);
  }
  // Calls f(item) once for every item whose box may touch `box`.
  template <class F>
  void visit(const QRectF& box, F&& f) {
    visit_while(box, [&](int item) { return f(item), true; });
  }
  // The same, stopping as soon as f returns false.
  template <class F>
  void visit_while(const QRectF& box, F&& f) {
    ++query_;
    const auto once = [&](int item) {
      if (stamp_[item] == query_) return true;
      stamp_[item] = query_;
      return f(item);
    };
    for (int item : big_)
      if (!once(item)) return;
    const Span s = span(box);
    for (int y = s.y0; y <= s.y1; ++y)
      for (int x = s.x0; x <= s.x1; ++x)
        for (int item : cells_[y * nx_ + x])
          if (!once(item)) return;
  }

 private:
  static constexpr int kBigCells = 64;  // a long link is checked always, not filed in each cell
  struct Span {
    int x0, x1, y0, y1;
  };
  Span span(const QRectF& b) const {  // cells the closed box covers, clamped to the grid
    const auto at = [&](double v, double o, int n) {
      return std::clamp(static_cast<int>(std::floor((v - o) / cell_)), 0, n - 1);
    };
    const QRectF n = b.normalized();
    return {at(n.left(), origin_.x(), nx_), at(n.right(), origin_.x(), nx_),
            at(n.top(), origin_.y(), ny_), at(n.bottom(), origin_.y(), ny_)};
  }
  QPointF origin_;
  double cell_ = 32.0;
  int nx_ = 1, ny_ = 1;
  std::vector<std::vector<int>> cells_;
  std::vector<int> big_;
  std::vector<unsigned> stamp_;
  unsigned query_ = 0;
};

QRectF segmentBox(const QLineF& l) {
  return QRectF(l.p1(), l.p2()).normalized();
}

// The obstacles and the labels placed so far, each in its grid.
struct Placement {
  const LabelObstacles& o;
  std::vector<SketchLabel> placed;
  Grid points, links, labels;
  Placement(const LabelObstacles& obstacles, const QRectF& bounds, int labels_wanted)
      : o(obstacles),
        points(bounds, static_cast<int>(obstacles.points.size())),
        links(bounds, static_cast<int>(obstacles.links.size())),
        labels(bounds, labels_wanted) {
    for (std::size_t i = 0; i < o.points.size(); ++i) points.insert(int(i), o.points[i]);
    for (std::size_t i = 0; i < o.links.size(); ++i) links.insert(int(i), segmentBox(o.links[i]));
  }
  bool onPlacedLabel(const QRectF& r) {
    bool hit = false;
    labels.visit(r, [&](int i) { hit = hit || placed[i].rect.intersects(r); });
    return hit;
  }
  void place(const SketchLabel& l) {
    labels.insert(static_cast<int>(placed.size()), l.rect);
    placed.push_back(l);
  }
};

// A place's cost is a sum: outside the view 1000, each placed label it covers 100, each point 10,
// each link 1. The first two parts decide whether the label can be shown at all.
int labelPart(const QRectF& r, Placement& pl) {
  int c = pl.o.view.contains(r) ? 0 : 1000;
  pl.labels.visit(r, [&](int i) { c += r.intersects(pl.placed[i].rect) ? 100 : 0; });
  return c;
}

// The cost of r given its label part c, counted only up to `bound`: a place that reaches the best
// cost so far cannot replace it, so its exact cost is not needed (in the dense column of a
// 1,000-body ladder a place crosses hundreds of links).
int costUpTo(int c, const QRectF& r, const QPointF& anchor, Placement& pl, int bound) {
  pl.points.visit_while(r, [&](int i) {
    const QRectF& p = pl.o.points[i];
    if (!p.contains(anchor)) c += r.intersects(p) ? 10 : 0;  // its own point is beside it
    return c < bound;
  });
  if (c >= bound) return c;
  const QRectF wide = r.adjusted(-kLinkHalf, -kLinkHalf, kLinkHalf, kLinkHalf);
  pl.links.visit_while(wide, [&](int i) {
    c += crosses(wide, pl.o.links[i]) ? 1 : 0;
    return c < bound;
  });
  return c;
}

// Whether the label at k is left out whatever its obstacles: every place is inside the view and
// on a placed label, so the best one is too (inside() keeps it) and the test after it drops it.
bool leftOutByLabels(const std::vector<int>& label_parts) {
  return std::all_of(label_parts.begin(), label_parts.end(),
                     [](int c) { return c >= 100 && c < 1000; });
}

// Everything a candidate place or an obstacle can cover: the grids' extent.
QRectF extent(const std::vector<std::pair<QString, QPointF>>& wanted,
              const std::vector<QSizeF>& sizes, const LabelObstacles& o) {
  QRectF b = o.view;
  for (const QRectF& p : o.points) b |= p;
  for (const QLineF& l : o.links) b |= segmentBox(l).adjusted(-1, -1, 1, 1);
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    const double rx = sizes[k].width() + kReach + 4, ry = sizes[k].height() + kReach;
    b |= QRectF(wanted[k].second - QPointF(rx, ry), QSizeF(2 * rx, 2 * ry));
  }
  return b;
}

// Moved the least distance that brings r inside view (r is smaller than the view).
QRectF inside(QRectF r, const QRectF& view) {
  if (r.right() > view.right()) r.moveRight(view.right());
  if (r.bottom() > view.bottom()) r.moveBottom(view.bottom());
  if (r.left() < view.left()) r.moveLeft(view.left());
  if (r.top() < view.top()) r.moveTop(view.top());
  return r;
}
}  // namespace

bool crosses(const QRectF& r, const QLineF& l) {
  if (r.contains(l.p1()) || r.contains(l.p2())) return true;
  const QLineF edges[] = {{r.topLeft(), r.topRight()},
                          {r.topRight(), r.bottomRight()},
                          {r.bottomRight(), r.bottomLeft()},
                          {r.bottomLeft(), r.topLeft()}};
  for (const QLineF& e : edges)
    if (l.intersects(e) == QLineF::BoundedIntersection) return true;
  return false;
}

std::vector<SketchLabel> placeLabels(const std::vector<std::pair<QString, QPointF>>& wanted,
                                     const LabelObstacles& obstacles,
                                     const std::vector<QSizeF>& sizes) {
  Placement pl(obstacles, extent(wanted, sizes, obstacles), static_cast<int>(wanted.size()));
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    const auto& [text, at] = wanted[k];
    const std::vector<QRectF> places = candidates(at, sizes[k]);
    std::vector<int> parts;
    for (const QRectF& r : places) parts.push_back(labelPart(r, pl));
    if (leftOutByLabels(parts)) continue;
    int best = -1;
    QRectF best_rect;
    for (std::size_t i = 0; i < places.size(); ++i) {
      if (best >= 0 && parts[i] >= best) continue;  // cannot be cheaper
      const int c =
          costUpTo(parts[i], places[i], at, pl, best < 0 ? std::numeric_limits<int>::max() : best);
      if (best < 0 || c < best) best = c, best_rect = places[i];
      if (c == 0) break;  // the first free place
    }
    const QRectF r = inside(best_rect, obstacles.view);
    // A crowded sketch (the 110 joints of the Strandbeest walker) names what fits: a label on
    // another is unreadable, and the Model tree lists every joint.
    if (pl.onPlacedLabel(r)) continue;
    pl.place({text, at, r});
  }
  return std::move(pl.placed);
}

std::vector<SketchLabel> placeLabels(const std::vector<std::pair<QString, QPointF>>& wanted,
                                     const LabelObstacles& obstacles, const QFontMetricsF& fm) {
  std::vector<QSizeF> sizes;
  sizes.reserve(wanted.size());
  for (const auto& w : wanted) sizes.push_back(fm.size(0, w.first) + QSizeF(2 * kPad, 2 * kPad));
  return placeLabels(wanted, obstacles, sizes);
}

void drawLabels(QPainter& p, const std::vector<SketchLabel>& labels) {
  p.save();
  for (const SketchLabel& l : labels) {
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(l.rect, 3, 3);
    p.setPen(QColor(40, 40, 40));
    p.drawText(l.rect, Qt::AlignCenter, l.text);
  }
  p.restore();
}

}  // namespace articula
