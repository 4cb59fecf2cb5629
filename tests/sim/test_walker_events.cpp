// The Strandbeest walker's first second against the path that stepped it before the speed-ups of
// session 21 (issue 16): the slipping feet's friction re-solved with Method 2's factors kept
// (bit for bit a full solve: test_sparse_dynamics), and events bracketed with a closing step
// once the root is known to 1e-12 s (the same bracket width, other points inside it). The
// reference numbers are that path's, from `articula-cli simulate strandbeest_walker.json
// --duration 1` at commit f2b21cc.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/fixtures.hpp"

using namespace articula;

TEST_CASE("The walker's first second: events, distance and energy as the previous path had them",
          "[sim][contacts][walker]") {
  const Mechanism mech = prepare(load_project(test::sample_path("strandbeest_walker.json")).spec);
  int x = -1;  // the chassis' planar joint [θ, x, y]
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j)
    if (mech.spec.joints[j].joint.type == JointType::Planar && !mech.compiled.joint_map[j].loop)
      x = mech.compiled.q_index(static_cast<int>(j));
  REQUIRE(x >= 0);
  Simulation sim(mech);
  int impacts = 0, sticks = 0, others = 0;
  double loop_error = 0.0;
  for (int k = 1; k <= 1000; ++k) {
    sim.step(1e-3, Integrator::RK4);
    for (const auto& e : sim.take_events())
      e.kind == "impact" ? ++impacts : e.kind == "stick" ? ++sticks : ++others;
    if (k == 14) {  // before the first impact (t = 0.01402 s) the arithmetic is the same: 0 apart
      CHECK(std::abs(sim.q()[x] - 6.669882475114255e-06) <= 1e-15);
      CHECK(std::abs(sim.q()[x + 1] - 5.374965127915697e-06) <= 1e-15);
      CHECK(std::abs(sim.q()[x + 2] - 0.9376023781354907) <= 1e-15);
    }
    if (k % 10) continue;
    sim.evaluate();
    loop_error = std::max(loop_error, sim.loop_error());
  }
  CHECK(loop_error <= 1e-12);  // the projection's tolerance, through 82 impacts
  // The same events: event times agree to 8.1e-10 s (each event's bracket is 1e-12 s wide, and
  // the states after the first differ by that much), not enough to change which happen.
  CHECK(impacts == 82);
  CHECK(sticks == 29);
  CHECK(others == 0);
  // Walked 0.6736035155 m before, 1.5e-10 m off after session 24, 7.6e-8 m after session 28's
  // impulse for the rates left at rest: 1e-6 m leaves room for round-off elsewhere (another
  // compiler's), far under a changed gait's centimetres.
  CHECK(std::abs(sim.q()[x + 1] - 0.6736035155135398) <= 1e-6);
  sim.evaluate();
  const Simulation::Energy& e = sim.energy();
  // The energy account (J) to 1e-6 J of the 12 J dissipated. The reference is the path since
  // session 28, whose feet held from rest lose their leftover rates by an accounted impulse
  // instead of a projection: T is 1.04e-5 J under the old path's (the energy the projections
  // made up), dissipation 5.5e-6 J and impact loss 6.5e-7 J over it.
  CHECK(std::abs(e.kinetic - 16.213219005680518) <= 1e-6);
  CHECK(std::abs(e.dissipated - 11.901143677814208) <= 1e-6);
  CHECK(std::abs(e.impact_loss - 3.165587373619621) <= 1e-6);
  // The balance itself: 1.3e-7 J of the 15 J dissipated (measured). It was 3.2e-5 J while the
  // rates left on feet held from rest (under kRest) were projected away unaccounted: a Euclidean
  // correction of 6.6e-7 m/s moved T by 1.1e-5 J at t = 0.508 s. They are now taken out by a
  // plastic impulse whose work is booked (absorb_closed_rates in simulation_contacts.cpp).
  CHECK(std::abs(e.residual) <= 3e-7);
}
