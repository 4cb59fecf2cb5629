// The recorded run (core/sim/snapshot_history) without Qt: every step until the budget, then
// uniform decimation; lookups by time and serial; truncation for resuming from a scrubbed instant;
// a writer and a reader thread at once; and forEach's callback running without the lock (it may
// call back into the history, which would deadlock if the lock were held).
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "core/sim/snapshot_history.hpp"

using namespace articula;

namespace {
// What the simulation worker does each step: record when wanted, else only set the latest.
void step_to(SnapshotHistory& h, long step, const Snapshot& s) {
  if (h.wants(step))
    h.append(step, s);
  else
    h.setLatest(s);
}

Snapshot at(double t) {
  Snapshot s;
  s.t = t;
  s.q = VecX::Constant(3, t);
  return s;
}
}  // namespace

TEST_CASE("History records every step, then keeps uniform resolution within its budget",
          "[sim][history]") {
  // A budget of 1000 snapshots' worth: the capacity is at least 1000 records.
  SnapshotHistory h(snapshot_bytes(at(0)) * 1000);
  long step = 0;
  for (; step < 999; ++step) step_to(h, step, at(step * 1e-3));
  CHECK(h.size() == 999);
  CHECK(h.stride() == 1);
  for (; step < 5000; ++step) step_to(h, step, at(step * 1e-3));
  CHECK(h.size() < h.capacity());
  CHECK(h.stride() == 8);  // 1000 → 2 → 4 → 8: 5000 steps fit as every 8th
  std::vector<double> times;
  h.forEach([&](const Snapshot& s) { times.push_back(s.t); });
  REQUIRE(times.size() == h.size());
  for (std::size_t i = 1; i < times.size(); ++i)
    CHECK(times[i] - times[i - 1] == Approx(8e-3).epsilon(1e-9));  // uniform over the run
  Snapshot latest;
  REQUIRE(h.latest(latest));
  CHECK(latest.t == Approx(4.999));  // the newest state even when not recorded
}

TEST_CASE("History lookups: nearest, copySince, truncateAfter", "[sim][history]") {
  SnapshotHistory h;
  for (long k = 0; k <= 100; ++k) h.append(k, at(0.01 * k));
  Snapshot s;
  REQUIRE(h.nearest(0.424, s));
  CHECK(s.t == Approx(0.42));
  REQUIRE(h.nearest(7.0, s));
  CHECK(s.t == Approx(1.0));
  std::vector<Snapshot> out;
  CHECK(h.copySince(95, out) == 101);
  REQUIRE(out.size() == 6);  // serials 96 .. 101
  CHECK(out.front().t == Approx(0.95));
  const int gen = h.generation();
  Snapshot resume;
  CHECK(h.truncateAfter(0.5, resume) == 50);
  CHECK(resume.t == Approx(0.5));
  CHECK(h.size() == 51);
  CHECK(h.generation() != gen);  // readers reload what is left
  CHECK(h.duration() == Approx(0.5));
  h.clear();
  CHECK(h.size() == 0);
  CHECK_FALSE(h.latest(s));
  CHECK(h.truncateAfter(0.1, resume) == -1);
}

TEST_CASE("forEach runs its callback without the lock", "[sim][history]") {
  SnapshotHistory h;
  for (long k = 0; k < 600; ++k) h.append(k, at(k));
  int seen = 0;
  // Calling back into the history from the callback would deadlock under the lock.
  h.forEach([&](const Snapshot&) {
    seen += h.size() == 600;
    Snapshot latest;
    CHECK(h.latest(latest));
  });
  CHECK(seen == 600);
  // A clear() during the walk ends it (a new run begins) rather than mixing two runs.
  int walked = 0;
  h.forEach([&](const Snapshot&) {
    if (++walked == 10) h.clear();
  });
  CHECK(walked == 256);  // the first chunk was already copied out
}

TEST_CASE("A writer and a reader thread share the history", "[sim][history][threads]") {
  SnapshotHistory h(snapshot_bytes(at(0)) * 1000);
  std::atomic<bool> done = false;
  std::thread writer([&] {
    for (long k = 0; k < 20000; ++k) step_to(h, k, at(k * 1e-3));
    done = true;
  });
  // The reader follows the records as the GUI does; decimation may drop some it has not seen,
  // but what it sees is in time order.
  long serial = 0;
  double last_t = -1;
  bool ordered = true;
  for (bool last = false; !last;) {
    last = done;
    std::vector<Snapshot> out;
    serial = h.copySince(serial, out);
    for (const Snapshot& s : out) ordered = ordered && s.t > last_t, last_t = s.t;
  }
  writer.join();
  CHECK(ordered);
  Snapshot latest;
  REQUIRE(h.latest(latest));
  CHECK(latest.t == Approx(19.999));
}

TEST_CASE("History keeps the run's contact events in step with its records", "[sim][history]") {
  SnapshotHistory h;
  for (long step = 0; step <= 100; ++step) step_to(h, step, at(step * 1e-2));
  h.addEvents({{0.215, "floor", "impact", 0.3}, {0.4, "floor", "lift_off", 0.0}});
  h.addEvents({{0.73, "floor", "impact", 0.1}});
  std::vector<Simulation::ContactEvent> all;
  CHECK(h.copyEvents(0, all) == 3);
  REQUIRE(all.size() == 3);
  CHECK(all[1].kind == "lift_off");
  std::vector<Simulation::ContactEvent> newer;
  CHECK(h.copyEvents(2, newer) == 3);  // a reader holding two copies only the third
  REQUIRE(newer.size() == 1);
  CHECK(newer[0].t == 0.73);
  // Resuming from t = 0.5: the events after the record kept go with the records.
  Snapshot kept;
  h.truncateAfter(0.5, kept);
  all.clear();
  CHECK(h.copyEvents(0, all) == 2);
  CHECK(all.back().t == 0.4);
  h.clear();
  all.clear();
  CHECK(h.copyEvents(0, all) == 0);
  // A chattering run keeps its first kMaxEvents.
  std::vector<Simulation::ContactEvent> many(SnapshotHistory::kMaxEvents + 10,
                                             {0.1, "c", "stick", 0});
  h.addEvents(many);
  CHECK(h.copyEvents(0, all) == SnapshotHistory::kMaxEvents);
}
