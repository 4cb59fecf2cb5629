#include "ui/plot_axis.hpp"

#include <QCategoryAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace articula {

double niceStep(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= x * (1 - 1e-12)) return m * p;
  return 10 * p;
}

double niceCeil(double x) {
  if (!(x > 0)) return 1.0;
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (m * p >= x * (1 - 1e-12)) return m * p;
  return 10 * p;
}

QString tickLabel(double v, double step) {
  if (std::abs(v) < 1e-9 * step) return QStringLiteral("0");
  const double mag = std::max(std::abs(v), step);
  if (mag >= 1e5 || step < 1e-4) return QString::number(v, 'g', 3);
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  return QString::number(v, 'f', decimals);
}

void setTicks(QCategoryAxis* axis, double lo, double hi, double step, double factor) {
  for (const QString& label : axis->categoriesLabels()) axis->remove(label);
  axis->setStartValue(lo);
  for (long k = std::lround(std::ceil(lo / step - 1e-9)); k * step <= hi + 1e-9 * step; ++k)
    axis->append(tickLabel(k * step / factor, step / factor), k * step);
  axis->setRange(lo, hi);
}

void YAxis::clearRange() {
  lo = std::numeric_limits<double>::infinity(), hi = -lo;
  y0 = y1 = 0;  // refit
}

void YAxis::track(double v) {
  if (!std::isfinite(v)) return;
  lo = std::min(lo, v);
  hi = std::max(hi, v);
}

bool YAxis::fit(int tick_count) {
  // Round limits a tick step beyond the data; changed when the data leaves them, or fills under
  // a fifth of them (a drive torque starting at exactly 0 got ±1 and kept it while it swung by
  // 0.02 N·m). A refit leaves the data at least about half the height, and the range of the
  // data only grows, so this does not make the axis hunt. (shown.factor > 0: order kept.)
  double l = lo * shown.factor, h = hi * shown.factor;
  if (!(l <= h)) l = -1, h = 1;
  const double mag = std::max(std::abs(l), std::abs(h));
  const bool loose =  // (constant data is drawn centred in a fixed band: nothing to tighten)
      h - l > 1e-9 * std::max(1.0, mag) && h - l < 0.2 * (y1 - y0);
  if (y0 != y1 && l >= y0 && h <= y1 && !loose && tick_count == ticks) return false;
  ticks = tick_count;
  double span = h - l;
  if (span <= 1e-9 * std::max(1.0, mag)) span = mag > 0 ? 0.2 * mag : 2.0;
  const double step = niceStep(span / ticks);
  y0 = std::floor(l / step) * step;
  y1 = std::ceil(h / step) * step;
  if (y1 - y0 < 2 * step) y0 -= step, y1 += step;  // constant data: centred
  prefix = siScale(std::max(std::abs(y0), std::abs(y1)));
  // No unit to prefix, or one the user chose (mm, °): plain numbers.
  if (shown.unit.isEmpty() || shown.factor != 1.0) prefix = {};
  setTicks(axis, y0, y1, step, prefix.factor);
  axis->setTitleText(title());
  return true;
}

QString YAxis::title() const {
  return used ? prefix.prefix + shown.unit : QString();
}

QString YAxis::valueText(double value_si) const {
  if (shown.factor != 1.0)
    return with_unit(format_shown_number(value_si * shown.factor, 4), shown.unit);
  return engineering(value_si, unit, 4);
}

}  // namespace articula
