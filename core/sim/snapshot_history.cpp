#include "core/sim/snapshot_history.hpp"

#include <algorithm>

namespace articula {

std::size_t snapshot_bytes(const Snapshot& s) {
  const auto vec = [](const VecX& v) { return static_cast<std::size_t>(v.size()) * 8 + 16; };
  return sizeof(Snapshot) + vec(s.q) + vec(s.qd) + vec(s.qdd) + vec(s.tau) +
         s.joints.size() * sizeof(Simulation::JointState) + s.wrench.size() * sizeof(Force) +
         s.X0.size() * sizeof(Transform) + s.coupling_tau.size() * sizeof(double) + 64;
}

SnapshotHistory::SnapshotHistory(std::size_t byte_budget) : budget_(byte_budget) {}

void SnapshotHistory::clear() {
  std::lock_guard lock(m_);
  records_.clear();
  events_.clear();
  has_latest_ = false;
  ++latest_version_;
  serial_ = 0;
  stride_ = 1;
  ++generation_;
}

bool SnapshotHistory::wants(long step) const {
  std::lock_guard lock(m_);
  return step % stride_ == 0;
}

void SnapshotHistory::append(long step, const Snapshot& s) {
  std::lock_guard lock(m_);
  latest_ = s;
  has_latest_ = true;
  ++latest_version_;
  if (step % stride_ != 0) return;
  if (capacity_ == 0) capacity_ = std::max<std::size_t>(1000, budget_ / snapshot_bytes(s));
  records_.push_back({++serial_, step, s});
  if (records_.size() >= capacity_) decimate();
}

void SnapshotHistory::decimate() {
  stride_ *= 2;
  std::deque<Record> kept;
  for (Record& r : records_)
    if (r.step % stride_ == 0) kept.push_back(std::move(r));
  records_.swap(kept);
}

long SnapshotHistory::truncateAfter(double t, Snapshot& at) {
  std::lock_guard lock(m_);
  if (records_.empty()) return -1;
  auto it = std::lower_bound(records_.begin(), records_.end(), t,
                             [](const Record& r, double t) { return r.s.t < t; });
  if (it == records_.end()) --it;
  if (it != records_.begin() && t - std::prev(it)->s.t < it->s.t - t) --it;
  records_.erase(std::next(it), records_.end());
  const double kept = records_.back().s.t;
  events_.erase(
      std::upper_bound(events_.begin(), events_.end(), kept,
                       [](double t, const Simulation::ContactEvent& e) { return t < e.t; }),
      events_.end());
  latest_ = records_.back().s;
  at = latest_;
  has_latest_ = true;
  ++latest_version_;
  ++generation_;
  return records_.back().step;
}

void SnapshotHistory::addEvents(const std::vector<Simulation::ContactEvent>& events) {
  std::lock_guard lock(m_);
  for (const auto& e : events) {
    if (events_.size() >= kMaxEvents) return;
    events_.push_back(e);
  }
}

std::size_t SnapshotHistory::copyEvents(std::size_t from,
                                        std::vector<Simulation::ContactEvent>& out) const {
  std::lock_guard lock(m_);
  for (std::size_t i = from; i < events_.size(); ++i) out.push_back(events_[i]);
  return events_.size();
}

void SnapshotHistory::setLatest(const Snapshot& s) {
  std::lock_guard lock(m_);
  latest_ = s;
  has_latest_ = true;
  ++latest_version_;
}

long SnapshotHistory::latestVersion() const {
  std::lock_guard lock(m_);
  return latest_version_;
}

int SnapshotHistory::generation() const {
  std::lock_guard lock(m_);
  return generation_;
}

long SnapshotHistory::serial() const {
  std::lock_guard lock(m_);
  return serial_;
}

bool SnapshotHistory::latest(Snapshot& out) const {
  std::lock_guard lock(m_);
  if (!has_latest_) return false;
  out = latest_;
  return true;
}

long SnapshotHistory::copySince(long serial, std::vector<Snapshot>& out) const {
  std::lock_guard lock(m_);
  auto it = std::upper_bound(records_.begin(), records_.end(), serial,
                             [](long s, const Record& r) { return s < r.serial; });
  for (; it != records_.end(); ++it) out.push_back(it->s);
  return serial_;
}

bool SnapshotHistory::nearest(double t, Snapshot& out) const {
  std::lock_guard lock(m_);
  if (records_.empty()) return false;
  auto it = std::lower_bound(records_.begin(), records_.end(), t,
                             [](const Record& r, double t) { return r.s.t < t; });
  if (it == records_.end()) --it;
  if (it != records_.begin() && t - std::prev(it)->s.t < it->s.t - t) --it;
  out = it->s;
  return true;
}

void SnapshotHistory::forEach(const std::function<void(const Snapshot&)>& f) const {
  // Copies out a chunk under the lock and calls f on it without the lock: f may take long (a
  // file being written, a plot refilled) and must not hold up the simulation thread.
  constexpr std::size_t kChunk = 256;
  std::vector<Snapshot> chunk;
  long after = 0;
  const int generation = this->generation();
  for (;;) {
    chunk.clear();
    {
      std::lock_guard lock(m_);
      if (generation_ != generation) return;  // cleared or truncated meanwhile: a new run
      auto it = std::upper_bound(records_.begin(), records_.end(), after,
                                 [](long s, const Record& r) { return s < r.serial; });
      for (; it != records_.end() && chunk.size() < kChunk; ++it) {
        chunk.push_back(it->s);
        after = it->serial;
      }
    }
    if (chunk.empty()) return;
    for (const Snapshot& s : chunk) f(s);
  }
}

double SnapshotHistory::duration() const {
  std::lock_guard lock(m_);
  return records_.empty() ? 0.0 : records_.back().s.t;
}

std::size_t SnapshotHistory::size() const {
  std::lock_guard lock(m_);
  return records_.size();
}

long SnapshotHistory::stride() const {
  std::lock_guard lock(m_);
  return stride_;
}

std::size_t SnapshotHistory::capacity() const {
  std::lock_guard lock(m_);
  return capacity_;
}

}  // namespace articula
