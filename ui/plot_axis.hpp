#pragma once
// The arithmetic of the plots' axes (ui/plot_widget.hpp): round steps, tick labels that are
// exact and short, and a y axis fitted to its channels' data in the display units, with round
// limits that change only when the data outgrows or underfills them.
#include <QString>

#include "ui/display_units.hpp"
#include "ui/text_format.hpp"

class QCategoryAxis;

namespace articula {

// 1, 2 or 5 times a power of ten, at least x.
double niceStep(double x);
// The first of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (times a power of ten) at least x.
double niceCeil(double x);
// A tick label for k * step, exact and short: "0.15", "-2", "1.2e+04".
QString tickLabel(double v, double step);
// Range [lo, hi] with a labelled grid line at every multiple of step inside it; labels show
// value / factor (an SI prefix in the axis title), so they stay a few characters wide.
void setTicks(QCategoryAxis* axis, double lo, double hi, double step, double factor = 1.0);

// A y axis and the unit of the channels drawn against it. Data arrive in SI (channelUnit) and
// are drawn in the display units (mm, °: `shown`); ticks of at most 3 digits before the point
// divide by an SI prefix (1250 N·m is labelled 1.25 with kN·m), except in a display unit the
// user chose (no "kmm").
struct YAxis {
  QCategoryAxis* axis = nullptr;
  QString unit;           // SI; what channelUnit says of its channels
  DisplayScale shown;     // SI -> shown values and unit
  double lo = 0, hi = 0;  // data range, SI (lo > hi: no data)
  double y0 = 0, y1 = 0;  // axis range, shown units (y0 == y1: not set)
  int ticks = 0;          // tick intervals laid out for (by the plot's height)
  SiScale prefix;         // tick labels are shown values / prefix.factor
  bool used = false;      // has a channel (the right axis: a second unit)

  void clearRange();
  void track(double v);  // running data range, SI; non-finite values are skipped
  // Refits when the data leave the range, fill under a fifth of it, or `ticks` changed; true
  // when the axis was laid out again.
  bool fit(int tick_count);
  QString title() const;  // the shown unit with its prefix: "kN·m", "mm", "°/s"
  // A value of this axis's channels as text in the shown unit: "12.5 kN·m", "17.19°".
  QString valueText(double value_si) const;
};

}  // namespace articula
