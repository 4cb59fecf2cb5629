#include "ui/sketch_couplings.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <cmath>
#include <limits>
#include <numbers>

#include "ui/sketch_tool.hpp"
namespace articula {

namespace {
constexpr double kModule = 0.008;  // m of pitch circle per drawn tooth

struct Circles {
  double rA = 0, rB = 0;
};
// Drawn pitch radii: the file's, else split from the ratio (gear: touching; belt: a quarter of
// the distance for pulley B; rack: the pinion's radius is the ratio).
Circles circles(const CouplingSpec& c, double distance) {
  if (c.radii) return {(*c.radii)[0], (*c.radii)[1]};
  const double k = std::abs(c.ratio);
  switch (c.type) {
    case CouplingSpec::Type::Gear:
      return {k * distance / (1 + k), distance / (1 + k)};
    case CouplingSpec::Type::Belt:
      return {k * distance / 4, distance / 4};
    case CouplingSpec::Type::RackPinion:
      return {k, k};
    default:
      return {0, 0};
  }
}

// A pitch circle with tooth marks 5 px long that turn with the link.
void gear(QPainter& p, const ToScreen& s, const Vec3& c, double r, double angle, double scale) {
  p.drawEllipse(s(c), r * scale, r * scale);
  const int teeth = std::max(8, static_cast<int>(std::lround(2 * std::numbers::pi * r / kModule)));
  const double half = 2.5 / scale;
  for (int k = 0; k < teeth; ++k) {
    const double a = angle + 2 * std::numbers::pi * k / teeth;
    const Vec3 d(std::cos(a), std::sin(a), 0);
    p.drawLine(s(c + (r - half) * d), s(c + (r + half) * d));
  }
}

// The open belt's two straight runs: tangent points c1 + r1 n, c2 + r2 n with n·u = (r1-r2)/d.
void belt(QPainter& p, const ToScreen& s, const Vec3& c1, double r1, const Vec3& c2, double r2) {
  const Vec3 d = c2 - c1;
  const double L = d.norm();
  if (L <= std::abs(r1 - r2)) return;
  const Vec3 u = d / L, perp(-u.y(), u.x(), 0);
  const double sb = (r1 - r2) / L, cb = std::sqrt(1 - sb * sb);
  for (double side : {-1.0, 1.0}) {
    const Vec3 n = sb * u + side * cb * perp;
    p.drawLine(s(c1 + r1 * n), s(c2 + r2 * n));
  }
}

// The rack's pitch line: through the point nearest the pinion, along the slider, at least
// 120 px long; `in` points from it toward the pinion.
struct RackLine {
  Vec3 from, to, in;
};
RackLine rackLine(const PivotView& pinion, double r, const PivotView& b, double scale) {
  const Vec3 axis = b.axis.normalized();
  const Vec3 foot = b.at + axis * axis.dot(pinion.at - b.at);
  const double half = std::max(3 * r, 60 / scale);
  const Vec3 in =
      (pinion.at - foot).norm() > 1e-12 ? (pinion.at - foot).normalized() : Vec3(0, 1, 0);
  return {foot - half * axis, foot + half * axis, in};
}

// Teeth 7 px high on the pinion's side of the pitch line, one per module (at least 6 px apart),
// so that they show beside a link drawn along the same line.
void rack(QPainter& p, const ToScreen& s, const RackLine& l, double scale) {
  p.drawLine(s(l.from), s(l.to));
  const double step = std::max(kModule, 6 / scale), length = (l.to - l.from).norm();
  const Vec3 along = (l.to - l.from) / length, up = 7 / scale * l.in;
  for (double x = 0; x <= length; x += step)
    p.drawLine(s(l.from + x * along), s(l.from + x * along + up));
}

QString label(const CouplingSpec& c) {
  const QString unit = c.type == CouplingSpec::Type::RackPinion ? QStringLiteral(" m/rad") : "";
  return QStringLiteral("%1  %2%3")
      .arg(QString::fromStdString(c.name))
      .arg(c.ratio, 0, 'g', 4)
      .arg(unit);
}

// Where a label of `size` goes: below, above, right or left of each circle (centre, radius in
// px) in turn, the first place covering least of the sketch.
QRectF labelRect(const QSizeF& size, const std::vector<std::pair<QPointF, double>>& circles,
                 const LabelCost& cost) {
  const double w = size.width(), h = size.height();
  QRectF best;
  int least = std::numeric_limits<int>::max();
  for (const auto& [c, r] : circles)
    for (const QPointF& at :
         {QPointF(c.x() - w / 2, c.y() + r + 8), QPointF(c.x() - w / 2, c.y() - r - 8 - h),
          QPointF(c.x() + r + 8, c.y() - h / 2), QPointF(c.x() - r - 8 - w, c.y() - h / 2)}) {
      const QRectF place(at, size);
      const int k = cost(place);
      if (k < least) least = k, best = place;
      if (k == 0) return best;
    }
  return best;
}
}  // namespace

void drawCouplings(QPainter& p, const MechanismSpec& spec, const PivotOf& pivot, const ToScreen& s,
                   double scale, int selected, const LabelCost& cost) {
  for (int i = 0; i < static_cast<int>(spec.couplings.size()); ++i) {
    const CouplingSpec& c = spec.couplings[i];
    const int ja = spec.joint_index(c.joints[0]), jb = spec.joint_index(c.joints[1]);
    if (ja < 0 || jb < 0) continue;
    const PivotView a = pivot(ja), b = pivot(jb);
    const Circles r = circles(c, (b.at - a.at).norm());
    p.setPen(QPen(i == selected ? QColor(230, 120, 0) : QColor(150, 100, 30),
                  i == selected ? 2.2 : 1.3));
    p.setBrush(Qt::NoBrush);
    std::vector<std::pair<QPointF, double>> around{{s(a.at), r.rA * scale}};
    if (c.type == CouplingSpec::Type::Linear || r.rA <= 0) {
      p.setPen(QPen(p.pen().color(), 1.3, Qt::DashLine));
      p.drawLine(s(a.at), s(b.at));
      around = {{(s(a.at) + s(b.at)) / 2, 4.0}};
    } else if (c.type == CouplingSpec::Type::RackPinion) {
      gear(p, s, a.at, r.rA, a.angle, scale);
      const RackLine l = rackLine(a, r.rA, b, scale);
      rack(p, s, l, scale);
      for (const Vec3& end : {l.to, l.from}) around.emplace_back(s(end), 4.0);
    } else {
      gear(p, s, a.at, r.rA, a.angle, scale);
      gear(p, s, b.at, r.rB, b.angle, scale);
      if (c.type == CouplingSpec::Type::Belt) belt(p, s, a.at, r.rA, b.at, r.rB);
      around.emplace_back(s(b.at), r.rB * scale);
    }
    const QString text = label(c);
    const QRectF box = labelRect(QFontMetricsF(p.font()).size(0, text), around, cost);
    p.setPen(QColor(120, 80, 20));
    p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
  }
}

std::vector<Vec3> couplingExtent(const MechanismSpec& spec, const PivotOf& pivot) {
  std::vector<Vec3> out;
  for (const CouplingSpec& c : spec.couplings) {
    const int ja = spec.joint_index(c.joints[0]), jb = spec.joint_index(c.joints[1]);
    if (ja < 0 || jb < 0 || c.type == CouplingSpec::Type::Linear) continue;
    const PivotView a = pivot(ja), b = pivot(jb);
    const Circles r = circles(c, (b.at - a.at).norm());
    const bool rack = c.type == CouplingSpec::Type::RackPinion;
    for (auto [at, radius] : {std::pair{a.at, r.rA}, std::pair{b.at, rack ? 0.0 : r.rB}})
      for (const Vec3& corner : {Vec3(-1, -1, 0), Vec3(1, 1, 0)})
        out.push_back(at + radius * corner);
  }
  return out;
}

int couplingAt(const MechanismSpec& spec, const PivotOf& pivot, const ToScreen& s, double scale,
               const QPointF& screen, double px) {
  for (int i = 0; i < static_cast<int>(spec.couplings.size()); ++i) {
    const CouplingSpec& c = spec.couplings[i];
    const int ja = spec.joint_index(c.joints[0]), jb = spec.joint_index(c.joints[1]);
    if (ja < 0 || jb < 0) continue;
    const PivotView a = pivot(ja), b = pivot(jb);
    const Circles r = circles(c, (b.at - a.at).norm());
    const bool rack = c.type == CouplingSpec::Type::RackPinion;  // B is a slider: no circle
    for (auto [at, radius] : {std::pair{a.at, r.rA}, std::pair{b.at, rack ? 0.0 : r.rB}})
      if (radius > 0 && std::abs(QLineF(screen, s(at)).length() - radius * scale) < px) return i;
    if (rack && r.rA > 0) {
      const RackLine l = rackLine(a, r.rA, b, scale);
      if (distanceToSegment(screen, s(l.from), s(l.to), nullptr) < px) return i;
    }
  }
  return -1;
}

}  // namespace articula
