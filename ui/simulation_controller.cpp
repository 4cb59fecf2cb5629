#include "ui/simulation_controller.hpp"

#include <QThread>
#include <QTimer>

#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot_history.hpp"
#include "ui/simulation_worker.hpp"

namespace articula {

SimulationController::SimulationController(QObject* parent)
    : QObject(parent),
      history_(std::make_unique<SnapshotHistory>()),
      thread_(new QThread(this)),
      worker_(new SimulationWorker(history_.get())),
      display_(new QTimer(this)) {
  thread_->setObjectName("articula-simulation");
  worker_->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &SimulationWorker::playingChanged, this, [this](bool playing) {
    if (state_ != State::Failed && state_ != State::Empty)
      setState(playing ? State::Playing : State::Paused);
  });
  connect(worker_, &SimulationWorker::failed, this, [this](const QString& msg, double t) {
    setState(State::Failed);
    emit failed(msg, t);
  });
  connect(worker_, &SimulationWorker::rateMeasured, this, [this](double f, bool realtime) {
    rate_ = f;
    emit rateChanged(f, realtime);
  });
  connect(worker_, &SimulationWorker::loaded, this, &SimulationController::message);
  connect(worker_, &SimulationWorker::notice, this, [this](const QString& text, bool warn) {
    if (warn)
      emit warning(text);
    else
      emit message(text);
  });
  thread_->start();
  display_->setTimerType(Qt::PreciseTimer);
  connect(display_, &QTimer::timeout, this, &SimulationController::poll);
  display_->start(16);
}

SimulationController::~SimulationController() {
  QMetaObject::invokeMethod(
      worker_, [w = worker_] { w->shutdown(); }, Qt::BlockingQueuedConnection);
  thread_->quit();
  thread_->wait();
}

template <class F>
void SimulationController::post(F f) {
  QMetaObject::invokeMethod(worker_, std::move(f), Qt::QueuedConnection);
}

void SimulationController::setMechanism(std::shared_ptr<const Mechanism> mechanism) {
  mechanism_ = mechanism;
  has_current_ = false;
  following_ = true;
  rate_ = 0.0;
  setState(mechanism_ ? State::Paused : State::Empty);
  // Blocking, so that the t = 0 record exists (or the failure is queued) when this returns.
  QMetaObject::invokeMethod(
      worker_, [w = worker_, mechanism] { w->load(mechanism); }, Qt::BlockingQueuedConnection);
  poll();
}

void SimulationController::play() {
  if (state_ != State::Paused) return;
  resumeFromDisplayed();
  followLive();
  post([w = worker_] { w->play(); });
  setState(State::Playing);  // optimistic; the worker confirms
}

void SimulationController::pause() {
  if (state_ != State::Playing) return;
  post([w = worker_] { w->pause(); });
  setState(State::Paused);
}

void SimulationController::step() {
  if (state_ != State::Paused && state_ != State::Playing) return;
  resumeFromDisplayed();
  followLive();
  post([w = worker_] { w->stepOnce(); });
  setState(State::Paused);
}

void SimulationController::reset() {
  if (!mechanism_) return;
  following_ = true;
  rate_ = 0.0;
  QMetaObject::invokeMethod(
      worker_, [w = worker_] { w->reset(); }, Qt::BlockingQueuedConnection);
  if (state_ != State::Empty) setState(State::Paused);
  poll();
}

void SimulationController::setSpeed(double factor) {
  speed_ = factor;
  post([w = worker_, factor] { w->setSpeed(factor); });
}

void SimulationController::runFor(double seconds) {
  if (state_ != State::Paused && state_ != State::Playing) return;
  resumeFromDisplayed();
  followLive();
  QMetaObject::invokeMethod(
      worker_, [w = worker_, seconds] { w->runFor(seconds); }, Qt::BlockingQueuedConnection);
  if (state_ == State::Playing) setState(State::Paused);
  poll();
}

void SimulationController::setDriveExpression(int joint, const QString& expression) {
  post([w = worker_, joint, expression] { w->setDrive(joint, expression); });
}

double SimulationController::recordedTime() const {
  return history_->duration();
}

void SimulationController::showTime(double t) {
  following_ = false;
  if (history_->nearest(t, current_)) {
    has_current_ = true;
    emit frameChanged(current_);
  }
}

void SimulationController::resumeFromDisplayed() {
  if (following_ || !has_current_) return;
  // Blocking: the worker has restored the state and cut the history when play is posted.
  QMetaObject::invokeMethod(
      worker_, [w = worker_, t = current_.t] { w->resumeFrom(t); }, Qt::BlockingQueuedConnection);
}

void SimulationController::followLive() {
  if (following_) return;
  following_ = true;
  latest_version_ = -1;  // force a refresh
  poll();
}

void SimulationController::poll() {
  const int generation = history_->generation();
  if (generation != generation_) {
    generation_ = generation;
    serial_ = 0;
    events_.clear();
    emit historyReset();
    emit eventsChanged();
  }
  const std::size_t held = events_.size();
  history_->copyEvents(held, events_);
  if (events_.size() != held) emit eventsChanged();
  fresh_.clear();
  serial_ = history_->copySince(serial_, fresh_);
  if (!fresh_.empty()) emit snapshotsAdded(fresh_);
  if (!following_) return;
  const long version = history_->latestVersion();
  if (version == latest_version_) return;
  latest_version_ = version;
  has_current_ = history_->latest(current_);
  if (has_current_) emit frameChanged(current_);
}

void SimulationController::setState(State s) {
  if (s == state_) return;
  state_ = s;
  emit stateChanged(s);
}

}  // namespace articula
