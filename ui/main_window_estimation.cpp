// MainWindow's part of estimation from a sensor log (issue 20): the Estimation dock beside the
// plots, File > Import Sensor Log… and the dock's messages in the Diagnostics dock.
#include <QFileDialog>
#include <QFileInfo>

#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/estimation_dock.hpp"
#include "ui/main_window.hpp"
#include "ui/plot_dock.hpp"

namespace articula {

using Severity = DiagnosticsDock::Severity;

void MainWindow::createEstimationDock() {
  estimation_ = new EstimationDock(document_, this);
  addDockWidget(Qt::BottomDockWidgetArea, estimation_);
  tabifyDockWidget(plots_, estimation_);
  plots_->raise();
  connect(estimation_, &EstimationDock::info, this,
          [this](const QString& m) { diagnostics_->addMessage(Severity::Info, m); });
  connect(estimation_, &EstimationDock::problem, this, [this](const QString& m) {
    diagnostics_->addMessage(Severity::Error, m);
    showError(tr("Estimation"), m);
  });
}

bool MainWindow::importSensorLog(const QString& path) {
  if (!estimation_->importLog(path)) {
    last_error_ = estimation_->error();
    diagnostics_->addMessage(Severity::Error, tr("Cannot import sensor log: %1").arg(last_error_));
    showError(tr("Cannot import sensor log"), last_error_);
    return false;
  }
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
