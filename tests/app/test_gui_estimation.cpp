// Estimation from a sensor log in the app (issue 20, item 4): File > Import Sensor Log with a
// good log and bad ones (the reader's line and column in the error and the Diagnostics dock, the
// previous log kept), Simulation > Estimate on its own thread finishing with finite charts whose
// estimate follows the truth, Cancel, the result dropped when the project changes, and Identify
// with Apply as one undo step. Truth: the
// four-bar simulated by Articula with seeded sensor noise (what simulate --sensors-out writes),
// estimated back with the crank torque declared unknown, as the CLI estimate test does. Under
// Xvfb; built only as its own target (ARTICULA_GUI_ESTIMATION_TEST).
#ifdef ARTICULA_GUI_ESTIMATION_TEST
#define CATCH_CONFIG_RUNNER
#include <QAction>
#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QListWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/estimation/measurement_log.hpp"
#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"
#include "core/sim/runner.hpp"
#include "core/sim/simulation.hpp"
#include "tests/app/gui_wait.hpp"
#include "tests/support/constants.hpp"
#include "ui/application.hpp"
#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/estimation_dock.hpp"
#include "ui/estimation_run.hpp"
#include "ui/identification_dock.hpp"
#include "ui/main_window.hpp"

using namespace articula;
using gui_test::waitFor;
using nlohmann::json;

namespace {

constexpr int kB0 = 3;  // the rocker's joint in samples/fourbar.json

// The four-bar with an encoder on the rocker, a load cell in the coupler's joint A and a gyro on
// the coupler (the CLI estimate test's sensors).
json fourbarWithSensors() {
  std::ifstream in(ARTICULA_SOURCE_DIR "/samples/fourbar.json");
  json doc = json::parse(in);
  doc["sensors"] = {{{"name", "enc"}, {"type", "encoder"}, {"joint", "B0"}, {"sigma", 1e-3}},
                    {{"name", "cell"},
                     {"type", "load_cell"},
                     {"joint", "A"},
                     {"component", "Fy"},
                     {"sigma", 0.05}},
                    {{"name", "gyro"}, {"type", "gyro"}, {"body", "coupler"}, {"sigma", 1e-2}}};
  return doc;
}

struct Fixture {
  QTemporaryDir dir;
  QString truth_file, est_file, log_file;
  std::vector<double> truth_b0;  // the rocker angle at every log row
  MainWindow w;

  QString write(const QString& name, const std::string& text) {
    const QString path = dir.filePath(name);
    std::ofstream(path.toStdString()) << text;
    return path;
  }

  // 0.2 s at 250 Hz (51 rows) of the truth's sensors with noise of their σ from `seed`, written
  // to `name`; its path.
  QString simulateLog(const QString& name = "meas.csv", unsigned seed = 4) {
    truth_b0.clear();
    const Mechanism truth = prepare_project(load_project(truth_file.toStdString()).spec);
    SensorModel model(truth);
    SensorNoise noise(model.sigma(), seed);
    std::ostringstream csv;
    MeasurementWriter writer(csv, model);
    RunOptions opt;
    opt.duration = 0.2;
    opt.sample = 0.004;
    opt.observe = [&](const Simulation& sim) {
      VecX v;
      model.read(sim, v);
      noise.add(v);
      writer.row(sim.time(), v);
      truth_b0.push_back(sim.joint_states()[kB0].q[0]);
    };
    RowSink sink;
    sink.row = [](const Simulation&, const std::vector<double>&) {};
    run_rows(truth, opt, sink);
    return write(name, csv.str());
  }

  Fixture() {
    REQUIRE(dir.isValid());
    json truth = fourbarWithSensors();
    truth_file = write("truth.json", truth.dump(2));
    log_file = simulateLog();
    json est = truth;  // the crank's torque is what the estimate recovers
    est["joints"][0]["drive"] = {{"type", "unknown"}};
    est["joints"][0]["qd0"] = {2 * kPi};
    est_file = write("est.json", est.dump(2));
    w.setInteractive(false);
    w.resize(1400, 900);
    w.show();
    REQUIRE(waitFor([&] { return w.isVisible(); }, 5000));
    REQUIRE(w.openFile(est_file));
  }

