#pragma once
// Placement of the sketch's joint names (issue 23: labels overlapped on the Jansen leg and the
// Stewart platform, were drawn under the links and were cut at the view's edge). Each label tries
// a few places around its point and keeps the first that stays inside the view and covers no
// label placed before it, no drawn point and no link; when every place covers something, the
// least covered one (a label 100, a point 10, a link 1), moved inside the view, unless it would
// lie on a label placed before it: then it is left out. Drawn last, on a light backing, so that
// nothing drawn afterwards hides it.
#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <vector>

namespace articula {

struct SketchLabel {
  QString text;
  QPointF anchor;  // widget pixels: the joint point it names
  QRectF rect;     // widget pixels: where it is drawn (text plus padding), inside the view
};

// What a label should not cover, in widget pixels.
struct LabelObstacles {
  QRectF view;                 // the widget's rectangle
  std::vector<QRectF> points;  // drawn points with their circles, ground symbols, blocks
  std::vector<QLineF> links;   // link centre lines (drawn 9 px wide)
};

// Whether segment l touches rectangle r (an end inside, or crossing an edge).
bool crosses(const QRectF& r, const QLineF& l);

// Places the labels in the order given (earlier labels take the better places). Near-linear in
// the number of labels and obstacles (a grid of each), for sketches of 1,000 bodies.
std::vector<SketchLabel> placeLabels(const std::vector<std::pair<QString, QPointF>>& wanted,
                                     const LabelObstacles& obstacles, const QFontMetricsF& fm);
// The same with the labels' sizes given (text plus padding, one per wanted label).
std::vector<SketchLabel> placeLabels(const std::vector<std::pair<QString, QPointF>>& wanted,
                                     const LabelObstacles& obstacles,
                                     const std::vector<QSizeF>& sizes);
void drawLabels(QPainter& p, const std::vector<SketchLabel>& labels);

}  // namespace articula
