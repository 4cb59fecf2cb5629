#include "ui/sketch_couplings.hpp"

#include <QPainter>
#include <QPainterPath>
#include <cmath>
#include <numbers>

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

void rack(QPainter& p, const ToScreen& s, const PivotView& pinion, double r, const PivotView& b) {
  const Vec3 axis = b.axis.normalized();
  const Vec3 foot = b.at + axis * axis.dot(pinion.at - b.at);  // the pitch line's nearest point
  p.drawLine(s(foot - 3 * r * axis), s(foot + 3 * r * axis));
  const Vec3 out =
      (foot - pinion.at).norm() > 1e-12 ? (foot - pinion.at).normalized() : Vec3(0, -1, 0);
  for (double x = -3 * r; x <= 3 * r; x += kModule)
    p.drawLine(s(foot + x * axis), s(foot + x * axis + 0.15 * r * out));
}

QString label(const CouplingSpec& c) {
  return QStringLiteral("%1  %2").arg(QString::fromStdString(c.name)).arg(c.ratio, 0, 'g', 4);
}
}  // namespace

void drawCouplings(QPainter& p, const MechanismSpec& spec, const PivotOf& pivot, const ToScreen& s,
                   double scale, int selected) {
  for (int i = 0; i < static_cast<int>(spec.couplings.size()); ++i) {
    const CouplingSpec& c = spec.couplings[i];
    const int ja = spec.joint_index(c.joints[0]), jb = spec.joint_index(c.joints[1]);
    if (ja < 0 || jb < 0) continue;
    const PivotView a = pivot(ja), b = pivot(jb);
    const Circles r = circles(c, (b.at - a.at).norm());
    p.setPen(QPen(i == selected ? QColor(230, 120, 0) : QColor(150, 100, 30),
                  i == selected ? 2.2 : 1.3));
    p.setBrush(Qt::NoBrush);
    if (c.type == CouplingSpec::Type::Linear || r.rA <= 0) {
      p.setPen(QPen(p.pen().color(), 1.3, Qt::DashLine));
      p.drawLine(s(a.at), s(b.at));
    } else if (c.type == CouplingSpec::Type::RackPinion) {
      gear(p, s, a.at, r.rA, a.angle, scale);
      rack(p, s, a, r.rA, b);
    } else {
      gear(p, s, a.at, r.rA, a.angle, scale);
      gear(p, s, b.at, r.rB, b.angle, scale);
      if (c.type == CouplingSpec::Type::Belt) belt(p, s, a.at, r.rA, b.at, r.rB);
    }
    p.setPen(QColor(120, 80, 20));
    p.drawText(s(a.at - Vec3(0, r.rA, 0)) + QPointF(6, 16), label(c));  // below: clear of links
  }
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
  }
  return -1;
}

}  // namespace articula
