// Display units (ui/display_units): the conversions against values worked by hand, the text the
// Preferences' choices give, and the QSettings round trip with its change signal.
#include <QCoreApplication>
#include <QSettings>
#include <catch2/catch.hpp>
#include <limits>
#include <numbers>

#include "ui/display_units.hpp"

using namespace articula;

namespace {
constexpr DisplayUnits kSi{LengthUnit::Metre, AngleUnit::Radian};
constexpr DisplayUnits kShop{LengthUnit::Millimetre, AngleUnit::Degree};
}  // namespace

TEST_CASE("display units: SI units map to mm and degrees, others stay", "[display-units]") {
  // Exact factors: 1000 mm per m; 180/π degrees per radian (to the last bit of the double).
  CHECK(displayScale("m", kShop).factor == 1000.0);
  CHECK(displayScale("m", kShop).unit == "mm");
  CHECK(displayScale("m/s²", kShop).unit == QString::fromUtf8("mm/s²"));
  CHECK(displayScale("rad/s", kShop).unit == QString::fromUtf8("°/s"));
  CHECK(displayScale("rad", kShop).factor == 180.0 / std::numbers::pi);
  // Torques, masses, stiffnesses and forces keep SI: N·mm or N·m/° was not asked for.
  for (const char* unit : {"N·m", "kg", "N/m", "m/rad", "N", "mm", ""}) {
    const DisplayScale s = displayScale(QString::fromUtf8(unit), kShop);
    CHECK(s.factor == 1.0);
    CHECK(s.unit == QString::fromUtf8(unit));
  }
  CHECK(displayScale("m", kSi).factor == 1.0);
  CHECK(displayScale("rad/s", kSi).unit == "rad/s");
}

TEST_CASE("display units: lengths and angles as text", "[display-units]") {
  CHECK(format_length(0.0125, kSi) == "0.0125 m");
  CHECK(format_length(0.0125, kShop) == "12.5 mm");
  CHECK(format_length(-0.3, kShop) == "-300 mm");
  // A 12.3456 m frame in mm: whole millimetres, no exponent ("1.235e+04 mm" is unreadable).
  CHECK(format_length(12.3456, kShop) == "12346 mm");
  CHECK(format_angle(std::numbers::pi / 6, kShop) == QString::fromUtf8("30°"));
  CHECK(format_angle(std::numbers::pi / 6, kSi) == "0.5236 rad");
  CHECK(format_angle(0.0, kShop) == QString::fromUtf8("0°"));
  CHECK(format_length(std::numeric_limits<double>::quiet_NaN(), kSi) == "nan m");
  CHECK(with_unit("2.5", QString::fromUtf8("°/s")) == QString::fromUtf8("2.5°/s"));
  CHECK(with_unit("2.5", "") == "2.5");
}

TEST_CASE("display units: a scale bar's round length and its text", "[display-units]") {
  // The smallest 1, 2 or 5 x 10^k at least the asked length: exact powers of ten stay.
  CHECK(round_up_125(0.1) == 0.1);
  CHECK(round_up_125(0.11) == Approx(0.2).epsilon(1e-15));
  CHECK(round_up_125(0.23) == Approx(0.5).epsilon(1e-15));
  CHECK(round_up_125(0.6) == Approx(1.0).epsilon(1e-15));
  CHECK(round_up_125(1.0) == 1.0);
  CHECK(round_up_125(3.7) == Approx(5.0).epsilon(1e-15));
  CHECK(round_up_125(0.0004) == Approx(0.0005).epsilon(1e-15));
  CHECK(round_up_125(0.0) == 0.0);
  CHECK(round_up_125(-1.0) == 0.0);
  CHECK(round_up_125(std::numeric_limits<double>::infinity()) == 0.0);
  CHECK(format_length(round_up_125(0.6), kShop) == "1000 mm");
  CHECK(format_length(round_up_125(0.6), kSi) == "1 m");
  CHECK(format_length(round_up_125(0.011), kSi) == "0.02 m");
}

TEST_CASE("display units: stored with QSettings, a change announced once", "[display-units]") {
  QCoreApplication::setOrganizationName("ArticulaTest");  // keep the user's settings out of it
  QCoreApplication::setApplicationName("test_display_units");
  setDisplayUnits(kSi);
  int signals_seen = 0;
  const auto connection = QObject::connect(&displayUnitsNotifier(), &DisplayUnitsNotifier::changed,
                                           [&] { ++signals_seen; });
  setDisplayUnits(kShop);
  setDisplayUnits(kShop);  // the same units again: nothing to redraw
  CHECK(signals_seen == 1);
  CHECK(displayUnits() == kShop);
  CHECK(format_length(0.25) == "250 mm");
  const QSettings settings;
  CHECK(settings.value("units/length").toString() == "mm");
  CHECK(settings.value("units/angle").toString() == "deg");
  setDisplayUnits(kSi);
  CHECK(signals_seen == 2);
  QObject::disconnect(connection);
}
