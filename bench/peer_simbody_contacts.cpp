// Simbody 3.7's rigid contacts for issue 16's gate (peer_contact_gate.hpp): HardStopLower/Upper
// on a Pin's angle and PointPlaneFrictionlessContact under a Slider, stepped by
// SemiExplicitEulerTimeStepper at a fixed step with Newton restitution and the COR made constant
// (Simbody's COR rises at low impact speeds unless the min-COR and capture speeds are tiny).
#include <Simbody.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "bench/peer_contact_gate.hpp"

namespace articula::bench {

namespace {
// Steps to t_end, recording each step at whose end the coordinate's rate, which approached a
// stop (within `near` of one of `stops`: its value and the sign of an approaching rate), turned
// back: an impact the stepper resolved within that step. Debian's
// Simbody 3.7 prints its proximal and distal contact sets at every step of this (experimental)
// stepper to stdout: that is sent to /dev/null meanwhile.
std::vector<PeerImpact> step_and_record(const SimTK::MultibodySystem& system, SimTK::State& s,
                                        double t_end, double h,
                                        const std::vector<std::pair<double, double>>& stops,
                                        double near) {
  std::fflush(stdout);
  const int saved = dup(1), null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  SimTK::SemiExplicitEulerTimeStepper ts(system);
  ts.setRestitutionModel(SimTK::SemiExplicitEulerTimeStepper::Newton);
  ts.setDefaultImpactCaptureVelocity(1e-7);
  ts.setDefaultImpactMinCORVelocity(1e-7);
  ts.setConstraintTolerance(1e-10);
  ts.initialize(s);
  std::vector<PeerImpact> out;
  double u = ts.getState().getU()[0];
  for (int k = 1; ts.getTime() < t_end - 0.5 * h; ++k) {
    ts.stepTo(k * h);
    const double un = ts.getState().getU()[0], q = ts.getState().getQ()[0];
    for (const auto& [stop, approach] : stops)
      if (std::abs(q - stop) < near && u * approach > 0 && un * approach <= 0)
        out.push_back({ts.getTime(), u, un});
    u = un;
  }
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved), close(null);
  return out;
}
}  // namespace

std::vector<PeerImpact> simbody_hinge_stop(const HingeStopCase& c) {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter(system);
  SimTK::GeneralForceSubsystem forces(system);
  const SimTK::Body::Rigid body(
      SimTK::MassProperties(1.0, SimTK::Vec3(0), SimTK::Inertia(c.inertia, c.inertia, c.inertia)));
  SimTK::MobilizedBody::Pin door(matter.Ground(), SimTK::Transform(), body, SimTK::Transform());
  SimTK::Force::MobilityLinearSpring(forces, door, SimTK::MobilizerQIndex(0), c.stiffness, c.rest);
  SimTK::Force::MobilityLinearDamper(forces, door, SimTK::MobilizerUIndex(0), c.damping);
  matter.adoptUnilateralContact(
      new SimTK::HardStopLower(door, SimTK::MobilizerQIndex(0), c.lower, c.e));
  matter.adoptUnilateralContact(
      new SimTK::HardStopUpper(door, SimTK::MobilizerQIndex(0), c.upper, c.e));
  SimTK::State s = system.realizeTopology();
  door.setOneQ(s, 0, c.q0);
  door.setOneU(s, 0, c.qd0);
  return step_and_record(system, s, c.t_end, c.step, {{c.lower, -1.0}, {c.upper, 1.0}}, 1e-3);
}

std::vector<PeerImpact> simbody_ball_drop(const BallDropCase& c) {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter(system);
  SimTK::GeneralForceSubsystem forces(system);
  SimTK::Force::UniformGravity(forces, matter, SimTK::Vec3(0, -c.g, 0));
  const SimTK::Body::Rigid body(
      SimTK::MassProperties(c.mass, SimTK::Vec3(0), SimTK::Inertia(1e-4)));
  // A Slider moves along its frames' x: turned about z so that it moves along y (the ball's own
  // frame stays aligned with the world's: X_GB = Rz T_x(q) Rz^-1 = T_y(q)).
  const SimTK::Transform up(SimTK::Rotation(SimTK::Pi / 2, SimTK::ZAxis));
  SimTK::MobilizedBody::Slider ball(matter.Ground(), up, body, up);
  matter.adoptUnilateralContact(new SimTK::PointPlaneFrictionlessContact(
      matter.Ground(), SimTK::UnitVec3(0, 1, 0), 0.0, ball, SimTK::Vec3(0, -c.radius, 0), c.e));
  SimTK::State s = system.realizeTopology();
  ball.setOneQ(s, 0, c.height);
  return step_and_record(system, s, c.t_end, c.step, {{c.radius, -1.0}}, 1e-3);
}

}  // namespace articula::bench
