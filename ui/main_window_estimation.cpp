// MainWindow's part of estimation from a sensor log (issue 20): the Estimation and
// Identification docks beside the plots, File > Import Sensor Log… and the docks' messages in
// the Diagnostics dock; and the Report dock (the design report, issue 17) beside them.
#include <QAction>
#include <QFileDialog>
#include <QFileInfo>

#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/estimation_dock.hpp"
#include "ui/identification_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/plot_dock.hpp"
#include "ui/report_dock.hpp"

namespace articula {

using Severity = DiagnosticsDock::Severity;

void MainWindow::createEstimationDock() {
  estimation_ = new EstimationDock(document_, this);
  addDockWidget(Qt::BottomDockWidgetArea, estimation_);
  tabifyDockWidget(plots_, estimation_);
  identification_ = new IdentificationDock(document_, estimation_, this);
  tabifyDockWidget(estimation_, identification_);
  // Out of the layout until a log is imported (View menu or the import show them).
  estimation_->hide();
  identification_->hide();
  plots_->raise();
  const auto info = [this](const QString& m) { diagnostics_->addMessage(Severity::Info, m); };
  const auto problem = [this](const QString& m) {
    diagnostics_->addMessage(Severity::Error, m);
    showError(tr("Estimation"), m);
  };
  connect(estimation_, &EstimationDock::info, this, info);
  connect(estimation_, &EstimationDock::problem, this, problem);
  connect(identification_, &IdentificationDock::info, this, info);
  connect(identification_, &IdentificationDock::problem, this, problem);
}

void MainWindow::createReportDock() {
  report_ = new ReportDock(document_, this);
  addDockWidget(Qt::BottomDockWidgetArea, report_);
  tabifyDockWidget(plots_, report_);
  report_->hide();  // out of the layout until asked for (View menu, Simulation > Run Design Report)
  plots_->raise();
  // The menu's action shows the dock before it runs (the dock's own button only runs).
  connect(report_->runAction(), &QAction::triggered, this, [this] {
    report_->show();
    report_->raise();
    // Room for the drives' table, the apparent mass and the two plots.
    if (report_->height() < height() * 2 / 5)
      resizeDocks({report_}, {height() * 2 / 5}, Qt::Vertical);
  });
  connect(report_, &ReportDock::info, this,
          [this](const QString& m) { diagnostics_->addMessage(Severity::Info, m); });
  connect(report_, &ReportDock::problem, this, [this](const QString& m) {
    diagnostics_->addMessage(Severity::Error, m);
    showError(tr("Design report"), m);
  });
}

bool MainWindow::importSensorLog(const QString& path) {
  if (!estimation_->importLog(path)) {
    last_error_ = estimation_->error();
    diagnostics_->addMessage(Severity::Error, tr("Cannot import sensor log: %1").arg(last_error_));
    showError(tr("Cannot import sensor log"), last_error_);
    return false;
  }
  identification_->show();
  estimation_->show();
  estimation_->raise();
  // Room for a row of charts under the dock's two rows of controls.
  if (estimation_->height() < height() * 2 / 5)
    resizeDocks({estimation_}, {height() * 2 / 5}, Qt::Vertical);
  return true;
}

void MainWindow::importSensorLogInteractive() {
  const QString dir = QFileInfo(document_->path()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Import sensor log"),
                                                    document_->path().isEmpty() ? QString() : dir,
                                                    tr("Sensor logs (*.csv);;All files (*)"));
  if (!path.isEmpty()) importSensorLog(path);
}

}  // namespace articula
