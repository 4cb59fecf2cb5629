// The simulation thread and the GUI bridge, driven the way the window drives them (commands from
// the GUI thread, display polls at ~60 Hz) but without widgets, so that ThreadSanitizer can watch
// every access to the shared history. Checks that records arrive in order, commands take effect,
// and shutdown while playing is clean.
#define CATCH_CONFIG_RUNNER
#include <QCoreApplication>
#include <QElapsedTimer>
#include <catch2/catch.hpp>
#include <memory>

#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/snapshot_history.hpp"
#include "ui/simulation_controller.hpp"

using namespace articula;

namespace {
std::shared_ptr<const Mechanism> sample(const char* file) {
  const std::string path = std::string(ARTICULA_SOURCE_DIR) + "/samples/" + file;
  return std::make_shared<const Mechanism>(prepare(load_project(path).spec));
}

// Runs the event loop (display timer, queued signals) for `ms` of wall time.
void spin(int ms) {
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

struct Recorder {
  std::vector<double> times;  // of every record handed to the GUI, in order
  int resets = 0, frames = 0;
  explicit Recorder(SimulationController& c) {
    QObject::connect(&c, &SimulationController::snapshotsAdded,
                     [this](const std::vector<Snapshot>& s) {
                       for (const Snapshot& x : s) times.push_back(x.t);
                     });
    QObject::connect(&c, &SimulationController::historyReset, [this] { times.clear(), ++resets; });
    QObject::connect(&c, &SimulationController::frameChanged,
                     [this](const Snapshot&) { ++frames; });
  }
  bool increasing() const {
    for (std::size_t i = 1; i < times.size(); ++i)
      if (!(times[i] > times[i - 1])) return false;
    return true;
  }
};
}  // namespace

TEST_CASE("play, pause, step, reset across the simulation thread", "[ui][threads]") {
  SimulationController c;
  Recorder rec(c);
  c.setMechanism(sample("fourbar.json"));
  REQUIRE(c.state() == SimulationController::State::Paused);
  REQUIRE(c.hasCurrent());
  CHECK(c.current().t == 0.0);

  c.setSpeed(4.0);
  c.play();
  spin(400);  // the worker steps on its own timer while the GUI thread polls the history
  c.pause();
  spin(50);
  CHECK(c.state() == SimulationController::State::Paused);
  const double t_paused = c.recordedTime();
  CHECK(t_paused > 0.0);
  CHECK(rec.times.size() >= 2);
  CHECK(rec.increasing());

  spin(100);  // paused: no new records
  CHECK(c.recordedTime() == t_paused);
  c.step();
  spin(100);
  CHECK(c.recordedTime() > t_paused);
  c.setDriveExpression(0, "0.3 + 2*pi*t");  // a queued command between steps (same law: no jump)
  c.runFor(0.05);                           // blocking: the records exist when it returns
  CHECK(c.recordedTime() >= t_paused + 0.05 - 1e-9);
  CHECK(rec.increasing());

  c.reset();
  CHECK(rec.resets >= 1);
  CHECK(c.recordedTime() == 0.0);
  CHECK(c.current().t == 0.0);
  c.showTime(0.0);  // scrubbing reads the history from the GUI thread
  c.followLive();
}

TEST_CASE("replacing the mechanism and shutting down while playing", "[ui][threads]") {
  for (const char* file : {"pendulum.json", "slider_crank.json", "double_pendulum.json"}) {
    auto c = std::make_unique<SimulationController>();
    Recorder rec(*c);
    c->setMechanism(sample("fourbar.json"));
    c->setSpeed(50.0);
    c->play();
    spin(150);
    c->setMechanism(sample(file));  // replaced while the worker is stepping
    CHECK(c->state() == SimulationController::State::Paused);
    CHECK(c->recordedTime() == 0.0);
    c->play();
    spin(150);
    CHECK(c->state() == SimulationController::State::Playing);
    CHECK(c->recordedTime() > 0.0);
    CHECK(rec.increasing());
    c.reset();  // destroyed while playing: the thread stops cleanly
  }
}

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  return Catch::Session().run(argc, argv);
}
