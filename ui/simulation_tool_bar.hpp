#pragma once
// Play, pause, step, reset, the real-time factor and the time slider. The slider follows the
// live time while the simulation runs; dragging it pauses and scrubs the recorded history. The
// run's contact events are marked along it.
#include <QToolBar>

#include "ui/time_slider.hpp"

class QAction;
class QComboBox;
class QLabel;

namespace articula {

class SimulationController;

class SimulationToolBar : public QToolBar {
  Q_OBJECT

 public:
  explicit SimulationToolBar(SimulationController* controller, QWidget* parent = nullptr);

  QAction* playAction() const { return play_; }
  QAction* pauseAction() const { return pause_; }
  QAction* stepAction() const { return step_; }
  QAction* resetAction() const { return reset_; }
  // Play or pause (Space); for menus and the window, not shown on the bar.
  QAction* toggleAction() const { return toggle_; }
  QAction* stepBackAction() const { return back_; }  // Left: the previous recorded instant
  TimeSlider* timeSlider() const { return slider_; }
  QComboBox* speedBox() const { return speed_; }

 private:
  void updateActions();
  void updateTime(double t);
  void onSliderMoved(int value);

  SimulationController* controller_;
  QAction* play_;
  QAction* pause_;
  QAction* step_;
  QAction* reset_;
  QAction* toggle_;
  QAction* back_;
  QComboBox* speed_;
  TimeSlider* slider_;
  QLabel* time_;
  bool dragging_ = false;
};

}  // namespace articula
