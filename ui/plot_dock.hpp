#pragma once
// The plots dock: several PlotWidgets side by side, a toolbar to add and remove plots and pick
// channels, and the plumbing from the simulation controller (new samples, resets, scrubbing).
#include <QDockWidget>
#include <QElapsedTimer>
#include <QStringList>
#include <memory>
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

  // Removes every plot; channels refer to `m`'s joints. Held: the plots' channel keys are read
  // from it after the document has moved on (savedPlots).
  void setMechanism(std::shared_ptr<const Mechanism> m);
  // The plots by title and channel keys ("A0.tau"): an edit recompiles the mechanism, which may
  // number its joints and channels anew. Read before setMechanism (the keys are the current
  // mechanism's); restorePlots, once the controller holds the new mechanism's history, adds
  // back every plot that still has a channel and returns how many it added.
  struct SavedPlot {
    QString title;  // empty: derived from the channels
    QStringList keys;
  };
  // Empty while the plots are the defaults (showDefaultPlots): those follow the mechanism (a
  // motor added gets its drive-torque plot); once the user adds or removes a plot or channel,
  // the plots are theirs and kept.
  std::vector<SavedPlot> savedPlots() const;
  int restorePlots(const std::vector<SavedPlot>& saved);
  // The same mechanism renamed (same channels by index): labels follow, data stays.
  void renameMechanism(std::shared_ptr<const Mechanism> m);
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
  std::shared_ptr<const Mechanism> mech_;
  QSplitter* splitter_;
  QToolButton* channels_;
  std::vector<PlotWidget*> plots_;
  bool customised_ = false;  // a plot or channel added or removed by the user
  PlotWidget* current_ = nullptr;
  QElapsedTimer since_refresh_;
  QTimer* trailing_;
};

}  // namespace articula
