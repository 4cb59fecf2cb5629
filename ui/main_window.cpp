#include "ui/main_window.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot_history.hpp"
#include "ui/autosave.hpp"
#include "ui/central_views.hpp"
#include "ui/cursor_readout.hpp"
#include "ui/diagnostics_dock.hpp"
#include "ui/document.hpp"
#include "ui/estimation_dock.hpp"
#include "ui/history_csv.hpp"
#include "ui/icons.hpp"
#include "ui/identification_dock.hpp"
#include "ui/model_tree_dock.hpp"
#include "ui/plot_dock.hpp"
#include "ui/preferences_dialog.hpp"
#include "ui/properties_dock.hpp"
#include "ui/recent_files.hpp"
#include "ui/report_dock.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/simulation_tool_bar.hpp"
#include "ui/sketch_editor.hpp"
#include "ui/sketch_status_dock.hpp"
#include "ui/sketch_tool_bar.hpp"
#include "ui/template_dialog.hpp"
#include "ui/viewport_panel.hpp"
#include "ui/welcome_dialog.hpp"

namespace articula {

using Severity = DiagnosticsDock::Severity;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      document_(new Document(this)),
      controller_(new SimulationController(this)),
      viewport_(new ViewportPanel(this)),
      recent_(new RecentFiles(this)),
      autosave_(new Autosave(document_, this)) {
  setWindowIcon(themedIcon("articula"));
  // First, so that the controller holds the new mechanism before any dock rebuilds.
  connect(document_, &Document::edited, this, [this] { edit_pending_ = true; });
  connect(document_, &Document::documentChanged, this, &MainWindow::onDocumentChanged);
  connect(document_, &Document::namesChanged, this, &MainWindow::onNamesChanged);
  connect(document_, &Document::modifiedChanged, this, &MainWindow::updateTitle);
  connect(document_, &Document::pathChanged, this, &MainWindow::updateTitle);
  // The 3D view shows the simulated mechanism (the grounded part while links float): its
  // indices are mapped by name.
  connect(document_, &Document::selectionChanged, this,
          [this](const Selection& s) { viewport_->setSelection(document_->toSimulated(s)); });
  connect(viewport_, &ViewportPanel::picked, this, [this](int body, int joint) {
    document_->setSelection(document_->fromSimulated(body, joint));
  });
  viewport_->setDocument(document_);  // the 3D build tools edit it
  connect(controller_, &SimulationController::frameChanged, viewport_,
          &ViewportPanel::showSnapshot);
  // A trace shows the recorded run: reset (or resuming from a scrubbed instant) starts it anew.
  connect(controller_, &SimulationController::historyReset, viewport_, &ViewportPanel::clearTrace);
  connect(controller_, &SimulationController::snapshotsAdded, viewport_,
          &ViewportPanel::extendTrace);
  connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
  toolbar_ = new SimulationToolBar(controller_, this);
  addToolBar(toolbar_);
  addAction(toolbar_->toggleAction());
  createDocks();
  createMenus();
  createStatusBar();
  createSketch();
  setViewsMode(CentralViews::Mode::SideBySide);  // restoreLayout() applies the user's choice
  connect(controller_, &SimulationController::stateChanged, this, &MainWindow::onSimulationState);
  connect(controller_, &SimulationController::rateChanged, this, &MainWindow::onRate);
  connect(controller_, &SimulationController::message, this,
          [this](const QString& m) { diagnostics_->addMessage(Severity::Info, m); });
  connect(controller_, &SimulationController::warning, this,
          [this](const QString& m) { diagnostics_->addMessage(Severity::Warning, m); });
  connect(controller_, &SimulationController::failed, this, [this](const QString& m, double t) {
    diagnostics_->addMessage(Severity::Error,
                             tr("Simulation stopped at t = %1 s: %2").arg(t).arg(m));
    statusBar()->showMessage(tr("Simulation stopped: %1").arg(m));
  });
  setUnsavedChangesPrompt({});
  resize(1280, 800);
  document_->clear();
}

MainWindow::~MainWindow() {
  // Views that refer to the mechanism go first; the controller stops its thread in its destructor.
  viewport_->setMechanism(nullptr);
  plots_->setMechanism(nullptr);
}

void MainWindow::createDocks() {
  setDockNestingEnabled(true);
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  tree_ = new ModelTreeDock(document_, this);
  properties_ = new PropertiesDock(document_, controller_, this);
  diagnostics_ = new DiagnosticsDock(document_, this);
  plots_ = new PlotDock(controller_, this);
  addDockWidget(Qt::LeftDockWidgetArea, tree_);
  addDockWidget(Qt::LeftDockWidgetArea, properties_);
  tabifyDockWidget(properties_, diagnostics_);
  properties_->raise();
  addDockWidget(Qt::BottomDockWidgetArea, plots_);
  resizeDocks({tree_, properties_}, {300, 300}, Qt::Vertical);
  resizeDocks({tree_}, {290}, Qt::Horizontal);
  resizeDocks({plots_}, {300}, Qt::Vertical);
  createEstimationDock();
  createReportDock();
  connect(tree_, &ModelTreeDock::plotRequested, plots_, &PlotDock::plotChannel);
  connect(tree_, &ModelTreeDock::driveChangeRequested, this, &MainWindow::changeDrive);
}

void MainWindow::createSketch() {
  sketch_ = new SketchEditor(document_, this);
  central_ = new CentralViews(sketch_, viewport_, this);
  setCentralWidget(central_);
  // Planar mechanisms open with the sketch in front, spatial ones with the 3D view.
  connect(document_, &Document::projectReplaced, this, [this] {
    const auto mech = document_->simulated();
    central_->bringToFront(!mech || mech->planar ? CentralViews::View::Sketch
                                                 : CentralViews::View::ThreeD);
  });
  sketch_tools_ = new SketchToolBar(sketch_, this);
  addToolBarBreak();
  addToolBar(Qt::TopToolBarArea, sketch_tools_);
  sketch_status_ = new SketchStatusDock(document_, this);
  addDockWidget(Qt::LeftDockWidgetArea, sketch_status_);
  tabifyDockWidget(tree_, sketch_status_);  // status and properties both in sight while sketching
  sketch_status_->raise();
  properties_->raise();
  resizeDocks({properties_}, {320}, Qt::Horizontal);
  connect(controller_, &SimulationController::frameChanged, sketch_, &SketchEditor::showSnapshot);
  // The sketch drops the old mechanism's poses on documentChanged, after the controller has made
  // the new t = 0 record (slots run in connection order): show it, so that the sketch and the
  // 3D view show the same configuration (a drive whose q(0) differs from the drawn angle).
  connect(document_, &Document::documentChanged, this, [this] {
    if (controller_->hasCurrent()) sketch_->showSnapshot(controller_->current());
  });
  connect(sketch_, &SketchEditor::editingStarted, controller_, &SimulationController::reset);
  connect(sketch_, &SketchEditor::hintChanged, this,
          [this](const QString& hint) { statusBar()->showMessage(hint); });
  connect(document_, &Document::projectReplaced, sketch_, &SketchEditor::fitToView);
  connect(document_, &Document::statusChanged, this, [this] {
    if (!document_->mechanism())
      summary_label_->setText(QString::fromStdString(document_->status().summary()));
  });
  connect(document_, &Document::selectionChanged, sketch_, qOverload<>(&QWidget::update));
  cursor_->follow(sketch_);
  cursor_->follow(viewport_);
}

WelcomeDialog* MainWindow::showWelcome() {
  auto* dialog = new WelcomeDialog(samplesDirectory(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &WelcomeDialog::sampleChosen, this, [this](const QString& path) {
    if (maybeSave()) openSample(path);
  });
  dialog->open();
  return dialog;
}

void MainWindow::showPreferences() {
  PreferencesDialog dialog(this);
  dialog.exec();
}

void MainWindow::createMenus() {
  createFileMenu();
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  QAction* prefs = edit->addAction(tr("&Preferences…"), this, &MainWindow::showPreferences);
  prefs->setShortcut(QKeySequence::Preferences);
  prefs->setMenuRole(QAction::PreferencesRole);
  createViewMenu();
  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  sim->addAction(toolbar_->toggleAction());
  sim->addAction(toolbar_->stepAction());
  sim->addAction(toolbar_->stepBackAction());
  sim->addAction(toolbar_->resetAction());
  sim->addSeparator();
  sim->addAction(estimation_->estimateAction());
  sim->addAction(estimation_->cancelAction());
  sim->addAction(identification_->identifyAction());
  sim->addAction(identification_->applyAction());
  sim->addSeparator();
  sim->addAction(report_->runAction());
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Welcome…"), this, &MainWindow::showWelcome);
  help->addAction(tr("&About Articula"), this, [this] {
    QMessageBox::about(this, tr("About Articula"),
                       tr("<b>Articula</b> %1<br>Mechanism dynamics studio.<br>Dynamics after "
                          "Featherstone, <i>Rigid Body Dynamics Algorithms</i>.")
                           .arg(QCoreApplication::applicationVersion()));
  });
}

void MainWindow::createFileMenu() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(themedIcon("new"), tr("&New"), QKeySequence::New, this, [this] {
    if (maybeSave()) newDocument();
  });
  file->addAction(tr("New from &Template…"), this,
                  [this] {
                    if (!maybeSave()) return;
                    TemplateDialog dialog(this);
                    if (dialog.exec() == QDialog::Accepted && dialog.spec() &&
                        !document_->adoptUntitled(*dialog.spec()))
                      showError(tr("New from Template"), document_->error());
                  })
      ->setObjectName("action_new_from_template");
  file->addAction(themedIcon("open"), tr("&Open…"), QKeySequence::Open, this,
                  &MainWindow::openInteractive);
  QMenu* recent = file->addMenu(tr("Open &Recent"));
  connect(recent, &QMenu::aboutToShow, this, [this, recent] { recent_->populate(recent); });
  QMenu* samples = file->addMenu(tr("&Samples"));
  connect(samples, &QMenu::aboutToShow, this, [this, samples] {
    samples->clear();
    const QDir dir(samplesDirectory());
    for (const QFileInfo& f : dir.entryInfoList({"*.json"}, QDir::Files, QDir::Name))
      samples->addAction(f.completeBaseName(), this, [this, p = f.absoluteFilePath()] {
        if (maybeSave()) openSample(p);
      });
    if (samples->isEmpty()) samples->addAction(tr("(no samples found)"))->setEnabled(false);
  });
  file->addSeparator();
  file->addAction(themedIcon("save"), tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
  file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
  file->addSeparator();
  file->addAction(themedIcon("export-csv"), tr("Export &CSV…"), this,
                  &MainWindow::exportCsvInteractive);
  file->addAction(themedIcon("export-image"), tr("Export &Image…"), this,
                  &MainWindow::exportImageInteractive);
  createExchangeActions(file);
  file->addAction(tr("Import Sensor &Log…"), this, &MainWindow::importSensorLogInteractive)
      ->setObjectName("action_import_sensor_log");
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createViewMenu() {
  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* fit = view->addAction(themedIcon("fit"), tr("&Fit to View"), Qt::Key_F, viewport_,
                                 &ViewportPanel::fitToView);
  ortho_action_ = view->addAction(tr("&2D Orthographic"));
  ortho_action_->setCheckable(true);
  ortho_action_->setShortcut(Qt::Key_2);
  connect(ortho_action_, &QAction::toggled, viewport_, &ViewportPanel::setOrthographic2D);
  toolbar_->insertAction(toolbar_->actions().value(0), fit);
  toolbar_->insertSeparator(toolbar_->actions().value(1));
  view->addSeparator();
  using Overlays = ViewportPanel::Overlays;
  const std::pair<QString, bool Overlays::*> overlays[] = {
      {tr("Ground &Grid"), &Overlays::grid},
      {tr("Joint &Axes"), &Overlays::axes},
      {tr("Body F&rames"), &Overlays::frames},
      {tr("Reaction-Force Arro&ws"), &Overlays::forces},
      {tr("&Contact Points and Forces"), &Overlays::contacts}};
  for (const auto& [label, member] : overlays) {
    QAction* a = view->addAction(label);
    a->setCheckable(true);
    a->setChecked(viewport_->overlays().*member);
    a->setEnabled(viewport_->has3D());
    connect(a, &QAction::toggled, this, [this, member = member](bool on) {
      ViewportPanel::Overlays o = viewport_->overlays();
      o.*member = on;
      viewport_->setOverlays(o);
    });
  }
  QAction* trace = view->addAction(tr("&Trace Selected Point"), this, [this] {
    if (!viewport_->traceSelection(document_->toSimulated(document_->selection())))
      return statusBar()->showMessage(tr("Select a joint, or click a point on a body, to trace it"),
                                      5000);
    std::vector<Snapshot> run;  // the curve of the run recorded so far, at once
    controller_->history().forEach([&](const Snapshot& s) { run.push_back(s); });
    viewport_->extendTrace(run);
  });
  trace->setShortcut(Qt::SHIFT | Qt::Key_T);  // T alone draws a ternary link
  trace->setEnabled(viewport_->has3D());
  view->addAction(tr("C&lear Trace"), viewport_, &ViewportPanel::clearTrace)
      ->setEnabled(viewport_->has3D());
  view->addSeparator();
  auto* arrangement = new QActionGroup(this);
  for (auto [label, mode] : {std::pair{tr("Views Side by &Side"), CentralViews::Mode::SideBySide},
                             std::pair{tr("Views as Ta&bs"), CentralViews::Mode::Tabs}}) {
    QAction* a = view->addAction(label);
    a->setCheckable(true);
    a->setData(static_cast<int>(mode));
    arrangement->addAction(a);
    connect(a, &QAction::triggered, this, [this, mode = mode] {
      central_->setMode(mode);
      if (interactive_) QSettings().setValue("window/views", static_cast<int>(mode));
    });
  }
  view_modes_ = arrangement;
  view->addSeparator();
  for (QDockWidget* d :
       {static_cast<QDockWidget*>(tree_), static_cast<QDockWidget*>(properties_),
        static_cast<QDockWidget*>(diagnostics_), static_cast<QDockWidget*>(plots_),
        static_cast<QDockWidget*>(estimation_), static_cast<QDockWidget*>(identification_),
        static_cast<QDockWidget*>(report_)})
    view->addAction(d->toggleViewAction());
  view->addAction(toolbar_->toggleViewAction());
}

void MainWindow::createStatusBar() {
  summary_label_ = new QLabel(this);
  statusBar()->addWidget(summary_label_);
  rate_label_ = new QLabel(this);
  fps_label_ = new QLabel(this);
  cursor_ = new CursorReadout(document_, this);
  statusBar()->addPermanentWidget(cursor_);
  fps_label_->setMinimumWidth(60);
  statusBar()->addPermanentWidget(rate_label_);
  statusBar()->addPermanentWidget(fps_label_);
  auto* fps = new QTimer(this);
  connect(fps, &QTimer::timeout, this, [this] {
    const long frames = viewport_->framesDrawn();
    fps_label_->setText(tr("%1 fps").arg(frames - fps_frames_));
    fps_frames_ = frames;
  });
  fps->start(1000);
}

void MainWindow::setViewsMode(CentralViews::Mode mode) {
  if (mode != CentralViews::Mode::Tabs) mode = CentralViews::Mode::SideBySide;
  central_->setMode(mode);
  for (QAction* a : view_modes_->actions())
    a->setChecked(a->data().toInt() == static_cast<int>(mode));
}

QString MainWindow::statusText() const {
  return rate_label_->text();
}

void MainWindow::setUnsavedChangesPrompt(std::function<QMessageBox::StandardButton()> prompt) {
  prompt_ = prompt ? std::move(prompt) : [this] {
    return QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them first?").arg(document_->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  };
}

bool MainWindow::maybeSave() {
  if (!document_->isModified()) return true;
  switch (prompt_()) {
    case QMessageBox::Save:
      return save();
    case QMessageBox::Discard:
      return true;
    default:
      return false;
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  controller_->pause();
  if (interactive_) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
  }
  event->accept();
}

void MainWindow::restoreLayout() {
  if (!interactive_) return;
  QSettings settings;
  setViewsMode(static_cast<CentralViews::Mode>(settings.value("window/views", 0).toInt()));
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
}

bool MainWindow::openFile(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "urdf" || suffix == "sdf" || suffix == "world") {  // imported, untitled
    if (importFile(path)) return true;
    diagnostics_->addMessage(Severity::Error, last_error_);
    showError(tr("Cannot import"), last_error_);
    return false;
  }
  if (!document_->load(path)) {
    last_error_ = document_->error();
    diagnostics_->addMessage(Severity::Error, last_error_);
    statusBar()->showMessage(last_error_, 10000);
    showError(tr("Cannot open project"), last_error_);
    return false;
  }
  last_error_.clear();
  recent_->add(path);
  diagnostics_->addMessage(Severity::Info, tr("Opened %1").arg(document_->path()));
  return true;
}

void MainWindow::newDocument() {
  document_->clear();
  last_error_.clear();
}

bool MainWindow::save() {
  if (document_->path().isEmpty()) return saveAs();
  if (document_->save(document_->path())) return true;
  showError(tr("Save failed"), document_->error());
  return false;
}

bool MainWindow::saveAs() {
  const QString start = document_->path().isEmpty()
                            ? QDir(QDir::homePath()).filePath(document_->savedName())
                            : document_->path();
  const QString path = QFileDialog::getSaveFileName(this, tr("Save project"), start,
                                                    tr("Articula projects (*.json)"));
  return !path.isEmpty() && saveAs(path);
}

bool MainWindow::saveAs(const QString& chosen) {
  QString path = chosen;
  if (QFileInfo(path).suffix().compare("json", Qt::CaseInsensitive) != 0) path += ".json";
  if (!document_->save(path)) {
    last_error_ = document_->error();
    showError(tr("Save failed"), last_error_);
    return false;
  }
  recent_->add(document_->path());
  return true;
}

bool MainWindow::openSample(const QString& path) {
  if (!openFile(path)) return false;
  document_->detachFromFile();
  return true;
}

void MainWindow::openInteractive() {
  if (!maybeSave()) return;
  const QString dir = document_->path().isEmpty() ? samplesDirectory()
                                                  : QFileInfo(document_->path()).absolutePath();
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open project"), dir, tr("Articula projects (*.json)"));
  if (!path.isEmpty()) openFile(path);
}

bool MainWindow::exportCsv(const QString& path) {
  const Mechanism* m = document_->simulated().get();
  QString error = tr("no mechanism is loaded");
  if (m && writeHistoryCsv(controller_->history(), *m, path, &error)) return true;
  last_error_ = tr("Could not export %1: %2").arg(path, error);
  return false;
}

bool MainWindow::exportImage(const QString& path) {
  return grab().save(path, "PNG");
}

void MainWindow::exportCsvInteractive() {
  const QString base = QFileInfo(document_->displayName()).completeBaseName();
  const QString path = QFileDialog::getSaveFileName(this, tr("Export simulation data"),
                                                    base + ".csv", tr("CSV files (*.csv)"));
  if (!path.isEmpty() && !exportCsv(path)) showError(tr("Export failed"), last_error_);
}

void MainWindow::exportImageInteractive() {
  const QString base = QFileInfo(document_->displayName()).completeBaseName();
  const QString path = QFileDialog::getSaveFileName(this, tr("Export image"), base + ".png",
                                                    tr("PNG images (*.png)"));
  if (!path.isEmpty() && !exportImage(path))
    showError(tr("Export failed"), tr("Could not write %1.").arg(path));
}

void MainWindow::showError(const QString& title, const QString& text) {
  if (!interactive_) return;
  auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // window-modal, does not block the simulation or the caller
}

void MainWindow::onDocumentChanged() {
  // After an edit the user's plots stay (by channel key, read from the mechanism the plot dock
  // holds); a project opened or cleared gets the default plots.
  const std::vector<PlotDock::SavedPlot> saved =
      edit_pending_ ? plots_->savedPlots() : std::vector<PlotDock::SavedPlot>{};
  edit_pending_ = false;
  const std::shared_ptr<const Mechanism> mech = document_->simulated();
  viewport_->setMechanism(mech.get());
  plots_->setMechanism(mech);
  controller_->setMechanism(mech);
  if (plots_->restorePlots(saved) == 0) plots_->showDefaultPlots();
  // Building in 3D keeps the camera (and its projection) where the user builds.
  if (ortho_action_ && !viewport_->isBuilding()) ortho_action_->setChecked(mech && mech->planar);
  viewport_->fitToViewUnlessBuilding();
  updateSummary();
}

// A rename: the running simulation, the 3D scene and the recorded history stay; the plots and
// the summary take the new names (the renamed mechanism has the same indices).
void MainWindow::onNamesChanged() {
  edit_pending_ = false;  // the rename's: the next documentChanged may be an opened project
  plots_->renameMechanism(document_->simulated());
  updateSummary();
}

void MainWindow::updateSummary() {
  updateTitle();
  const std::shared_ptr<const Mechanism> mech = document_->mechanism();
  if (!mech) {
    summary_label_->setText(tr("Empty project"));
    return;
  }
  summary_label_->setText(tr("%1  ·  %2 DoF, %3 bodies, %4 joints, %5 loops, %6 drives")
                              .arg(QString::fromStdString(mech->spec.name))
                              .arg(mech->mobility.mobility)
                              .arg(mech->spec.bodies.size())
                              .arg(mech->spec.joints.size())
                              .arg(mech->compiled.loops.size())
                              .arg(mech->drives.size()));
}

void MainWindow::onSimulationState() {
  using S = SimulationController::State;
  switch (controller_->state()) {
    case S::Empty:
      rate_label_->setText(tr("no mechanism"));
      break;
    case S::Paused:
      rate_label_->setText(tr("paused"));
      break;
    case S::Playing:
      rate_label_->setText(tr("running…"));
      break;
    case S::Failed:
      rate_label_->setText(tr("stopped: see Diagnostics"));
      break;
  }
}

void MainWindow::onRate(double factor, bool realtime) {
  if (controller_->state() != SimulationController::State::Playing) return;
  rate_label_->setText(realtime ? tr("real time ×%1").arg(controller_->speed(), 0, 'g', 3)
                                : tr("slower than real time: ×%1").arg(factor, 0, 'f', 2));
  rate_label_->setStyleSheet(realtime ? QString() : QStringLiteral("color: #b35900;"));
}

void MainWindow::changeDrive(int joint) {
  const JointSpec& js = document_->spec().joints[joint];
  if (!js.drive) return;
  bool ok = false;
  const QString text = QInputDialog::getText(
      this, tr("Change drive law"),
      tr("New law for %1 (%2 of t), until Reset:")
          .arg(QString::fromStdString(js.name),
               js.drive->kind == DriveSpec::Kind::Motion ? tr("position q") : tr("force τ")),
      QLineEdit::Normal, QString::fromStdString(js.drive->expression), &ok);
  const int running = document_->toSimulated({-1, joint}).joint;  // the simulated mechanism's
  if (ok && running >= 0 && !text.trimmed().isEmpty())
    controller_->setDriveExpression(running, text.trimmed());
}

void MainWindow::updateTitle() {
  setWindowTitle(QStringLiteral("%1[*] — Articula").arg(document_->displayName()));
  setWindowModified(document_->isModified());
}

}  // namespace articula
