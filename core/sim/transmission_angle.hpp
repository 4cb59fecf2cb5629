#pragma once
// Transmission angles of the four-bar-like loops of a planar mechanism (design report,
// contract-additions-2 §4): a loop joint L closes a cycle of exactly four revolute joints (L and
// three tree joints, ground counted as a body). Its two bodies each have one more joint in the
// cycle; the transmission angle is the angle at L between the lines from L to those two joints,
// in [0, π]. When L joins the coupler and the output link of a four-bar (the spanning tree
// Articula chooses cuts there: ground-crank, crank-coupler and ground-rocker are the tree), it
// is the classical μ between coupler and rocker, with
//   cos μ = (b² + c² - a² - d² + 2 a d cos θ) / (2 b c)
// for crank a at angle θ from the ground link d, coupler b, rocker c.
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"

namespace articula {

struct TransmissionLoop {
  int loop = 0;                // index into mech.compiled.loops
  std::string joint;           // the loop joint's name (user joint)
  int body_p = 0, body_s = 0;  // model bodies whose frame origins are the two adjacent joints
};

// The loops that qualify (none unless mech.planar). Allocation-free evaluation afterwards.
std::vector<TransmissionLoop> transmission_loops(const Mechanism& mech);

// The angle at the loop joint, in rad, from the position kinematics in data (data.X0).
double transmission_angle(const Mechanism& mech, const Data& data, const TransmissionLoop& t);

}  // namespace articula
