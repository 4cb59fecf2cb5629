#pragma once
// The Estimation dock (issue 20 in the app): a sensor log imported against the open project
// (File > Import Sensor Log…, articula --sensor-log), Simulation > Estimate running the core
// smoother off the GUI thread (EstimationRun) with its progress and a Cancel, and the result as
// charts: per sensor column the measured samples against the estimate with its ±2σ band, and
// each unknown drive force with its band. A change to the project drops the result (it belongs
// to the old mechanism) and reads the log again against the new one.
#include <QDockWidget>
#include <QString>
#include <memory>
#include <string>
#include <vector>

#include "core/estimation/measurement_log.hpp"

class QAction;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QSpinBox;
class QTimer;

namespace articula {

class Document;
class EstimationRun;
struct EstimateResult;
struct EstimatorOptions;

class EstimationDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit EstimationDock(Document* document, QWidget* parent = nullptr);
  ~EstimationDock() override;

  // Reads the log against the open project's sensors. On failure the previous log stays and
  // error() says why (the reader's file, line and column).
  bool importLog(const QString& path);
  const QString& error() const { return error_; }
  bool hasLog() const { return log_ != nullptr; }
  int logRows() const;

  void estimate();  // starts an estimate of the loaded log (nothing without one or while running)
  void cancel();
  bool isRunning() const { return run_ != nullptr; }
  const EstimateResult* result() const { return result_.get(); }
  const std::vector<QChartView*>& charts() const { return charts_; }
  QAction* estimateAction() const { return estimate_action_; }
  QAction* cancelAction() const { return cancel_action_; }
  // The loaded log (null without one) and the dock's estimator options (the Identification dock
  // uses both).
  const MeasurementLog* log() const { return log_.get(); }
  const QString& logName() const { return log_name_; }  // the imported file's name
  EstimatorOptions options() const;
  // `text` read as a log of the open project's sensors (named `name` in messages), or null with
  // the reason in `error` (the reader's file, line and column; a project without sensors or
  // that the estimator cannot handle). The Identification dock reads its further logs so.
  std::unique_ptr<MeasurementLog> read(const std::string& text, const QString& name,
                                       QString& error) const;
  // The options the next estimate uses (window 0: batch); tests and the CLI's defaults.
  void setWindow(int rows);
  void setNoise(double accel_sigma, double force_sigma);

 signals:
  void info(const QString& text);     // for the Diagnostics dock
  void problem(const QString& text);  // a log dropped, an estimate that failed
  void estimateFinished(bool ok);
  void logChanged();  // imported, or dropped because it no longer fits the project

 private:
  QWidget* makeHeader();
  QWidget* makeOptions();
  bool parse(const std::string& text, const QString& name, QString& error);
  void onProjectChanged();
  void onFinished();
  void showProgress();
  void clearResult();
  void showResult();
  void updateActions();

  Document* document_;
  std::unique_ptr<MeasurementLog> log_;
  std::string log_text_;  // kept to read again when the project changes
  QString log_name_;
  QString error_;
  EstimationRun* run_ = nullptr;
  std::unique_ptr<EstimateResult> result_;
  std::vector<QChartView*> charts_;
  QAction* estimate_action_;
  QAction* cancel_action_;
  QLabel* log_label_ = nullptr;
  QLabel* status_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QComboBox* method_ = nullptr;
  QSpinBox* window_ = nullptr;
  QDoubleSpinBox* accel_ = nullptr;
  QDoubleSpinBox* force_ = nullptr;
  QComboBox* loss_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QLabel* key_ = nullptr;  // what the charts' dots, line and band are (shown with results)
  QTimer* poll_;
};

}  // namespace articula
