#pragma once
// The Report dock (issue 17, item 5, in the app): the design report of contract-additions-2 §4 on
// the open project, computed off the GUI thread by the same core function `articula-cli report`
// calls (design_report, core/sim/design_report.hpp), over the file's run or a chosen duration.
// Shown: per drive the peak and RMS force, peak power, positive and negative work (a table); the
// reflected inertia at each drive and the transmission angle of four-bar-like loops over the run
// (two plots); the apparent mass of a chosen point on a body at t = 0 (3 x 3, world axes, kg).
// Point coordinates and angles are in the display units (Edit > Preferences); the report itself
// (result()) stays the CLI's JSON in SI. A change to the project drops the result.
#include <QDockWidget>
#include <QString>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/spatial/types.hpp"

class QAction;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace articula {

class Document;
struct ReportJob;

class ReportDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit ReportDock(Document* document, QWidget* parent = nullptr);
  ~ReportDock() override;  // a running report is cancelled and waited for

  // Simulated time of the report, s; 0: the file's duration (simulation.duration).
  void setDuration(double seconds);
  double duration() const;
  // The point whose apparent mass is reported: a user body's name ("" for none) and the point in
  // that body's frame, m (shown in the display length unit).
  void setPoint(const QString& body, const Vec3& point);
  // Starts the report on the current project (nothing while one runs); finished() follows.
  void run();
  bool isRunning() const { return job_ != nullptr; }
  // The last report as design_report returned it (null before a run or after a change), or why
  // it failed.
  const nlohmann::json& result() const { return result_; }
  const QString& error() const { return error_; }

  // Cells hold their value in SI under Qt::UserRole (the tests compare them with the CLI's JSON).
  QTableWidget* drivesTable() const { return drives_; }
  QTableWidget* massTable() const { return mass_; }
  QChartView* inertiaChart() const { return inertia_chart_; }
  QChartView* angleChart() const { return angle_chart_; }
  QAction* runAction() const { return run_action_; }

 signals:
  void info(const QString& text);
  void problem(const QString& text);
  void finished(bool ok);

 private:
  void onFinished();
  void onProjectChanged();
  void fillBodies();
  void show_result();  // the tables and plots from result_
  void fillDrives();
  void fillMass();
  void fillCharts();
  void clearResult();
  void dropJob();

  Document* document_;
  ReportJob* job_ = nullptr;
  nlohmann::json result_;
  QString error_;
  QAction* run_action_;
  QDoubleSpinBox* duration_;
  QComboBox* body_;
  QLineEdit* coords_;
  QLabel* status_;
  QLabel* mass_caption_;
  QTableWidget* drives_;
  QTableWidget* mass_;
  QChartView* inertia_chart_;
  QChartView* angle_chart_;
};

}  // namespace articula