  EstimationDock* dock() const { return w.estimationDock(); }
  bool diagnosticsMention(const QString& text) const {
    for (int i = 0; i < w.diagnostics()->messageCount(); ++i)
      if (w.diagnostics()->messageText(i).contains(text)) return true;
    return false;
  }
  // Estimate with the CLI test's options, waiting up to 2 minutes.
  bool estimate() {
    dock()->setNoise(0.01, 0.05);
    w.findChild<QAction*>("action_estimate")->trigger();
    REQUIRE(dock()->isRunning());
    return waitFor([&] { return !dock()->isRunning(); }, 120000);
  }
};

}  // namespace

TEST_CASE("Import Sensor Log: good log, bad logs named by line and column", "[estimation-import]") {
  Fixture f;
  QAction* estimate = f.w.findChild<QAction*>("action_estimate");
  REQUIRE(estimate);
  CHECK_FALSE(estimate->isEnabled());  // nothing to estimate from yet
  REQUIRE(f.w.importSensorLog(f.log_file));
  CHECK(f.dock()->logRows() == 51);
  CHECK(estimate->isEnabled());
  CHECK(f.diagnosticsMention("Imported sensor log"));
  // Each bad log is refused with the reader's line and column; the good log stays loaded.
  const std::pair<const char*, const char*> bad[] = {
      {"t,enc,lidar\n0,1,2\n", "line 1, column 'lidar'"},
      {"t,enc\n0,1\n0.2,1\n0.1,1\n", "line 4, column 't'"},
      {"t,enc\n0,1\n0.1,nan\n", "line 3, column 'enc'"},
  };
  for (const auto& [text, where] : bad) {
    INFO(text);
    CHECK_FALSE(f.w.importSensorLog(f.write("bad.csv", text)));
    CHECK(f.w.lastError().contains(where));
    CHECK(f.diagnosticsMention(where));
    CHECK(f.dock()->logRows() == 51);
  }
  CHECK_FALSE(f.w.importSensorLog(f.dir.filePath("missing.csv")));
  CHECK(f.w.lastError().contains("cannot read"));
  // A project without sensors cannot take a log at all.
  REQUIRE(f.w.openFile(ARTICULA_SOURCE_DIR "/samples/fourbar.json"));
  CHECK_FALSE(f.dock()->hasLog());  // dropped: it no longer fits the project
  CHECK(f.diagnosticsMention("no longer fits"));
  CHECK_FALSE(f.w.importSensorLog(f.log_file));
  CHECK(f.w.lastError().contains("/sensors"));
  CHECK_FALSE(estimate->isEnabled());
}

TEST_CASE("Estimate: finite charts following the truth, cancel, stale results dropped",
          "[estimation-run]") {
  Fixture f;
  REQUIRE(f.w.importSensorLog(f.log_file));
  REQUIRE(f.estimate());
  const EstimateResult* r = f.dock()->result();
  REQUIRE(r);
  REQUIRE(r->sensors.size() == 5);  // enc, cell, gyro[0..2]
  REQUIRE(r->drives.size() == 1);   // A0.tau
  CHECK(f.dock()->charts().size() == 6);
  // One key above the charts instead of a legend in each (three to a row, those were elided).
  auto* key = f.dock()->findChild<QLabel*>("estimate_key");
  REQUIRE(key);
  CHECK(key->isVisible());
  CHECK(key->text().contains("measured"));
  for (QChartView* view : f.dock()->charts()) CHECK_FALSE(view->chart()->legend()->isVisible());
  // The encoder's estimate against the simulated truth: within 4 posterior σ at every row (a
  // Gaussian leaves 4σ with probability 6e-5; 51 rows), and σ no larger than the encoder's
  // (the estimate combines it with the dynamics and the other sensors).
  const EstimateSeries& enc = r->sensors[0];
  REQUIRE(enc.name == "enc");
  REQUIRE(enc.t.size() == f.truth_b0.size());
  for (std::size_t k = 0; k < enc.t.size(); ++k) {
    INFO("row " << k);
    CHECK(std::abs(enc.estimate[k] - f.truth_b0[k]) < 4 * enc.sigma[k]);
    CHECK(enc.sigma[k] < 1.5e-3);
  }
  // Every drawn point finite: bands (area series) and lines alike.
  for (QChartView* view : f.dock()->charts())
    for (QAbstractSeries* s : view->chart()->series()) {
      std::vector<QXYSeries*> lines;
      if (auto* area = qobject_cast<QAreaSeries*>(s))
        lines = {area->upperSeries(), area->lowerSeries()};
      else if (auto* xy = qobject_cast<QXYSeries*>(s))
        lines = {xy};
      for (QXYSeries* l : lines) {
        REQUIRE(l->count() > 0);
        for (const QPointF& p : l->points()) CHECK((std::isfinite(p.x()) && std::isfinite(p.y())));
      }
    }
  // The fixed-lag smoother over 20 rows: the same check (its rows are smoothed over the window).
  f.dock()->setWindow(20);
  REQUIRE(f.estimate());
  REQUIRE(f.dock()->result());
  const EstimateSeries& lag = f.dock()->result()->sensors[0];
  for (std::size_t k = 0; k < lag.t.size(); ++k) {
    INFO("fixed-lag row " << k);
    CHECK(std::abs(lag.estimate[k] - f.truth_b0[k]) < 4 * lag.sigma[k]);
  }
  f.dock()->setWindow(0);
  // Cancel: the run stops at its next iteration and leaves no result.
  f.w.findChild<QAction*>("action_estimate")->trigger();
  REQUIRE(f.dock()->isRunning());
  f.w.findChild<QAction*>("action_cancel_estimate")->trigger();
  REQUIRE(waitFor([&] { return !f.dock()->isRunning(); }, 120000));
  CHECK(f.dock()->result() == nullptr);
  CHECK(f.dock()->charts().empty());
  // A change of the project drops the result; the log is read again and stays.
  REQUIRE(f.estimate());
  REQUIRE(f.dock()->result());
  REQUIRE(f.w.openFile(f.est_file));
  CHECK(f.dock()->result() == nullptr);
  CHECK(f.dock()->charts().empty());
  CHECK_FALSE(key->isVisible());
  CHECK(f.dock()->hasLog());
}

