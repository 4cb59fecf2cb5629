// Issue 16's Simbody gate on contacts (peer_contact_gate.hpp): the door_stop and bouncing_ball
// samples run by Articula (impacts located to 1e-12 s) and by Simbody 3.7's rigid-contact time
// stepper, printed at start-up with --contact-gate (Simbody's stepper takes seconds at its 1e-5 s
// step): the same impacts, Simbody's times within some tens of its steps of the located ones,
// its rebound ratios e.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bench/peer_contact_gate.hpp"
#include "core/algorithms/crba.hpp"
#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"

namespace articula::bench {

namespace {
// Articula's impacts in a run of the sample from its file's state, RK4 at 1 ms: times and the
// approach speeds, from the impulse p = m (1 + e) v of the one coordinate (m: its inertia).
std::vector<PeerImpact> articula_impacts(const Mechanism& mech, double t_end, double m, double e) {
  Simulation sim(mech);
  std::vector<PeerImpact> out;
  while (sim.time() < t_end - 1e-9) {
    sim.step(1e-3, Integrator::RK4);
    for (const auto& ev : sim.take_events())
      if (ev.kind == "impact")
        out.push_back({ev.t, ev.impulse / (m * (1 + e)), e * ev.impulse / (m * (1 + e))});
  }
  return out;
}

// The impacts faster than 1 cm/s (or 10 mrad/s) in both: how many, Simbody's nearest in time to
// each of Articula's (largest |Δt|), and the largest departure of Simbody's rebound ratio from e.
struct GateAgreement {
  double dt = 0, ratio = 0;
  std::size_t ours = 0, simbody = 0;
};
GateAgreement gate_agreement(const std::vector<PeerImpact>& ours,
                             const std::vector<PeerImpact>& peer, double e) {
  GateAgreement g;
  for (const PeerImpact& p : peer)
    if (std::abs(p.before) > 1e-2)
      ++g.simbody, g.ratio = std::max(g.ratio, std::abs(-p.after / p.before - e));
  for (const PeerImpact& a : ours) {
    if (std::abs(a.before) <= 1e-2) continue;
    ++g.ours;
    double best = 1e9;
    for (const PeerImpact& p : peer) best = std::min(best, std::abs(p.t - a.t));
    g.dt = std::max(g.dt, best);
  }
  return g;
}

bool report_contact_gate(const char* name, const std::vector<PeerImpact>& ours,
                         const std::vector<PeerImpact>& peer, double e, double h) {
  const GateAgreement g = gate_agreement(ours, peer, e);
  if (std::getenv("ARTICULA_GATE_VERBOSE")) {
    for (const PeerImpact& a : ours) std::fprintf(stderr, "  articula %.9f %.6g\n", a.t, a.before);
    for (const PeerImpact& p : peer)
      std::fprintf(stderr, "  simbody %.9f %.6g -> %.6g\n", p.t, p.before, p.after);
  }
  // Simbody resolves an impact within the step that reaches it and integrates to first order:
  // its impact times can agree with the located ones to some tens of its steps, its rebound
  // ratios (of speeds at the ends of the impact's step: a h off) to a few 1e-3 at 1 cm/s.
  const bool ok = g.simbody == g.ours && g.dt <= 50 * h && g.ratio <= 5e-3;
  std::fprintf(stderr,
               "articula-bench: gate: Simbody's %s (SemiExplicitEulerTimeStepper, h = %g s): %zu "
               "impacts over 1 cm/s as Articula's %zu, times within %.2g s, rebound ratios e "
               "to %.1g%s\n",
               name, h, g.simbody, g.ours, g.dt, g.ratio, ok ? "" : ": DISAGREES");
  return ok;
}
}  // namespace

bool simbody_contact_gate(const std::string& samples_dir) {
  const Mechanism door = prepare(load_project(samples_dir + "/door_stop.json").spec);
  const JointSpec& hinge = door.spec.joints[0];
  Data data(door.model());
  crba(door.model(), data, door.q0);
  const HingeStopCase d{data.H(0, 0),
                        hinge.spring->stiffness,
                        hinge.spring->rest,
                        hinge.spring->damping,
                        *hinge.limits->lower,
                        *hinge.limits->upper,
                        hinge.limits->restitution,
                        door.q0[0],
                        door.qd0[0],
                        2.6,
                        1e-5};
  const bool door_ok =
      report_contact_gate("door_stop", articula_impacts(door, d.t_end, d.inertia, d.e),
                          simbody_hinge_stop(d), d.e, d.step);
  const Mechanism ball = prepare(load_project(samples_dir + "/bouncing_ball.json").spec);
  const ContactSpec& floor = ball.spec.contacts[0];
  const BallDropCase b{ball.spec.bodies[0].mass, floor.radius, ball.q0[0], floor.restitution,
                       -ball.spec.gravity.y(),   1.2,          1e-5};
  const bool ball_ok =
      report_contact_gate("bouncing_ball", articula_impacts(ball, b.t_end, b.mass, b.e),
                          simbody_ball_drop(b), b.e, b.step);
  return door_ok && ball_ok;
}

}  // namespace articula::bench
