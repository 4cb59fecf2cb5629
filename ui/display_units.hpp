#pragma once
// The units people read lengths and angles in (Edit > Preferences: mm or m, deg or rad; stored
// with QSettings under units/length and units/angle). The model, the files, the CLI and the
// plots' data stay in SI (m, rad); only text shown to people goes through here: the Properties
// summary, the status bar's cursor position, the plots' axes and readouts, the measure tools.
#include <QObject>
#include <QString>

namespace articula {

enum class LengthUnit { Metre, Millimetre };
enum class AngleUnit { Radian, Degree };

struct DisplayUnits {
  LengthUnit length = LengthUnit::Metre;
  AngleUnit angle = AngleUnit::Radian;
  bool operator==(const DisplayUnits&) const = default;
};

// The units in use: read from QSettings on first use (m and rad when nothing is stored or the
// stored text is unknown), then kept. setDisplayUnits stores them and, when they differ, emits
// DisplayUnitsNotifier::changed so that every view redraws its text.
DisplayUnits displayUnits();
void setDisplayUnits(DisplayUnits units);

class DisplayUnitsNotifier : public QObject {
  Q_OBJECT
 signals:
  void changed();
};
DisplayUnitsNotifier& displayUnitsNotifier();

// An SI unit text as shown: the factor that turns SI values into shown values and the shown unit.
// Positions, velocities and accelerations ("m", "m/s", "m/s²") become mm with 1000, angles
// ("rad", "rad/s", "rad/s²") degrees ("°", "°/s", "°/s²") with 180/π; every other unit (N·m, kg,
// m/rad, N/m) is returned as it is, factor 1: a torque in N·mm was not asked for.
struct DisplayScale {
  double factor = 1.0;
  QString unit;
};
DisplayScale displayScale(const QString& si_unit, DisplayUnits units);
inline DisplayScale displayScale(const QString& si_unit) {
  return displayScale(si_unit, displayUnits());
}

// A length in metres or an angle in radians as text in the display units, `digits` significant
// digits without exponent for the magnitudes of a mechanism (up to 10^digits in the shown unit):
// format_length(0.0125) = "0.0125 m" or "12.5 mm"; format_angle(M_PI / 6) = "0.5236 rad" or
// "30°". Non-finite values are written as such ("nan m").
QString format_length(double metres, DisplayUnits units, int digits = 4);
QString format_angle(double radians, DisplayUnits units, int digits = 4);
inline QString format_length(double metres, int digits = 4) {
  return format_length(metres, displayUnits(), digits);
}
inline QString format_angle(double radians, int digits = 4) {
  return format_angle(radians, displayUnits(), digits);
}

// The smallest length of 1, 2 or 5 × 10^k m that is at least `metres` (> 0): a scale bar's, so
// that its label reads as a round number in m or mm. Non-positive or non-finite input gives 0.
double round_up_125(double metres);

// A number and its shown unit: "12.5 mm", "30°" (the degree sign follows the number without a
// space, ISO 80000-1), the number alone without a unit.
QString with_unit(const QString& number, const QString& unit);

// A number in a shown unit with `digits` significant digits and no exponent below 10^digits
// (used by format_length and format_angle; the unit is appended by the caller).
QString format_shown_number(double value, int digits = 4);

}  // namespace articula
