#pragma once
// The application window: the viewport in the centre, docks for the model tree, properties,
// diagnostics and plots, the simulation toolbar, and the File/Edit/View/Simulation menus. It wires
// the document and the simulation controller to the views; the views do their own work.
#include <QMainWindow>
#include <QMessageBox>
#include <functional>

#include "ui/central_views.hpp"

class QAction;
class QActionGroup;
class QLabel;

namespace articula {

class Autosave;
class CursorReadout;
class WelcomeDialog;
class DiagnosticsDock;
class Document;
class EstimationDock;
class IdentificationDock;
class ModelTreeDock;
class PlotDock;
class PropertiesDock;
class RecentFiles;
class ReportDock;
class SimulationController;
class SimulationToolBar;
class SketchEditor;
class SketchStatusDock;
class SketchToolBar;
class ViewportPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a project. On failure the previous document stays, the error (with the JSON pointer)
  // goes to the diagnostics and, when interactive, to a message box; returns false.
  bool openFile(const QString& path);
  // Opens a shipped sample as an unsaved copy: Save asks for a new name.
  bool openSample(const QString& path);
  void newDocument();
  bool save();
  bool saveAs();
  // Saves under `path`, adding ".json" when the name lacks it (the Open dialog lists *.json).
  bool saveAs(const QString& path);
  bool exportCsv(const QString& path);
  bool exportImage(const QString& path);
  // URDF / SDFormat in, URDF / SDFormat / MJCF out (interchange/, by extension; main_window_
  // exchange.cpp). Import opens the mechanism as an untitled project; warnings go to Diagnostics.
  bool importFile(const QString& path);
  bool exportFile(const QString& path);
  // Reads a sensor log against the open project (main_window_estimation.cpp) into the
  // Estimation dock. On failure the reader's message (file, line, column) goes to the
  // diagnostics and lastError(), and, when interactive, to a message box; returns false.
  bool importSensorLog(const QString& path);

  // Non-interactive windows (tests, screenshots) show no dialogs and keep no window state.
  void setInteractive(bool interactive) { interactive_ = interactive; }
  // Asked before unsaved changes are dropped; default: a Save/Discard/Cancel message box.
  void setUnsavedChangesPrompt(std::function<QMessageBox::StandardButton()> prompt);
  const QString& lastError() const { return last_error_; }

  Document* document() const { return document_; }
  SimulationController* controller() const { return controller_; }
  ViewportPanel* viewport() const { return viewport_; }
  PlotDock* plotDock() const { return plots_; }
  EstimationDock* estimationDock() const { return estimation_; }
  IdentificationDock* identificationDock() const { return identification_; }
  ReportDock* reportDock() const { return report_; }
  ModelTreeDock* modelTree() const { return tree_; }
  DiagnosticsDock* diagnostics() const { return diagnostics_; }
  SimulationToolBar* simulationToolBar() const { return toolbar_; }
  SketchEditor* sketchEditor() const { return sketch_; }
  SketchToolBar* sketchToolBar() const { return sketch_tools_; }
  SketchStatusDock* sketchStatus() const { return sketch_status_; }
  PropertiesDock* properties() const { return properties_; }
  Autosave* autosave() const { return autosave_; }
  QString statusText() const;  // the real-time indicator
  void restoreLayout();        // the window geometry and dock layout of the last session
  CentralViews* centralViews() const { return central_; }
  void setViewsMode(CentralViews::Mode mode);  // side by side or tabs (View menu)
  // The samples as thumbnails (Help > Welcome; the first start): a click opens a copy. Window
  // modal, not blocking; closes itself.
  WelcomeDialog* showWelcome();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createDocks();
  void createMenus();
  void createFileMenu();
  void createViewMenu();
  void createStatusBar();
  void showPreferences();
  void createSketch();  // the 2D sketch editor beside the viewport, its toolbar and status dock
  void onDocumentChanged();
  void onNamesChanged();
  void updateSummary();
  void onSimulationState();
  void onRate(double factor, bool realtime);
  void changeDrive(int joint);
  void updateTitle();
  bool maybeSave();
  void openInteractive();
  void exportCsvInteractive();
  void exportImageInteractive();
  void createExchangeActions(QMenu* file);  // File > Import…, Export…, Export Video…
  void importInteractive();
  void exportInteractive();
  void exportVideoInteractive();
  // The Estimation and Identification docks (tabbed with the plots), their messages to the
  // diagnostics.
  void createEstimationDock();
  // The Report dock (design report, issue 17), tabbed with the plots; Simulation > Run Design
  // Report shows and runs it.
  void createReportDock();
  void importSensorLogInteractive();
  void showError(const QString& title, const QString& text);

  Document* document_;
  SimulationController* controller_;
  ViewportPanel* viewport_;
  SimulationToolBar* toolbar_ = nullptr;
  ModelTreeDock* tree_ = nullptr;
  PropertiesDock* properties_ = nullptr;
  DiagnosticsDock* diagnostics_ = nullptr;
  PlotDock* plots_ = nullptr;
  EstimationDock* estimation_ = nullptr;
  IdentificationDock* identification_ = nullptr;
  ReportDock* report_ = nullptr;
  SketchEditor* sketch_ = nullptr;
  CentralViews* central_ = nullptr;
  QActionGroup* view_modes_ = nullptr;
  SketchToolBar* sketch_tools_ = nullptr;
  SketchStatusDock* sketch_status_ = nullptr;
  RecentFiles* recent_;
  Autosave* autosave_;
  QLabel* rate_label_ = nullptr;
  QLabel* summary_label_ = nullptr;
  QLabel* fps_label_ = nullptr;
  CursorReadout* cursor_ = nullptr;  // the point under the cursor (status bar)
  QAction* ortho_action_ = nullptr;
  std::function<QMessageBox::StandardButton()> prompt_;
  QString last_error_;
  bool interactive_ = true;
  bool fit_pending_ = false;
  bool edit_pending_ = false;  // Document::edited came before this documentChanged
  long fps_frames_ = 0;
};

}  // namespace articula
