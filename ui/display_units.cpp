#include "ui/display_units.hpp"

#include <QSettings>
#include <cmath>
#include <numbers>
#include <optional>

namespace articula {

namespace {

constexpr const char* kLengthKey = "units/length";
constexpr const char* kAngleKey = "units/angle";

DisplayUnits readSettings() {
  const QSettings settings;
  DisplayUnits units;
  if (settings.value(kLengthKey).toString() == QLatin1String("mm"))
    units.length = LengthUnit::Millimetre;
  if (settings.value(kAngleKey).toString() == QLatin1String("deg")) units.angle = AngleUnit::Degree;
  return units;
}

std::optional<DisplayUnits>& cached() {
  static std::optional<DisplayUnits> units;
  return units;
}

// Whether the unit is `base` or its first or second time derivative ("m", "m/s", "m/s²"; not
// "mm", "N·m" or a rack's "m/rad").
bool isKinematic(const QString& unit, const QString& base) {
  return unit == base || unit == base + "/s" || unit == base + QString::fromUtf8("/s²");
}

}  // namespace

DisplayUnits displayUnits() {
  if (!cached()) cached() = readSettings();
  return *cached();
}

void setDisplayUnits(DisplayUnits units) {
  const bool changed = displayUnits() != units;
  cached() = units;
  QSettings settings;
  settings.setValue(kLengthKey, units.length == LengthUnit::Millimetre ? "mm" : "m");
  settings.setValue(kAngleKey, units.angle == AngleUnit::Degree ? "deg" : "rad");
  if (changed) emit displayUnitsNotifier().changed();
}

DisplayUnitsNotifier& displayUnitsNotifier() {
  static DisplayUnitsNotifier notifier;
  return notifier;
}

DisplayScale displayScale(const QString& si_unit, DisplayUnits units) {
  if (units.length == LengthUnit::Millimetre && isKinematic(si_unit, "m"))
    return {1000.0, "mm" + si_unit.mid(1)};
  if (units.angle == AngleUnit::Degree && isKinematic(si_unit, "rad"))
    return {180.0 / std::numbers::pi, QString::fromUtf8("°") + si_unit.mid(3)};
  return {1.0, si_unit};
}

QString format_shown_number(double value, int digits) {
  if (!std::isfinite(value)) return QString::number(value);
  // 'g' switches to an exponent at 10^digits ("1.2e+04"): whole numbers from there on.
  if (std::abs(value) >= std::pow(10.0, digits)) return QString::number(value, 'f', 0);
  return QString::number(value, 'g', digits);
}

QString with_unit(const QString& number, const QString& unit) {
  if (unit.isEmpty()) return number;
  if (unit.startsWith(QString::fromUtf8("°"))) return number + unit;
  return number + " " + unit;
}

QString format_length(double metres, DisplayUnits units, int digits) {
  const DisplayScale s = displayScale("m", units);
  return with_unit(format_shown_number(metres * s.factor, digits), s.unit);
}

double round_up_125(double metres) {
  if (!(metres > 0) || !std::isfinite(metres)) return 0.0;
  const double decade = std::pow(10.0, std::floor(std::log10(metres)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= metres * (1 - 1e-12)) return m * decade;  // 1e-12: log10's round-off
  return 10 * decade;
}

QString format_angle(double radians, DisplayUnits units, int digits) {
  const DisplayScale s = displayScale("rad", units);
  return with_unit(format_shown_number(radians * s.factor, digits), s.unit);
}

}  // namespace articula
