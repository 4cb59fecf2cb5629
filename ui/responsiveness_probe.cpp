#include "ui/responsiveness_probe.hpp"

#include <QCoreApplication>
#include <QEvent>
#include <algorithm>
#include <chrono>
#include <numeric>

namespace articula {

namespace {

using Clock = std::chrono::steady_clock;
const QEvent::Type kProbeEvent = static_cast<QEvent::Type>(QEvent::registerEventType());

struct ProbeEvent : QEvent {
  explicit ProbeEvent(Clock::time_point t) : QEvent(kProbeEvent), posted(t) {}
  Clock::time_point posted;
};

}  // namespace

ResponsivenessProbe::ResponsivenessProbe(int period_ms, QObject* parent)
    : QObject(parent), period_ms_(period_ms) {}

ResponsivenessProbe::~ResponsivenessProbe() {
  stop();
}

void ResponsivenessProbe::start() {
  if (running_.exchange(true)) return;
  latencies_ms_.clear();
  poster_ = std::thread([this] {
    while (running_) {
      QCoreApplication::postEvent(this, new ProbeEvent(Clock::now()));
      std::this_thread::sleep_for(std::chrono::milliseconds(period_ms_));
    }
  });
}

void ResponsivenessProbe::stop() {
  if (!running_.exchange(false)) return;
  poster_.join();
  QCoreApplication::removePostedEvents(this, kProbeEvent);
}

bool ResponsivenessProbe::event(QEvent* e) {
  if (e->type() != kProbeEvent) return QObject::event(e);
  const auto waited = Clock::now() - static_cast<ProbeEvent*>(e)->posted;
  latencies_ms_.push_back(std::chrono::duration<double, std::milli>(waited).count());
  return true;
}

ResponsivenessProbe::Stats ResponsivenessProbe::stats() const {
  Stats s;
  if (latencies_ms_.empty()) return s;
  std::vector<double> v = latencies_ms_;
  std::sort(v.begin(), v.end());
  s.samples = static_cast<int>(v.size());
  s.mean_ms = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  s.p99_ms = v[std::min(v.size() - 1, static_cast<std::size_t>(0.99 * v.size()))];
  s.max_ms = v.back();
  return s;
}

}  // namespace articula
