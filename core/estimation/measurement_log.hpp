#pragma once
// The measurement CSV (contract-additions-2 §5): column `t`, then one column per sensor value,
// "<sensor>" or "<sensor>[i]" as SensorModel::columns() names them. Rows at any increasing
// times; an empty cell is a missing sample. Written by simulate --sensors-out, read by estimate
// and identify, with every problem named by row (file line) and column.
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/estimation/sensor_model.hpp"

namespace articula {

// A bad log: the message names the file, the line and the column.
struct MeasurementError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MeasurementLog {
  VecX t;        // row times, strictly increasing (s)
  MatX values;   // rows x SensorModel::size(), in its column order; NaN where missing
  MatX present;  // same shape: 1 where a value was given, 0 where missing
  std::vector<std::size_t> lines;  // file line of each row (for messages)
  int samples() const { return static_cast<int>(present.sum()); }
};

// Parses CSV text (`name` is the file name for messages). Columns may come in any order and
// any may be left out (not logged); every column must belong to a sensor of the model.
MeasurementLog parse_measurements(const std::string& text, const std::string& name,
                                  const SensorModel& sensors);
MeasurementLog read_measurements(const std::string& path, const SensorModel& sensors);

// The same CSV form with other columns (e.g. targets named by joint): `unknown` completes the
// message for a column not in `columns` ("<file>: line 1, column 'x': " + unknown).
MeasurementLog parse_columns(const std::string& text, const std::string& name,
                             const std::vector<std::string>& columns, const std::string& unknown);
MeasurementLog read_columns(const std::string& path, const std::vector<std::string>& columns,
                            const std::string& unknown);

// Writes the header, then one row per call, numbers in shortest round-trip form.
class MeasurementWriter {
 public:
  MeasurementWriter(std::ostream& out, const SensorModel& sensors);
  void row(double t, const VecX& values);

 private:
  std::ostream& out_;
  std::string line_;
};

}  // namespace articula
