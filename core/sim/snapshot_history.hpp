#pragma once
// The recorded run, shared by the simulation thread (writer) and the GUI (reader). Each side holds
// the mutex only while it copies (MuJoCo's simulate): no callback runs and no file is written
// under it. Every step is recorded until the memory
// budget is reached; then every other record is dropped and from there on only every 2nd step is
// kept (then every 4th, ...), so a run of any length keeps uniform resolution over its whole span
// within a fixed budget (default 128 MiB: about 18 000 Stewart-platform snapshots, i.e. every
// step of the first 18 s at 1 kHz).
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>

#include "core/sim/snapshot.hpp"

namespace articula {

class SnapshotHistory {
 public:
  explicit SnapshotHistory(std::size_t byte_budget = std::size_t{128} << 20);

  // Writer side. `step` counts integration steps since the start (0 = initial state).
  void clear();                               // starts a new generation
  bool wants(long step) const;                // whether append(step) would keep it
  void append(long step, const Snapshot& s);  // records (if wanted) and sets the latest
  void setLatest(const Snapshot& s);          // newest state without recording it
  // Drops the records after time t (the run continues from the record nearest t), starts a new
  // generation so that readers reload what is left, and makes that record the latest. Returns
  // its step and copies it to `at`; -1 when there is no record.
  long truncateAfter(double t, Snapshot& at);
  // Contact events (impacts, lift-offs, stick, slip, engage, release) as the run meets them, in
  // time order. Dropped with the records by clear() and truncateAfter(); at most kMaxEvents are
  // kept (a chattering run keeps its first ones: the marks would merge on screen anyway).
  void addEvents(const std::vector<Simulation::ContactEvent>& events);
  static constexpr std::size_t kMaxEvents = 100000;

  // Reader side.
  int generation() const;            // changes on clear()
  long serial() const;               // number of records ever appended
  bool latest(Snapshot& out) const;  // false when empty
  long latestVersion() const;        // changes whenever the latest state does
  // Copies the records appended after `serial` that are still held; returns the new serial.
  long copySince(long serial, std::vector<Snapshot>& out) const;
  bool nearest(double t, Snapshot& out) const;  // the record closest to time t
  // Oldest first; f runs without the lock (records are copied out in chunks), so it may be slow
  // or write files. A clear() or truncateAfter() meanwhile ends the walk.
  void forEach(const std::function<void(const Snapshot&)>& f) const;
  double duration() const;  // time of the last record
  std::size_t size() const;
  long stride() const;
  std::size_t capacity() const;
  // Copies the events recorded after the first `from` (0: all) into `out`; returns the count now
  // held, which a reader passes back to copy only the new ones (a clear() or truncateAfter()
  // changes generation(): read again from 0).
  std::size_t copyEvents(std::size_t from, std::vector<Simulation::ContactEvent>& out) const;

 private:
  struct Record {
    long serial;
    long step;
    Snapshot s;
  };
  void decimate();  // keeps records whose step is a multiple of 2*stride

  mutable std::mutex m_;
  std::size_t budget_;
  std::size_t capacity_ = 0;  // set from the first snapshot's size
  std::deque<Record> records_;
  std::vector<Simulation::ContactEvent> events_;  // time order
  Snapshot latest_;
  bool has_latest_ = false;
  long latest_version_ = 0;
  long serial_ = 0;
  long stride_ = 1;
  int generation_ = 0;
};

// Approximate memory held by one snapshot (heap included).
std::size_t snapshot_bytes(const Snapshot& s);

}  // namespace articula
