#pragma once
// The plots dock: several PlotWidgets side by side, a toolbar to add and remove plots and pick
// channels, and the plumbing from the simulation controller (new samples, resets, scrubbing).
#include <QDockWidget>
#include <QElapsedTimer>
#include <vector>

#include "ui/channel.hpp"

class QSplitter;
class QTimer;
class QToolButton;

namespace articula {

struct Mechanism;
class PlotWidget;
class SimulationController;

class PlotDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit PlotDock(SimulationController* controller, QWidget* parent = nullptr);

  // Removes every plot; channels refer to `m`'s joints.
  void setMechanism(const Mechanism* m);
  // The same mechanism renamed (same channels by index): labels follow, data stays.
  void renameMechanism(const Mechanism* m);
  PlotWidget* addPlot(const QString& title = {});
  void removePlot(PlotWidget* plot);
  PlotWidget* currentPlot() const { return current_; }
  void setCurrentPlot(PlotWidget* plot);
  // Adds c to the current plot (a new one if there is none, or if newPlot).
  void plotChannel(const Channel& c, bool newPlot = false);
  const std::vector<PlotWidget*>& plots() const { return plots_; }
  // Drive effort of the driven joints (or the first joint's q) and a reaction-force magnitude.
  void showDefaultPlots();

 private:
  QWidget* makeToolBar();
  void exportCsv(PlotWidget* plot);
  void exportPng(PlotWidget* plot);
  // Redraws the plots with new samples, at most ~10 times a second (and once after the last).
  void refreshPlots(bool now = false);

  SimulationController* controller_;
  const Mechanism* mech_ = nullptr;
  QSplitter* splitter_;
  QToolButton* channels_;
  std::vector<PlotWidget*> plots_;
  PlotWidget* current_ = nullptr;
  QElapsedTimer since_refresh_;
  QTimer* trailing_;
};

}  // namespace articula
