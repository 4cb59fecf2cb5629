#pragma once
// One estimate of the app's Simulation > Estimate (issue 20), off the GUI thread: the core
// smoother (smooth_batch or smooth_fixed_lag, as articula-cli estimate calls them) over the
// imported log, then what the estimation dock plots, per sensor column and per unknown drive:
// the estimate at the log's rows with its posterior standard deviation. The GUI reads only the
// finished EstimateResult and two progress counters; it never touches the solver's objects.
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/estimation/measurement_log.hpp"
#include "core/estimation/smoother.hpp"

class QThread;

namespace articula {

struct Mechanism;

// One plotted quantity at the log's rows (all vectors the log's row count long).
struct EstimateSeries {
  QString name;                  // the CSV column ("enc", "gyro[2]") or "<joint>.tau"
  QString unit;                  // SI unit of the values ("rad", "N", ...)
  std::vector<double> t;         // row times (s)
  std::vector<double> measured;  // the log's cell, NaN where missing (empty for drives)
  std::vector<double> estimate;  // sensor model at the estimate, or the estimated force
  std::vector<double> sigma;     // its posterior σ (first-order through the sensor model)
};

struct EstimateResult {
  std::vector<EstimateSeries> sensors;  // SensorModel column order
  std::vector<EstimateSeries> drives;   // unknown drive forces, StateSpace::unknown_joints order
  int iterations = 0;                   // Gauss-Newton iterations (summed over rows: fixed-lag)
  double cost = 0.0;                    // ½ Σ ρ(r²) at the solution
  double seconds = 0.0;                 // wall time of the solve and the post-processing
  // Identify only: the parameters (EstimationRun's pointers, in order) and their σ.
  std::vector<double> parameters, parameter_sigma;
};

// The sensors and unknown drives of `est` (solved in `space`) as plotted series, σ of a sensor
// value by central differences of the sensor model over the knot's (x, u) and its covariance.
EstimateResult estimate_series(StateSpace& space, const MeasurementLog& log,
                               const SmoothedMotion& est);

// Runs one estimate on its own thread; finished() comes on the GUI thread. Deleting a running
// run asks the solver to stop and waits for it.
class EstimationRun : public QObject {
  Q_OBJECT

 public:
  // window 0: batch; else the fixed-lag smoother over that many rows. With `parameters` (JSON
  // pointers into the project), identify them with the motion instead (batch; window ignored).
  EstimationRun(std::shared_ptr<const Mechanism> mech, MeasurementLog log, EstimatorOptions opt,
                int window, QObject* parent = nullptr, std::vector<std::string> parameters = {});
  ~EstimationRun() override;
  // Identify only: further logs of the same mechanism, identified together with the first
  // (the parameters shared, each log its own motion: articula-cli identify FILE A.csv B.csv).
  // The result's series are the first log's. Before start().
  void setMoreLogs(std::vector<MeasurementLog> logs) { more_logs_ = std::move(logs); }
  void start();
  void cancel() { cancel_ = true; }  // the solver stops at its next iteration
  bool isRunning() const;
  int iterations() const { return iterations_; }
  double rowsDone() const { return rows_done_; }  // fraction of the log taken in (0..1)
  // After finished(): the result, or the error (empty on success; "cancelled" when cancelled).
  const EstimateResult& result() const { return result_; }
  const QString& error() const { return error_; }
  bool cancelled() const { return was_cancelled_; }

 signals:
  void finished();

 private:
  void work();  // on the run's thread

  std::shared_ptr<const Mechanism> mech_;
  MeasurementLog log_;
  EstimatorOptions opt_;
  int window_;
  std::vector<std::string> parameters_;
  std::vector<MeasurementLog> more_logs_;
  QThread* thread_ = nullptr;
  std::atomic<bool> cancel_{false};
  std::atomic<int> iterations_{0};
  std::atomic<double> rows_done_{0.0};
  EstimateResult result_;  // written by the thread, read after finished()
  QString error_;
  bool was_cancelled_ = false;
};

}  // namespace articula