TEST_CASE("Identify: the coupler's mass from the log, applied as one undo step",
          "[estimation-identify]") {
  // The file's coupler mass 50 % high; the log is the truth's. Identified with the motion (the
  // CLI identify's problem) from the Estimation dock's log and options.
  Fixture f;
  std::ifstream in(f.est_file.toStdString());
  json off = json::parse(in);
  const double truth = off["bodies"][1]["mass"].get<double>();
  off["bodies"][1]["mass"] = 1.5 * truth;
  REQUIRE(f.w.openFile(f.write("off.json", off.dump(2))));
  REQUIRE(f.w.importSensorLog(f.log_file));
  IdentificationDock* id = f.w.identificationDock();
  id->setParameters({"/bodies/1/mass"});
  CHECK(id->table()->item(0, 1)->text() == QString::number(1.5 * truth, 'g', 6));
  f.dock()->setNoise(0.01, 0.05);
  f.w.findChild<QAction*>("action_identify")->trigger();
  REQUIRE(id->isRunning());
  REQUIRE(waitFor([&] { return !id->isRunning(); }, 120000));
  REQUIRE(id->hasResult());
  const double mass = id->values()[0], sigma = id->sigmas()[0];
  INFO("identified " << mass << " ± " << sigma << ", truth " << truth);
  CHECK(id->table()->item(0, 2)->text() == QString::number(mass, 'g', 6));
  // Within 3σ of the truth (a Gaussian leaves it with probability 0.3 %) and within 5 % of it
  // from 50 % off; σ below 5 % of the mass (the log does inform it).
  CHECK(std::abs(mass - truth) < 3 * sigma);
  CHECK(std::abs(mass - truth) < 0.05 * truth);
  CHECK(sigma < 0.05 * truth);
  // Apply: one undo step that sets the mass; undo restores the file's value.
  QUndoStack* undo = f.w.document()->undoStack();
  const int steps = undo->count();
  REQUIRE(f.w.findChild<QAction*>("action_apply_identified")->isEnabled());
  REQUIRE(id->apply());
  CHECK(undo->count() == steps + 1);
  CHECK(f.w.document()->spec().bodies[1].mass == mass);
  CHECK(id->table()->item(0, 1)->text() == QString::number(mass, 'g', 6));
  undo->undo();
  CHECK(f.w.document()->spec().bodies[1].mass == 1.5 * truth);
  // A pointer to nothing fails with its name in the Diagnostics dock.
  id->setParameters({"/bodies/9/mass"});
  id->identify();
  REQUIRE(waitFor([&] { return !id->isRunning(); }, 120000));
  CHECK_FALSE(id->hasResult());
  CHECK(f.diagnosticsMention("/bodies/9/mass"));
}

