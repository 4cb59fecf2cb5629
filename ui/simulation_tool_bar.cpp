#include "ui/simulation_tool_bar.hpp"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <cmath>

#include "core/sim/snapshot_history.hpp"
#include "ui/icons.hpp"
#include "ui/simulation_controller.hpp"
#include "ui/time_slider.hpp"

namespace articula {

namespace {
constexpr int kSliderSteps = 1000;
}

SimulationToolBar::SimulationToolBar(SimulationController* controller, QWidget* parent)
    : QToolBar(tr("Simulation"), parent),
      controller_(controller),
      speed_(new QComboBox(this)),
      slider_(new TimeSlider(this)),
      time_(new QLabel(this)) {
  setObjectName("SimulationToolBar");
  setIconSize(QSize(20, 20));
  play_ = addAction(themedIcon("play"), tr("Play"), controller_, &SimulationController::play);
  pause_ = addAction(themedIcon("pause"), tr("Pause"), controller_, &SimulationController::pause);
  step_ = addAction(themedIcon("step"), tr("Step"), controller_, &SimulationController::step);
  step_->setShortcuts({QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Period)});
  reset_ = addAction(themedIcon("reset"), tr("Reset"), controller_, &SimulationController::reset);
  reset_->setShortcut(Qt::Key_Home);
  // Left: one recorded instant back (pausing); the history keeps every step or every stride-th.
  back_ = new QAction(tr("Step Back"), this);
  back_->setShortcut(Qt::Key_Left);
  connect(back_, &QAction::triggered, this, [this] {
    const SnapshotHistory& h = controller_->history();
    if (!controller_->hasCurrent() || h.size() < 2) return;
    controller_->pause();
    const double dt = h.duration() / static_cast<double>(h.size() - 1);
    controller_->showTime(std::max(0.0, controller_->current().t - dt));
  });
  toggle_ = new QAction(tr("Play / Pause"), this);
  toggle_->setShortcut(Qt::Key_Space);
  connect(toggle_, &QAction::triggered, this, [this] {
    if (controller_->state() == SimulationController::State::Playing)
      controller_->pause();
    else
      controller_->play();
  });
  for (QAction* a : {play_, pause_})
    a->setToolTip(QStringLiteral("%1 (%2)").arg(a->text(), toggle_->shortcut().toString()));
  for (QAction* a : {step_, reset_})
    a->setToolTip(QStringLiteral("%1 (%2)").arg(a->text(), a->shortcut().toString()));
  addSeparator();
  auto* speed_label = new QLabel(tr(" Speed "), this);
  addWidget(speed_label);
  for (double f : {0.1, 0.25, 0.5, 1.0, 2.0, 4.0}) speed_->addItem(QStringLiteral("×%1").arg(f), f);
  speed_->setCurrentIndex(3);
  speed_->setToolTip(tr("Real-time factor: simulated seconds per wall-clock second"));
  addWidget(speed_);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { controller_->setSpeed(speed_->itemData(i).toDouble()); });
  addSeparator();
  slider_->setRange(0, kSliderSteps);
  slider_->setMinimumWidth(220);
  slider_->setToolTip(tr("Time: drag to scrub the recorded history"));
  addWidget(slider_);
  time_->setMinimumWidth(130);
  time_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  QFont mono = time_->font();
  mono.setFamily("monospace");
  mono.setStyleHint(QFont::Monospace);
  time_->setFont(mono);
  addWidget(time_);
  connect(slider_, &QSlider::sliderPressed, this, [this] {
    dragging_ = true;
    controller_->pause();
  });
  connect(slider_, &QSlider::sliderReleased, this, [this] { dragging_ = false; });
  connect(slider_, &QSlider::valueChanged, this, &SimulationToolBar::onSliderMoved);
  connect(controller_, &SimulationController::stateChanged, this,
          &SimulationToolBar::updateActions);
  connect(controller_, &SimulationController::frameChanged, this,
          [this](const Snapshot& s) { updateTime(s.t); });
  connect(controller_, &SimulationController::historyReset, this, [this] { updateTime(0.0); });
  slider_->setEvents(&controller_->events());
  connect(controller_, &SimulationController::eventsChanged, slider_,
          qOverload<>(&QWidget::update));
  updateActions();
  updateTime(0.0);
}

void SimulationToolBar::updateActions() {
  using S = SimulationController::State;
  const S s = controller_->state();
  play_->setVisible(s != S::Playing);
  pause_->setVisible(s == S::Playing);
  play_->setEnabled(s == S::Paused);
  toggle_->setEnabled(s == S::Paused || s == S::Playing);
  step_->setEnabled(s == S::Paused || s == S::Playing);
  reset_->setEnabled(s != S::Empty);
  slider_->setEnabled(s != S::Empty);
}

void SimulationToolBar::updateTime(double t) {
  time_->setText(QStringLiteral("t = %1 s").arg(t, 8, 'f', 3));
  if (dragging_) return;
  const double end = controller_->recordedTime();
  slider_->setSpan(end);
  const QSignalBlocker block(slider_);
  slider_->setValue(end > 0 ? static_cast<int>(std::lround(kSliderSteps * t / end)) : 0);
}

void SimulationToolBar::onSliderMoved(int value) {
  const double end = controller_->recordedTime();
  if (value >= kSliderSteps && !dragging_) {
    controller_->followLive();
    return;
  }
  controller_->pause();  // scrubbing looks at the past: the run waits
  controller_->showTime(end * value / kSliderSteps);
}

}  // namespace articula
