#pragma once
// The Identification dock (issue 20 in the app): numbers of the project named by JSON pointer
// (as `articula-cli identify --param`), identified together with the motion from the sensor log
// of the Estimation dock and any further logs added here (as `identify FILE A.csv B.csv`: the
// parameters shared, each log its own motion, σ from all of them together), with the
// Estimation dock's options, off the GUI thread (EstimationRun); the table shows each number in
// the project, identified, and its σ. Apply writes the identified values into the project as
// one undo step. A change to the project drops the identified column and reads the added logs
// again against it (one that no longer fits is dropped, said in the Diagnostics dock).
#include <QDockWidget>
#include <QString>
#include <QStringList>
#include <memory>
#include <string>
#include <vector>

#include "core/estimation/measurement_log.hpp"

class QAction;
class QLabel;
class QListWidget;
class QTableWidget;

namespace articula {

class Document;
class EstimationDock;
class EstimationRun;

class IdentificationDock : public QDockWidget {
  Q_OBJECT

 public:
  IdentificationDock(Document* document, EstimationDock* estimation, QWidget* parent = nullptr);
  ~IdentificationDock() override;

  void setParameters(const QStringList& pointers);  // the table's rows
  QStringList parameters() const;
  void identify();  // with the Estimation dock's log and options; nothing while running
  // The identified values into the project as one undo step; false (and error()) when they
  // cannot be applied (e.g. an invalid value).
  bool apply();
  // A further log of the same mechanism (the Estimation dock's is always the first). False, with
  // error() (the reader's file, line and column), when it cannot be read against the project.
  bool addLog(const QString& path);
  void removeLog(int index);  // of the added logs, 0 the first added
  int logCount() const;       // the Estimation dock's (when it has one) and the added ones
  QListWidget* logList() const { return logs_; }
  bool isRunning() const { return run_ != nullptr; }
  bool hasResult() const { return !values_.empty(); }
  const std::vector<double>& values() const { return values_; }
  const std::vector<double>& sigmas() const { return sigmas_; }
  const QString& error() const { return error_; }
  QTableWidget* table() const { return table_; }
  QAction* identifyAction() const { return identify_action_; }
  QAction* applyAction() const { return apply_action_; }

 signals:
  void info(const QString& text);
  void problem(const QString& text);
  void identifyFinished(bool ok);

 private:
  void onFinished();
  void onProjectChanged();
  void showValues();  // the project's numbers in the table
  void clearResult();
  void updateActions();
  QWidget* makeLogs();
  void showLogs();  // the list: the imported log (Estimation dock's), then the added ones
  void readLogsAgain();

  struct AddedLog {
    QString name;      // its file name, in the list and messages
    std::string text;  // kept to read again when the project changes
    MeasurementLog log;
  };

  Document* document_;
  EstimationDock* estimation_;
  std::vector<AddedLog> added_;
  QListWidget* logs_;
  QAction* add_log_action_;
  QAction* remove_log_action_;
  EstimationRun* run_ = nullptr;
  std::vector<double> values_, sigmas_;
  QString error_;
  QTableWidget* table_;
  QLabel* status_;
  QAction* identify_action_;
  QAction* apply_action_;
  QAction* add_action_;
  QAction* remove_action_;
};

}  // namespace articula
