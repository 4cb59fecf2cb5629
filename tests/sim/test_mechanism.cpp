// prepare() marks the out-of-plane loop rows of planar mechanisms, which loop_constraints then
// skips. Checked against the unmarked computation along simulated motions: the skipped rows are
// zero there (to round-off) and every other row is unchanged; and their number per sample is the
// redundancy derived independently in samples/README.md (3 rows per planar loop).
#include <algorithm>
#include <bit>
#include <cmath>

#include "core/algorithms/loop_constraints.hpp"
#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;

TEST_CASE("planar mechanisms skip exactly their out-of-plane loop rows", "[sim][mechanism]") {
  struct Case {
    const char* file;
    int out_of_plane;  // samples/README.md: 3 redundant rows per planar loop
  };
  const Case cases[] = {{"fourbar.json", 3},      {"slider_crank.json", 3},
                        {"watt_six_bar.json", 6}, {"stephenson_six_bar.json", 6},
                        {"jansen_leg.json", 9},   {"peaucellier.json", 9},
                        {"rrr3_planar.json", 6},  {"stewart_platform.json", 0},
                        {"bennett.json", 0}};
  for (const Case& c : cases) {
    INFO(c.file);
    const Mechanism mech = prepare(load_project(test::sample_path(c.file)).spec);
    int marked = 0;
    for (const LoopJoint& l : mech.compiled.loops) marked += std::popcount(l.zero_rows);
    CHECK(marked == c.out_of_plane);
    CHECK(mech.planar == (c.out_of_plane > 0));
    std::vector<LoopJoint> unmarked = mech.compiled.loops;
    for (LoopJoint& l : unmarked) l.zero_rows = 0;
    Simulation sim(mech);
    Data d1(mech.model()), d2(mech.model());
    VecX delta1, delta2, k1, k2;
    MatX K1, K2;
    for (int step = 0; step <= 300; ++step) {
      if (step % 50 == 0) {
        loop_constraints(mech.model(), d1, mech.compiled.loops, sim.q(), sim.qd(), 20, 20, delta1,
                         K1, k1);
        loop_constraints(mech.model(), d2, unmarked, sim.q(), sim.qd(), 20, 20, delta2, K2, k2);
        const double scale = std::max(1.0, K2.cwiseAbs().maxCoeff());
        for (const LoopJoint& l : mech.compiled.loops)
          for (int r = 0; r < l.joint.nc(); ++r) {
            const int row = l.row + r;
            if (l.zero_rows >> r & 1u) {  // skipped: zero, and truly zero in the full computation
              CHECK(K1.row(row).isZero(0.0));
              CHECK(K2.row(row).cwiseAbs().maxCoeff() <= 1e-12 * scale);
            } else {  // the same arithmetic as without marks
              CHECK(K1.row(row) == K2.row(row));
              CHECK(k1[row] == k2[row]);
            }
          }
      }
      sim.step(1e-3, Integrator::RK4);
    }
  }
}
