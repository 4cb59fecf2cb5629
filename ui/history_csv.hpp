#pragma once
// The recorded run as CSV, with the columns of `articula-cli simulate` (csv_header): t, then per
// joint q, qd, qdd, tau, Fx Fy Fz Mx My Mz, then loop_error; numbers in shortest round-trip form.
#include <QString>

namespace articula {

struct Mechanism;
class SnapshotHistory;

// Returns false and sets *error when the file cannot be written.
bool writeHistoryCsv(const SnapshotHistory& history, const Mechanism& mech, const QString& path,
                     QString* error);

}  // namespace articula