TEST_CASE("Identify from several logs: σ from all of them together", "[estimation-identify-logs]") {
  // The coupler's mass 50 % high in the file, as above; a second log of the truth with its own
  // noise (seed 5) added in the Identification dock. Identified from both, the mass's
  // information (1/σ²) is the sum of the two logs' (each identified alone) as the CLI's
  // identify A.csv B.csv has it, and the mass is within 3σ of the truth.
  Fixture f;
  std::ifstream in(f.est_file.toStdString());
  json off = json::parse(in);
  const double truth = off["bodies"][1]["mass"].get<double>();
  off["bodies"][1]["mass"] = 1.5 * truth;
  REQUIRE(f.w.openFile(f.write("off.json", off.dump(2))));
  const QString second = f.simulateLog("meas_b.csv", 5);
  REQUIRE(f.w.importSensorLog(f.log_file));
  f.dock()->setNoise(0.01, 0.05);
  IdentificationDock* id = f.w.identificationDock();
  id->setParameters({"/bodies/1/mass"});
  const auto identified = [&] {
    id->identify();
    REQUIRE(id->isRunning());
    REQUIRE(waitFor([&] { return !id->isRunning(); }, 120000));
    REQUIRE(id->hasResult());
    return std::pair{id->values()[0], id->sigmas()[0]};
  };
  const auto [mass_a, sigma_a] = identified();
  CHECK(id->logCount() == 1);
  // A log that does not fit is refused with the reader's column, and nothing is added.
  CHECK_FALSE(id->addLog(f.write("bad.csv", "t,nosuch\n0,0\n")));
  CHECK(id->error().contains("nosuch"));
  CHECK(id->logCount() == 1);
  REQUIRE(id->addLog(second));
  CHECK(id->logCount() == 2);
  REQUIRE(id->logList()->count() == 2);
  CHECK(id->logList()->item(1)->text().contains("meas_b.csv"));
  // The first row says which log it is (the imported one, by its file name) and the buttons
  // say what they add and remove: the parameter table's and the logs' differ.
  CHECK(id->logList()->item(0)->text().contains(QFileInfo(f.log_file).fileName()));
  CHECK(id->logList()->item(0)->text().contains("imported sensor log"));
  CHECK(f.w.findChild<QAction*>("action_add_identification_log")->text() == "Add Another Log…");
  CHECK(f.w.findChild<QAction*>("action_remove_identification_log")->text() ==
        "Remove Selected Log");
  CHECK(f.w.findChild<QAction*>("action_add_identified_parameter")->text() == "Add Parameter");
  CHECK(
      f.w.findChild<QLabel*>("identification_logs_heading")->text().startsWith("Logs identified"));
  id->logList()->setCurrentRow(0);  // the Estimation dock's log is not removed here
  CHECK_FALSE(f.w.findChild<QAction*>("action_remove_identification_log")->isEnabled());
  id->logList()->setCurrentRow(1);
  CHECK(f.w.findChild<QAction*>("action_remove_identification_log")->isEnabled());
  const auto [mass_ab, sigma_ab] = identified();
  if (const QString dir = qEnvironmentVariable("ARTICULA_TEST_SHOTS"); !dir.isEmpty()) {
    id->show();
    id->raise();
    gui_test::settle(300);
    f.w.grab().save(QDir(dir).filePath("identification_two_logs.png"));  // to look at
  }
  // The second log alone: removed here, imported into the Estimation dock instead.
  id->removeLog(0);
  CHECK(id->logCount() == 1);
  REQUIRE(f.w.importSensorLog(second));
  const auto [mass_b, sigma_b] = identified();
  const double info_sum = 1 / (sigma_a * sigma_a) + 1 / (sigma_b * sigma_b);
  INFO("mass " << mass_a << " ± " << sigma_a << " (A), " << mass_b << " ± " << sigma_b << " (B), "
               << mass_ab << " ± " << sigma_ab << " (both); truth " << truth);
  // The logs' information adds (the CLI test: to 1e-3 with the same motion from another start;
  // here each log is linearised at its own estimate, a few per cent apart at most).
  CHECK(std::abs(1 / (sigma_ab * sigma_ab) / info_sum - 1) < 0.05);
  CHECK(sigma_ab < 0.8 * std::min(sigma_a, sigma_b));  // both logs inform it: about 1/√2
  CHECK(std::abs(mass_ab - truth) < 3 * sigma_ab);
}

int main(int argc, char** argv) {
  prepareApplication();
  QApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
#endif
