#pragma once
// Text for people: lists of names capped to a readable length ("J1, J2, … and 178 more", the
// whole list kept for a tooltip or dialog), and numbers in engineering form with SI prefixes
// ("12.5 kN·m", "-340 µm") for plots and readouts.
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace articula {

// The first `shown` names joined by ", ", then "… and N more" when there are more.
QString cappedList(const std::vector<std::string>& names, int shown = 8);
QString cappedList(const QStringList& names, int shown = 8);

// Engineering notation: the mantissa in [1, 1000) with `digits` significant digits and the SI
// prefix of its power of 1000 (f … T), then the unit: engineering(0.00034, "m") = "340 µm".
// Zero is "0 m"; beyond the prefixes, e-notation; without a unit (a prefix alone would read as
// one) and for non-finite values, plain significant digits.
QString engineering(double value, const QString& unit = {}, int digits = 3);

// The SI prefix for a range whose largest magnitude is `magnitude`: the factor to divide values
// by and the prefix ("k" for 1e3 …). A scaled axis labels its ticks with plain numbers and puts
// the prefix in its title ("drive torque τ (kN·m)").
struct SiScale {
  double factor = 1.0;
  QString prefix;
};
SiScale siScale(double magnitude);

}  // namespace articula
