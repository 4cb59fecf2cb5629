// Every sample: loads, round-trips, assembles to <= 1e-12, has the mobility and redundancy derived
// independently in samples/README.md, and simulates 10 s without NaN, loop error <= 1e-9.
#include <cmath>
#include <filesystem>
#include <sstream>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

namespace {
struct Expected {
  const char* file;
  int mobility;
  int redundant;
  int loops;
};
// From samples/README.md (derived there from the mechanism geometry, not from this code):
// planar single loops of revolute/prismatic joints have 3 redundant rows per loop (the out-of-plane
// rotations and translation); the Bennett linkage is a 4R loop with 5 cut rows of rank 2; the
// Stewart platform's U-P-S legs cannot spin, so its mobility is 6 with no redundancy.
const Expected kSamples[] = {
    {"pendulum.json", 1, 0, 0},
    {"double_pendulum.json", 2, 0, 0},
    {"fourbar.json", 1, 3, 1},
    {"slider_crank.json", 1, 3, 1},
    {"watt_six_bar.json", 1, 6, 2},
    {"stephenson_six_bar.json", 1, 6, 2},
    {"jansen_leg.json", 1, 9, 3},
    {"peaucellier.json", 1, 9, 3},
    {"bennett.json", 1, 3, 1},
    {"rssr.json", 2, 0, 1},
    {"stewart_platform.json", 6, 0, 5},
    {"rrr3_planar.json", 3, 6, 2},
    {"puma560.json", 6, 0, 0},
    {"excavator.json", 1, 3, 1},
    {"delta_robot.json", 3, 0, 2},
    {"rsur.json", 1, 0, 1},
    {"geared_crank_rocker.json", 1, 3, 1},
    {"rack_pinion_steering.json", 1, 6, 2},
    {"bouncing_ball.json", 1, 0, 0},
    {"door_stop.json", 1, 0, 0},
    {"cam_follower.json", 2, 0, 0},
    {"incline_stick_slip.json", 6, 0, 0},
    {"geneva.json", 2, 0, 0},
    {"ratchet.json", 2, 0, 0},
    {"strandbeest_walker.json", 4, 108, 36},
};

std::string sample_path(const char* file) {
  return std::string(ARTICULA_SOURCE_DIR) + "/samples/" + file;
}
}  // namespace

TEST_CASE("Every sample file is listed here", "[samples]") {
  int n = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(ARTICULA_SOURCE_DIR) + "/samples"))
    n += e.path().extension() == ".json";
  CHECK(n == static_cast<int>(std::size(kSamples)));
}

TEST_CASE("Samples load, round-trip and assemble with the known mobility", "[samples]") {
  for (const Expected& e : kSamples) {
    SECTION(e.file) {
      const LoadResult r = load_project(sample_path(e.file));
      CHECK(r.warnings.empty());
      CHECK(parse_project(to_text(r.spec)).spec == r.spec);  // load → save → load is identical
      const Mechanism m = prepare(r.spec);
      CHECK(m.assembly.residual <= 1e-12);
      CHECK(m.mobility.mobility == e.mobility);
      CHECK(m.mobility.redundant == e.redundant);
      CHECK(static_cast<int>(m.compiled.loops.size()) == e.loops);
    }
  }
}

// Samples with contacts run their own duration: the cam sample's drive runs up without bound, and
// past its duration the follower chatters on the racing cam.
TEST_CASE("Samples simulate 10 s with closed loops and finite outputs", "[samples][slow]") {
  for (const Expected& e : kSamples) {
    SECTION(e.file) {
      const MechanismSpec spec = load_project(sample_path(e.file)).spec;
      const Mechanism m = prepare(spec);
      Simulation sim(m);
      double worst_loop = 0.0;
      bool finite = true;
      const double h = 1e-3, T = spec.contacts.empty() ? 10.0 : spec.simulation->duration;
      const int steps = static_cast<int>(std::lround(T / h));
      for (int n = 1; n <= steps; ++n) {
        sim.step(h, Integrator::RK4);
        if (n % 50 == 0 || n == steps) {
          sim.evaluate();
          worst_loop = std::max(worst_loop, sim.loop_error());
          finite = finite && sim.qdd().allFinite() && sim.tau().allFinite();
          for (const Force& w : sim.wrench()) finite = finite && w.allFinite();
        }
      }
      INFO("largest loop error " << worst_loop);
      CHECK(finite);
      CHECK(worst_loop <= 1e-9);  // the projection keeps it near round-off
      CHECK(std::abs(sim.time() - T) < 1e-9);
    }
  }
}
