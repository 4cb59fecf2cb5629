// Plot channels of limits and contacts (ui/channel.cpp) read through the binding cached per model:
// names, keys, units and values over a recorded history are exactly those of binding the model's
// unilaterals again for every read (the behaviour before the cache), and a change of model is
// never served the previous model's binding.
#include <catch2/catch.hpp>
#include <memory>

#include "core/io/project.hpp"
#include "core/sim/contact/unilateral.hpp"
#include "core/sim/snapshot.hpp"
#include "tests/support/fixtures.hpp"
#include "ui/channel.hpp"

using namespace articula;
using Q = Channel::Quantity;

namespace {
std::shared_ptr<const Mechanism> shared(const char* file) {
  return std::make_shared<const Mechanism>(prepare(load_project(test::sample_path(file)).spec));
}

// `steps` RK4 steps of h, a snapshot after each.
std::vector<Snapshot> record(const Mechanism& m, int steps, double h) {
  Simulation sim(m);
  Data data(m.model());
  std::vector<Snapshot> out(steps);
  for (Snapshot& s : out) {
    sim.step(h, Integrator::RK4);
    sim.evaluate();
    take_snapshot(sim, data, s);
  }
  return out;
}

std::vector<Channel> stopChannels(const Mechanism& m) {
  std::vector<Channel> out;
  for (const Channel& c : mechanismChannels(m))
    if (c.quantity == Q::StopForce || c.quantity == Q::Gap) out.push_back(c);
  return out;
}

// Everything a plot shows of a channel; `plain` is the same model not owned by a shared_ptr, which
// binds on every call (the reference).
void requireSameText(const Channel& c, const Mechanism& m, const Mechanism& plain) {
  REQUIRE(channelName(c, m) == channelName(c, plain));
  REQUIRE(channelKey(c, m) == channelKey(c, plain));
  REQUIRE(channelUnit(c, m) == channelUnit(c, plain));
  REQUIRE(channelKind(c, m) == channelKind(c, plain));
}
}  // namespace

TEST_CASE("stop and gap channels over a history equal the per-read binding", "[ui][channel]") {
  // A joint limit, a sphere on the floor (resting on it by t = 1.5 s), a cam roller.
  int forces = 0;  // nonzero forces seen: the comparison is not of zeros only
  for (const char* file : {"door_stop.json", "bouncing_ball.json", "cam_follower.json"}) {
    INFO(file);
    const std::shared_ptr<const Mechanism> m = shared(file);
    const Mechanism plain = *m;  // a copy is a new identity, and not shared: bound per call
    REQUIRE(plain.weak_from_this().expired());
    const std::vector<Channel> channels = stopChannels(*m);
    REQUIRE(channels == stopChannels(plain));
    const std::vector<Snapshot> history = record(*m, 1500, 1e-3);
    int gaps = 0;
    for (std::size_t k = 0; k < history.size(); ++k) {
      const Snapshot& s = history[k];
      const std::vector<Unilateral> bound = bind_unilaterals(*m);  // per sample, as before
      REQUIRE(bound.size() == s.unilateral_force.size());
      for (const Channel& c : channels) {
        const bool force = c.quantity == Q::StopForce;
        const double expected = force ? s.unilateral_force[c.index] : s.gap[c.index];
        REQUIRE(channelValue(c, s, *m) == expected);  // exact: the same entry
        REQUIRE(channelName(c, *m).startsWith(QString::fromStdString(bound[c.index].name)));
        if (k % 50 == 0) requireSameText(c, *m, plain);  // the reference binds 4 times a call
        (force ? forces : gaps) += expected != 0.0;
      }
    }
    CHECK(gaps > 0);
  }
  CHECK(forces > 0);
}

TEST_CASE("a change of model is never read through the previous model's binding", "[ui][channel]") {
  std::shared_ptr<const Mechanism> a = shared("door_stop.json");           // hinge: a rotary limit
  std::shared_ptr<const Mechanism> b = shared("incline_stick_slip.json");  // contacts, slides
  const Mechanism plain_a = *a, plain_b = *b;
  const std::vector<Channel> ca = stopChannels(*a), cb = stopChannels(*b);
  REQUIRE(ca.size() != cb.size());
  for (int round = 0; round < 2; ++round) {  // a, b, a, b: each read follows a change of model
    for (const Channel& c : ca) requireSameText(c, *a, plain_a);
    for (const Channel& c : cb) requireSameText(c, *b, plain_b);
  }
  CHECK(channelUnit(ca[0], *a) == "N·m");  // the hinge's limit torque
  CHECK(channelUnit(cb[0], *b) == "N");    // a contact's normal force
  CHECK(channelName(ca[0], *a) != channelName(cb[0], *b));

  // The model replaced as the document replaces it (the old one freed, a new one made, likely in
  // the freed memory): the new model's own channels, never the old binding.
  a.reset();
  std::shared_ptr<const Mechanism> c = shared("geneva.json");  // four slots
  const Mechanism plain_c = *c;
  const std::vector<Channel> cc = stopChannels(*c);
  REQUIRE(cc.size() == stopChannels(plain_c).size());
  for (const Channel& ch : cc) requireSameText(ch, *c, plain_c);
  // A copy of a shared model into a new shared_ptr is its own identity, read correctly too.
  const auto b2 = std::make_shared<const Mechanism>(*b);
  for (const Channel& ch : cb) requireSameText(ch, *b2, plain_b);
}

TEST_CASE("models not owned by a shared_ptr are bound on every read", "[ui][channel]") {
  // Two models one after the other on the stack, likely at the same address: each its own names.
  QString first, second;
  {
    const Mechanism m = prepare(load_project(test::sample_path("door_stop.json")).spec);
    first = channelName(stopChannels(m).at(0), m);
  }
  {
    const Mechanism m = prepare(load_project(test::sample_path("bouncing_ball.json")).spec);
    second = channelName(stopChannels(m).at(0), m);
  }
  CHECK(first.startsWith("hinge"));
  CHECK(second.startsWith("floor"));
}
