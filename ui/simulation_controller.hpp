#pragma once
// The GUI's handle on the simulation: owns the simulation thread and its worker, forwards
// commands to it, and at display rate (~60 Hz) copies what the worker published (new records and
// the latest state) out of the shared history. Views connect to its signals; none of them ever
// sees the live Simulation.
#include <QObject>
#include <memory>
#include <vector>

#include "core/sim/snapshot.hpp"

class QThread;
class QTimer;

namespace articula {

struct Mechanism;
class SimulationWorker;
class SnapshotHistory;

class SimulationController : public QObject {
  Q_OBJECT

 public:
  enum class State { Empty, Paused, Playing, Failed };
  Q_ENUM(State)

  explicit SimulationController(QObject* parent = nullptr);
  ~SimulationController() override;

  // Replaces the mechanism (null unloads) and starts again at t = 0, paused.
  void setMechanism(std::shared_ptr<const Mechanism> mechanism);
  const Mechanism* mechanism() const { return mechanism_.get(); }

  // Play, step and runFor continue from the instant on display: after scrubbing back, the run
  // resumes from that record and the later history (plots included) is discarded.
  void play();
  void pause();
  void step();
  void reset();
  void setSpeed(double factor);
  // Simulates `seconds` of simulated time as fast as possible and returns when done (headless
  // screenshots, tests). Signals for the new records are emitted before it returns.
  void runFor(double seconds);
  // Changes a drive law in the running simulation (between steps); reset restores the file's.
  void setDriveExpression(int joint, const QString& expression);

  State state() const { return state_; }
  double speed() const { return speed_; }
  const SnapshotHistory& history() const { return *history_; }
  // The snapshot on display: the live state when following, else a recorded one (scrubbing).
  const Snapshot& current() const { return current_; }
  bool hasCurrent() const { return has_current_; }
  double recordedTime() const;  // time of the last record
  bool isFollowing() const { return following_; }
  void showTime(double t);  // scrub: display the record nearest to t
  void followLive();        // display the live state again
  double achievedRate() const { return rate_; }
  // The run's contact events so far (impacts, lift-offs, stick, slip, ...), in time order;
  // eventsChanged() tells when more arrived or the history was reset or cut.
  const std::vector<Simulation::ContactEvent>& events() const { return events_; }

  // Copies what the worker published and emits the signals; the display timer calls it.
  void poll();

 signals:
  void stateChanged(articula::SimulationController::State state);
  void frameChanged(const articula::Snapshot& snapshot);
  void snapshotsAdded(const std::vector<articula::Snapshot>& snapshots);
  void historyReset();
  void eventsChanged();
  void rateChanged(double factor, bool realtime);
  void failed(const QString& message, double t);
  void message(const QString& text);
  void warning(const QString& text);

 private:
  void setState(State s);
  void resumeFromDisplayed();  // when scrubbed back: the worker continues from current_
  template <class F>
  void post(F f);

  std::shared_ptr<const Mechanism> mechanism_;
  std::unique_ptr<SnapshotHistory> history_;
  QThread* thread_;
  SimulationWorker* worker_;
  QTimer* display_;
  State state_ = State::Empty;
  double speed_ = 1.0;
  double rate_ = 0.0;
  Snapshot current_;
  bool has_current_ = false;
  bool following_ = true;
  int generation_ = -1;
  long serial_ = 0;
  long latest_version_ = -1;
  std::vector<Snapshot> fresh_;
  std::vector<Simulation::ContactEvent> events_;
};

}  // namespace articula
