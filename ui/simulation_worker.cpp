#include "ui/simulation_worker.hpp"

#include <QTimer>
#include <cmath>
#include <stdexcept>

#include "core/sim/runner.hpp"
#include "core/sim/snapshot_history.hpp"

namespace articula {

namespace {
constexpr int kTickMs = 2;             // pacing timer period
constexpr double kTickBudget = 0.012;  // seconds of stepping per tick before yielding
constexpr double kRateWindow = 0.5;    // seconds of wall time per rate report
constexpr double kMaxLag = 0.1;        // seconds behind schedule before pacing re-anchors
}  // namespace

SimulationWorker::SimulationWorker(SnapshotHistory* history) : history_(history) {}

SimulationWorker::~SimulationWorker() = default;

void SimulationWorker::load(std::shared_ptr<const Mechanism> mechanism) {
  pause();
  sim_.reset();
  data_.reset();
  mech_ = std::move(mechanism);
  try {
    const RunOptions opt = mech_ ? run_options_from(mech_->spec) : RunOptions{};
    h_ = opt.step;
    if (mech_ && h_ < 1e-9)  // 1e9 steps or more per simulated second: it would never get on
      throw std::invalid_argument(
          tr("step %1 s is below 1e-9 s: %2 steps per simulated second; choose a larger step "
             "(Properties, Simulation)")
              .arg(h_)
              .arg(1.0 / h_, 0, 'g', 3)
              .toStdString());
    integrator_ = opt.integrator;
    rtol_ = opt.rtol;
    atol_ = opt.atol;
  } catch (const std::exception& e) {
    history_->clear();
    fail(e);
    return;
  }
  rebuild();
}

void SimulationWorker::rebuild() {
  history_->clear();
  drive_changes_.clear();  // reset: the file's laws again
  next_change_ = 0;
  step_ = 0;
  fresh_ = false;
  if (!mech_) return;
  try {
    sim_ = std::make_unique<Simulation>(*mech_, options());
    data_ = std::make_unique<Data>(mech_->model());
    sim_->evaluate();
    take_snapshot(*sim_, *data_, snap_);
    history_->append(0, snap_);
    fresh_ = true;
    const char* names[] = {"RK4", "Euler", "RK45"};
    emit loaded(
        tr("Simulation ready: step %1 s, %2").arg(h_).arg(names[static_cast<int>(integrator_)]));
  } catch (const std::exception& e) {
    sim_.reset();
    fail(e);
  }
}

void SimulationWorker::play() {
  if (!sim_ || playing_) return;
  if (!timer_) {
    timer_ = new QTimer(this);  // created here so that it lives on this thread
    timer_->setTimerType(Qt::PreciseTimer);
    connect(timer_, &QTimer::timeout, this, &SimulationWorker::tick);
  }
  if (!clock_.isValid()) clock_.start();
  playing_ = true;
  anchor();
  rate_wall_ = anchor_wall_;
  rate_sim_ = anchor_sim_;
  timer_->start(kTickMs);
  emit playingChanged(true);
}

void SimulationWorker::pause() {
  if (!playing_) return;
  playing_ = false;
  if (timer_) timer_->stop();
  publishLatest();
  emit playingChanged(false);
}

void SimulationWorker::stepOnce() {
  if (!sim_) return;
  pause();
  if (advance()) publishLatest();
}

void SimulationWorker::reset() {
  pause();
  rebuild();
}

void SimulationWorker::setSpeed(double factor) {
  speed_ = std::max(1e-3, factor);
  if (playing_) anchor();
}

void SimulationWorker::runFor(double seconds) {
  if (!sim_) return;
  pause();
  const long n = std::lround(seconds / h_);
  for (long i = 0; i < n; ++i)
    if (!advance()) return;
  publishLatest();
}

void SimulationWorker::resumeFrom(double t) {
  if (!sim_) return;  // a failed run restarts with reset()
  pause();
  Snapshot at;
  const long step = history_->truncateAfter(t, at);
  if (step < 0) return;
  if (!restoreDrives(at, step)) return;
  step_ = step;
  snap_ = at;
  fresh_ = true;
  emit notice(tr("Continuing from t = %1 s; the later history was discarded").arg(at.t), false);
}

// A change made later than `step` steps must be undone: the simulation is made afresh (the
// file's laws), the state restored and the changes up to `step` made again.
bool SimulationWorker::restoreDrives(const Snapshot& at, long step) {
  try {
    bool undo = false;
    for (std::size_t i = 0; i < next_change_; ++i) undo |= drive_changes_[i].step > step;
    if (undo) {
      sim_ = std::make_unique<Simulation>(*mech_, options());
      next_change_ = 0;
      while (next_change_ < drive_changes_.size() && drive_changes_[next_change_].step <= step) {
        const DriveChange& c = drive_changes_[next_change_++];
        sim_->set_drive_expression(c.joint, c.expression.toStdString());
      }
    }
    sim_->restore(at.t, at.q, at.qd, at.work, at.dissipated);
    return true;
  } catch (const std::exception& e) {
    fail(e);
    return false;
  }
}

void SimulationWorker::applyDriveChanges() {
  while (next_change_ < drive_changes_.size() && drive_changes_[next_change_].step <= step_) {
    const DriveChange& c = drive_changes_[next_change_++];
    sim_->set_drive_expression(c.joint, c.expression.toStdString());  // valid when first made
  }
}

void SimulationWorker::setDrive(int joint, const QString& expression) {
  if (!sim_) return;
  const QString name = QString::fromStdString(mech_->spec.joints[joint].name);
  try {
    sim_->set_drive_expression(joint, expression.toStdString());
    // Changes of a discarded future give way to this one.
    drive_changes_.resize(next_change_);
    drive_changes_.push_back({step_, joint, expression});
    next_change_ = drive_changes_.size();
    emit notice(
        tr("Drive of %1 changed at t = %2 s: %3").arg(name).arg(sim_->time()).arg(expression),
        false);
  } catch (const std::exception& e) {
    emit notice(tr("Drive of %1 not changed: %2").arg(name, e.what()), true);
  }
}

void SimulationWorker::shutdown() {
  pause();
  delete timer_;
  timer_ = nullptr;
  sim_.reset();
}

void SimulationWorker::anchor() {
  anchor_wall_ = clock_.isValid() ? clock_.nsecsElapsed() * 1e-9 : 0.0;
  anchor_sim_ = sim_ ? sim_->time() : 0.0;
}

void SimulationWorker::tick() {
  if (!playing_ || !sim_) return;
  const double start = clock_.nsecsElapsed() * 1e-9;
  const double target = anchor_sim_ + speed_ * (start - anchor_wall_);
  while (sim_->time() + 0.5 * h_ < target) {
    if (!advance()) return;
    if (clock_.nsecsElapsed() * 1e-9 - start > kTickBudget) break;
  }
  const double now = clock_.nsecsElapsed() * 1e-9;
  // Cannot keep up: run as fast as possible without accumulating an ever-growing debt.
  if (anchor_sim_ + speed_ * (now - anchor_wall_) - sim_->time() > kMaxLag * speed_) anchor();
  publishLatest();
  measureRate(now);
}

void SimulationWorker::measureRate(double wall) {
  if (wall - rate_wall_ < kRateWindow) return;
  const double factor = (sim_->time() - rate_sim_) / (wall - rate_wall_);
  emit rateMeasured(factor, factor >= 0.95 * speed_);
  rate_wall_ = wall;
  rate_sim_ = sim_->time();
}

bool SimulationWorker::advance() {
  try {
    applyDriveChanges();  // a replay makes the recorded changes at their steps
    // Every record is one output step h apart; rk45 takes error-controlled substeps within it.
    if (integrator_ == Integrator::RK45)
      sim_->advance(sim_->time() + h_, rtol_, atol_, h_);
    else
      sim_->step(h_, integrator_);
    ++step_;
    if (auto events = sim_->take_events(); !events.empty()) history_->addEvents(events);
    fresh_ = false;
    if (history_->wants(step_)) {
      sim_->evaluate();
      take_snapshot(*sim_, *data_, snap_);
      history_->append(step_, snap_);
      fresh_ = true;
    }
    return true;
  } catch (const std::exception& e) {
    fail(e);
    return false;
  }
}

void SimulationWorker::publishLatest() {
  if (!sim_ || fresh_) return;
  try {
    sim_->evaluate();
    take_snapshot(*sim_, *data_, snap_);
    history_->setLatest(snap_);
    fresh_ = true;
  } catch (const std::exception& e) {
    fail(e);
  }
}

void SimulationWorker::fail(const std::exception& e) {
  const double t = sim_ ? sim_->time() : 0.0;
  const bool was_playing = playing_;
  playing_ = false;
  if (timer_) timer_->stop();
  sim_.reset();  // a failed simulation cannot continue; reset() rebuilds it
  emit failed(QString::fromStdString(e.what()), t);
  if (was_playing) emit playingChanged(false);
}

}  // namespace articula
