#pragma once
// Display units are a persistent setting (QSettings, on disk): a test that sets them restores
// the ones it found when it ends, even on a failed REQUIRE, or the GUI tests run after it (other
// processes) read lengths in mm (the 3D Measure test failed so after the Report dock's test).
#include "ui/display_units.hpp"

namespace articula::test {

class DisplayUnitsGuard {
 public:
  explicit DisplayUnitsGuard(DisplayUnits units) { setDisplayUnits(units); }
  ~DisplayUnitsGuard() { setDisplayUnits(before_); }
  DisplayUnitsGuard(const DisplayUnitsGuard&) = delete;
  DisplayUnitsGuard& operator=(const DisplayUnitsGuard&) = delete;

 private:
  DisplayUnits before_ = displayUnits();
};

}  // namespace articula::test
