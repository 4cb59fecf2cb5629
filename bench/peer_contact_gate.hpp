#pragma once
// Issue 16's Simbody gate on contacts: two of the contact samples in plain data (no Eigen: the
// Simbody translation units are compiled without NDEBUG, peer_model.hpp), moved by Simbody 3.7's
// rigid-contact time stepper (SemiExplicitEulerTimeStepper: velocity level, impulses with the
// coefficient of restitution, first order in its step), whose impacts bench_contacts.cpp sets
// beside Articula's located ones.
#include <string>
#include <vector>

namespace articula::bench {

// A door on a vertical hinge (gravity along the axis: no torque), a torsion spring and damper,
// end stops with restitution: the door_stop sample.
struct HingeStopCase {
  double inertia = 0;                  // about the hinge, kg m²
  double stiffness = 0, rest = 0;      // N m / rad, rad
  double damping = 0;                  // N m s / rad
  double lower = 0, upper = 0, e = 0;  // stops (rad) and their restitution
  double q0 = 0, qd0 = 0, t_end = 0, step = 0;
};

// A ball on a vertical guide dropped onto the floor: the bouncing_ball sample.
struct BallDropCase {
  double mass = 0, radius = 0, height = 0, e = 0, g = 0;  // height: of the centre at rest
  double t_end = 0, step = 0;
};

// An impact the stepper made: the step at whose end the rate turned back, and the rates (of the
// coordinate) before and after it.
struct PeerImpact {
  double t = 0, before = 0, after = 0;
};

std::vector<PeerImpact> simbody_hinge_stop(const HingeStopCase& c);
std::vector<PeerImpact> simbody_ball_drop(const BallDropCase& c);

// Runs both cases in Articula and Simbody and prints the agreement (contact_gate.cpp); false
// when they disagree.
bool simbody_contact_gate(const std::string& samples_dir);
}  // namespace articula::bench
