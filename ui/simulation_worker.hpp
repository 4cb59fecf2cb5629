#pragma once
// Lives on the simulation thread and owns the Simulation. Steps it at the requested real-time
// factor from a fine timer, records every step into the SnapshotHistory, and takes commands as
// queued calls, which Qt delivers between timer ticks, i.e. between steps. The GUI never touches
// the Simulation; it reads the history (see SimulationController).
#include <QElapsedTimer>
#include <QObject>
#include <memory>
#include <vector>

#include "core/sim/simulation.hpp"
#include "core/sim/snapshot.hpp"

class QTimer;

namespace articula {

class SnapshotHistory;

class SimulationWorker : public QObject {
  Q_OBJECT

 public:
  explicit SimulationWorker(SnapshotHistory* history);
  ~SimulationWorker() override;

  // All of these run on the worker's thread (call them through QMetaObject::invokeMethod).
  void load(std::shared_ptr<const Mechanism> mechanism);  // null unloads
  void play();
  void pause();
  void stepOnce();
  void reset();
  void setSpeed(double factor);
  void runFor(double seconds);  // as fast as possible, then paused
  // Continues from the record nearest time t: restores that state and the drive laws in force
  // then, and drops the later history. Drive changes made later in the discarded run are made
  // again at the same step, so the replay retraces it until the user changes something.
  void resumeFrom(double t);
  // A new law for the drive of user joint `joint`, from the next step on (until reset). Part of
  // the run's history (see resumeFrom).
  void setDrive(int joint, const QString& expression);
  void shutdown();

 signals:
  void playingChanged(bool playing);
  void failed(const QString& message, double t);
  void rateMeasured(double factor, bool realtime);  // achieved sim-time / wall-time while playing
  void loaded(const QString& summary);
  void notice(const QString& text, bool warning);

 private:
  void tick();
  bool advance();  // one step, recorded; false (and stopped) on failure
  void publishLatest();
  void rebuild();
  void anchor();
  void measureRate(double wall);
  void fail(const std::exception& e);
  void applyDriveChanges();                           // those due at the current step
  bool restoreDrives(const Snapshot& at, long step);  // the laws in force after `step` steps
  // Auto's choice of solver knows the integrator the run steps with (SimulationOptions).
  SimulationOptions options() const {
    SimulationOptions o;
    o.integrator = integrator_;
    return o;
  }

  // A drive change made after `step` steps (before the next), in the order made.
  struct DriveChange {
    long step;
    int joint;
    QString expression;
  };
  std::vector<DriveChange> drive_changes_;
  std::size_t next_change_ = 0;  // the first change not yet applied to sim_

  SnapshotHistory* history_;
  std::shared_ptr<const Mechanism> mech_;
  std::unique_ptr<Simulation> sim_;
  std::unique_ptr<Data> data_;
  Snapshot snap_;
  QTimer* timer_ = nullptr;
  QElapsedTimer clock_;
  double h_ = 1e-3;
  Integrator integrator_ = Integrator::RK4;
  double rtol_ = 1e-8, atol_ = 1e-10;  // rk45 tolerances
  long step_ = 0;
  bool playing_ = false;
  bool fresh_ = false;  // snap_ matches the simulation's current state
  double speed_ = 1.0;
  double anchor_wall_ = 0, anchor_sim_ = 0;  // real-time pacing reference
  double rate_wall_ = 0, rate_sim_ = 0;      // start of the rate-measuring window
};

}  // namespace articula
