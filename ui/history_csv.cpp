#include "ui/history_csv.hpp"

#include <QSaveFile>

#include "core/sim/runner.hpp"
#include "core/sim/snapshot_history.hpp"

namespace articula {

namespace {

void appendRow(const Snapshot& s, std::string& line) {
  line += format_number(s.t);
  auto put = [&](double x) {
    line += ',';
    line += format_number(x);
  };
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const Simulation::JointState& js = s.joints[j];
    const auto put_all = [&](const auto& x) {
      for (int k = 0; k < x.size(); ++k) put(x[k]);
    };
    put_all(js.q);
    put_all(js.qd);
    put_all(js.qdd);
    put_all(js.tau);
    for (int k : {3, 4, 5, 0, 1, 2}) put(s.wrench[j][k]);  // force, then moment
  }
  put(s.loop_error);  // then the columns csv_header lists after it
  for (double x :
       {s.kinetic_energy, s.potential_energy, s.work, s.dissipated, s.energy_residual, s.power})
    put(x);
  for (double x : s.coupling_tau) put(x);
  line += '\n';
}

}  // namespace

bool writeHistoryCsv(const SnapshotHistory& history, const Mechanism& mech, const QString& path,
                     QString* error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = file.errorString();
    return false;
  }
  std::string text;
  const std::vector<std::string> cols = csv_header(mech);
  for (std::size_t c = 0; c < cols.size(); ++c) text += (c ? "," : "") + cols[c];
  text += '\n';
  history.forEach([&](const Snapshot& s) {
    appendRow(s, text);
    if (text.size() > (1u << 20)) {
      file.write(text.data(), static_cast<qint64>(text.size()));
      text.clear();
    }
  });
  file.write(text.data(), static_cast<qint64>(text.size()));
  if (!file.commit()) {
    if (error) *error = file.errorString();
    return false;
  }
  return true;
}

}  // namespace articula
