#include "ui/sketch_labels.hpp"

#include <algorithm>

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

int cost(const QRectF& r, const QPointF& anchor, const LabelObstacles& o,
         const std::vector<SketchLabel>& placed) {
  int c = o.view.contains(r) ? 0 : 1000;
  for (const SketchLabel& l : placed) c += r.intersects(l.rect) ? 100 : 0;
  for (const QRectF& p : o.points)
    if (!p.contains(anchor)) c += r.intersects(p) ? 10 : 0;  // its own point is beside it
  const QRectF wide = r.adjusted(-kLinkHalf, -kLinkHalf, kLinkHalf, kLinkHalf);
  for (const QLineF& l : o.links) c += crosses(wide, l) ? 1 : 0;
  return c;
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
                                     const LabelObstacles& obstacles, const QFontMetricsF& fm) {
  std::vector<SketchLabel> placed;
  for (const auto& [text, at] : wanted) {
    const QSizeF size = fm.size(0, text) + QSizeF(2 * kPad, 2 * kPad);
    int best = -1;
    QRectF best_rect;
    for (const QRectF& r : candidates(at, size)) {
      const int c = cost(r, at, obstacles, placed);
      if (best < 0 || c < best) best = c, best_rect = r;
      if (c == 0) break;  // the first free place
    }
    const QRectF r = inside(best_rect, obstacles.view);
    // A crowded sketch (the 110 joints of the Strandbeest walker) names what fits: a label on
    // another is unreadable, and the Model tree lists every joint.
    if (std::any_of(placed.begin(), placed.end(),
                    [&](const SketchLabel& l) { return l.rect.intersects(r); }))
      continue;
    placed.push_back({text, at, r});
  }
  return placed;
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
