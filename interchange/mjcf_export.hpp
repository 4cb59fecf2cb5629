#pragma once
// MJCF export (MuJoCo 2.2's XML), so a mechanism can be taken to MuJoCo with its loops kept.
//
// The body tree is Articula's spanning tree; each MuJoCo body frame is the model body's frame (its
// tree joint's successor frame), written at q = 0, so MuJoCo's qpos and qvel are Articula's
// coordinates joint by joint (revolute, prismatic, cylindrical, universal as two hinges, planar as
// a hinge and two slides, spherical as a ball; helical as a hinge and a slide tied by a joint
// equality). A loop joint becomes an auxiliary body of negligible mass (kAuxMass) on the
// predecessor carrying the joint's own degrees of freedom, welded to the successor: the loop
// keeps its type (MuJoCo's `connect` alone would turn a revolute loop into a ball and cannot
// express a prismatic one). Fixed loop joints are welds. Couplings are joint equalities, drives
// become nothing (MuJoCo actuators do not prescribe motion), limits are joint ranges, friction is
// frictionloss + damping, springs are stiffness + springref. A keyframe "assembled" holds the
// assembled configuration, loops closed.
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"

namespace articula {

inline constexpr double kAuxMass = 1e-12;  // kg, auxiliary loop bodies (MuJoCo wants mass > 0)

// Throws InterchangeError naming the joint for what MJCF cannot hold (a free joint below another
// body, a multi-DoF tree joint traversed child to parent). `warnings` gets what is dropped.
std::string to_mjcf(const Mechanism& mech, std::vector<std::string>& warnings);

}  // namespace articula
