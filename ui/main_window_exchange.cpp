// MainWindow's File > Import…, Export… and Export Video…: exchange formats (interchange/) and
// video (video/), each present when its libraries were found at build time.
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <stdexcept>

#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/main_window.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/viewport_panel.hpp"
#ifdef ARTICULA_HAVE_INTERCHANGE
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "interchange/convert.hpp"
#include "interchange/xml_text.hpp"
#endif
#ifdef ARTICULA_HAVE_VIDEO
#include "ui/video_export.hpp"
#endif

namespace articula {

using Severity = DiagnosticsDock::Severity;

void MainWindow::createExchangeActions(QMenu* file) {
#ifdef ARTICULA_HAVE_INTERCHANGE
  file->addSeparator();
  file->addAction(tr("&Import URDF / SDFormat…"), this, &MainWindow::importInteractive)
      ->setObjectName("action_import");
  file->addAction(tr("E&xport to URDF / SDFormat / MJCF…"), this, &MainWindow::exportInteractive)
      ->setObjectName("action_export");
#endif
#ifdef ARTICULA_HAVE_VIDEO
  file->addAction(tr("Export &Video…"), this, &MainWindow::exportVideoInteractive)
      ->setObjectName("action_export_video");
#endif
  (void)file;
}

#ifdef ARTICULA_HAVE_INTERCHANGE
namespace {
// Runs an import or an export: its warnings and then `done` go to the diagnostics dock; false
// with the exception's message in `error` when it throws (the document is then unchanged).
template <class Action>
bool run_exchange(DiagnosticsDock* dock, QString& error, const QString& done, Action action) {
  try {
    for (const std::string& w : action())
      dock->addMessage(Severity::Warning, QString::fromStdString(w));
    dock->addMessage(Severity::Info, done);
    error.clear();
    return true;
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
    return false;
  }
}
}  // namespace
#endif

bool MainWindow::importFile(const QString& path) {
#ifdef ARTICULA_HAVE_INTERCHANGE
  return run_exchange(diagnostics_, last_error_, tr("Imported %1").arg(path), [&] {
    const Imported in = import_mechanism(path.toStdString());
    if (!document_->adoptUntitled(in.spec))
      throw std::runtime_error(document_->error().toStdString());
    return in.warnings;
  });
#else
  last_error_ = tr("this build has no URDF/SDFormat support (liburdfdom-dev, libsdformat-dev)");
  (void)path;
  return false;
#endif
}

bool MainWindow::exportFile(const QString& path) {
#ifdef ARTICULA_HAVE_INTERCHANGE
  return run_exchange(diagnostics_, last_error_, tr("Exported %1").arg(path),
                      [&] { return export_mechanism(document_->spec(), path.toStdString()); });
#else
  last_error_ = tr("this build has no URDF/SDFormat/MJCF support");
  (void)path;
  return false;
#endif
}

void MainWindow::importInteractive() {
  if (!maybeSave()) return;
  const QString path = QFileDialog::getOpenFileName(this, tr("Import mechanism"), QString(),
                                                    tr("URDF or SDFormat (*.urdf *.sdf *.world)"));
  if (!path.isEmpty() && !importFile(path)) showError(tr("Import failed"), last_error_);
}

void MainWindow::exportInteractive() {
  const QString base = QFileInfo(document_->path()).completeBaseName();
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export mechanism"), base,
      tr("SDFormat, loops kept (*.sdf);;URDF, trees only (*.urdf);;MuJoCo MJCF (*.xml)"));
  if (!path.isEmpty() && !exportFile(path)) showError(tr("Export failed"), last_error_);
}

void MainWindow::exportVideoInteractive() {
#ifdef ARTICULA_HAVE_VIDEO
  VideoSettings s;
  s.duration = controller_->recordedTime();
  if (!(s.duration > 0)) {
    showError(tr("Export Video"), tr("Nothing recorded yet: play the simulation first; the video "
                                     "shows the recorded motion."));
    return;
  }
  s.path = QFileDialog::getSaveFileName(
      this, tr("Export video"), QFileInfo(document_->path()).completeBaseName() + ".mp4",
      tr("H.264 video (*.mp4);;WebM video (*.webm);;GIF, small clips (*.gif)"));
  if (s.path.isEmpty()) return;
  controller_->pause();
  QProgressDialog progress(tr("Writing %1…").arg(QFileInfo(s.path).fileName()), tr("Cancel"), 0,
                           s.frameCount(), this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  const VideoResult r = exportVideo(*this, s, [&progress](int done, int) {
    progress.setValue(done);
    return !progress.wasCanceled();
  });
  if (!r.error.isEmpty()) return showError(tr("Export Video"), r.error);
  if (!r.cancelled)
    diagnostics_->addMessage(Severity::Info, tr("Wrote %1 (%2 frames, %3x%4)")
                                                 .arg(s.path)
                                                 .arg(r.frames)
                                                 .arg(r.size.width())
                                                 .arg(r.size.height()));
#endif
}

}  // namespace articula
