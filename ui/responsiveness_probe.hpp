#pragma once
// Measures how quickly the GUI thread handles input: a helper thread posts a timestamped event
// every `period` (as the window system would deliver input) and the probe records how long each
// waited before the event loop handled it.
#include <QObject>
#include <atomic>
#include <thread>
#include <vector>

namespace articula {

class ResponsivenessProbe : public QObject {
  Q_OBJECT

 public:
  explicit ResponsivenessProbe(int period_ms = 10, QObject* parent = nullptr);
  ~ResponsivenessProbe() override;
  void start();
  void stop();

  struct Stats {
    int samples = 0;
    double mean_ms = 0, p99_ms = 0, max_ms = 0;
  };
  Stats stats() const;

 protected:
  bool event(QEvent* e) override;

 private:
  int period_ms_;
  std::atomic<bool> running_{false};
  std::thread poster_;
  std::vector<double> latencies_ms_;
};

}  // namespace articula
