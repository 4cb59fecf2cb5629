// Closed loops: the factor graph (loop-acceleration factors, loop-joint forces in the wrench
// factors, the planar factor for the out-of-plane forces of planar loops) against the simulator's
// spatial RBDA 8.5 Method 2, an independent solve of the same mechanism (constraint rows on the
// spanning tree, multipliers by a pivoted factorisation). Every sample with loops, at the
// assembled state and along 0.3 s of its own driven motion: q̈ and the motion drives' forces to
// 1e-9 relative (the simulator's Baumgarte terms act on loop errors ≤ 1e-12: ~1e-10), for every
// elimination order.
#include "core/factor_graph/mechanism_dynamics.hpp"
#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"
#include "tests/support/fixtures.hpp"
#include "tests/support/matchers.hpp"

using namespace articula;
using namespace articula::fg;

namespace {
void compare(const Mechanism& m, Simulation& sim) {
  sim.evaluate();
  for (EliminationOrder o : kAllOrders) {
    MechanismDynamicsOptions opt;
    opt.order = o;
    const MechanismDynamicsResult r = mechanism_dynamics(m, sim.time(), sim.q(), sim.qd(), opt);
    INFO(m.spec.name << " at t = " << sim.time() << ", order " << order_name(o));
    CHECK_CLOSE(r.qdd, sim.qdd(), 1e-9);
    for (size_t k = 0; k < m.drives.size(); ++k) {
      const DriveBinding& d = m.drives[k];
      if (d.kind != DriveSpec::Kind::Motion) continue;
      const double expected = sim.joint_states()[d.user_joint].tau[0];
      const double got = d.v >= 0 ? r.tau[d.v] : r.drive_force[k];
      INFO("drive on " << m.spec.joints[d.user_joint].name);
      CHECK(std::abs(got - expected) <= 1e-9 * std::max(1.0, std::abs(expected)));
    }
  }
}
}  // namespace

TEST_CASE("Factor graph = Method 2 on every sample with loops, every order", "[factor_graph]") {
  int checked = 0;
  for (const char* file :
       {"fourbar.json", "slider_crank.json", "watt_six_bar.json", "stephenson_six_bar.json",
        "jansen_leg.json", "peaucellier.json", "bennett.json", "rssr.json", "rsur.json",
        "stewart_platform.json", "rrr3_planar.json", "excavator.json", "delta_robot.json"}) {
    const Mechanism m = prepare(load_project(test::sample_path(file)).spec);
    SimulationOptions so;
    so.solver = SolverChoice::Method2;
    so.planar_algebra = false;
    Simulation sim(m, so);
    compare(m, sim);
    for (int s = 0; s < 300; ++s) sim.step(1e-3, Integrator::RK4);
    compare(m, sim);
    ++checked;
  }
  CHECK(checked == 13);
}
