#pragma once
// A plottable quantity of a snapshot: a joint coordinate, rate, acceleration or generalized
// force, a component or magnitude of a joint's reaction wrench, or a whole-mechanism quantity
// (energies, loop error, drive power, the force of a joint coupling).
#include <QString>
#include <vector>

namespace articula {

struct Mechanism;
struct Snapshot;

struct Channel {
  enum class Quantity {
    Q,
    Qd,
    Qdd,
    Tau,  // per joint coordinate (index)
    Fx,
    Fy,
    Fz,
    Mx,
    My,
    Mz,  // reaction wrench, child joint frame
    ForceMagnitude,
    MomentMagnitude,
    Kinetic,
    Potential,
    Total,  // mechanism energies
    LoopError,
    Power,        // Σ τ·q̇ over the driven joints
    CouplingTau,  // generalized force of coupling `index` on its joint B
    StopForce,    // force λ of limit or contact `index` (bind_unilaterals order)
    Gap,          // its gap φ
    ImpactLoss,   // energy taken by impacts since t = 0
  };
  Quantity quantity = Quantity::Q;
  int joint = -1;  // user joint (file order); -1 for whole-mechanism quantities
  int index = 0;   // coordinate of a multi-DoF joint

  bool operator==(const Channel&) const = default;
  bool perJoint() const { return quantity <= Quantity::MomentMagnitude; }
};

// "A0.τ", "B.|F|", "kinetic energy".
QString channelName(const Channel& c, const Mechanism& m);
// ASCII key for files: "A0.tau", "B.F", "kinetic_energy".
QString channelKey(const Channel& c, const Mechanism& m);
// "N·m", "rad/s", ...
QString channelUnit(const Channel& c, const Mechanism& m);
// The physical quantity with its symbol, for axis titles: "torque τ", "reaction force |F|".
QString channelKind(const Channel& c, const Mechanism& m);
double channelValue(const Channel& c, const Snapshot& s, const Mechanism& m);

// The channels a joint offers, in menu order (coordinates expanded for multi-DoF joints).
std::vector<Channel> jointChannels(const Mechanism& m, int joint);
// Whole-mechanism quantities, then one per joint coupling (file order), then the force and the
// gap of each joint limit and contact, and the impact loss.
std::vector<Channel> mechanismChannels(const Mechanism& m);

}  // namespace articula
