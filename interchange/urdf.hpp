#pragma once
// URDF (ROS's Unified Robot Description Format) import through liburdfdom, and export.
//
// Import: one body per link (body frame = link frame), one joint per URDF joint with its joint
// frame's z along the URDF axis; revolute/continuous -> revolute, prismatic, fixed,
// floating -> free, planar -> planar (plane normal = axis). Limits become end stops (lower ==
// upper, as urdfdom reads absent bounds, and |bound| >= 1e15 mean none); <dynamics> friction and
// damping become Coulomb and viscous joint friction; <mimic> becomes a linear coupling (its
// offset becomes q0 of the mimicking joint). The root link is ground when it is called "world"
// or has no <inertial>; otherwise it is fixed to ground, with a warning. Gravity is -9.81 m/s^2
// along z (URDF has none). <visual> boxes, cylinders and spheres become the body's visuals
// (core/io/visual_json.hpp); meshes are warned about and left out.
// Export: tree mechanisms only (URDF cannot hold loops: they are refused by name, pointing to SDF
// or MJCF); link frames are the spanning tree's joint frames (visuals are moved into them),
// ground is the link "world".
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"
#include "interchange/xml_text.hpp"

namespace articula {

// Throws InterchangeError "source:line: <element name='...'>: problem".
MechanismSpec import_urdf(const std::string& text, const std::string& source,
                          std::vector<std::string>& warnings);
std::string to_urdf(const Mechanism& mech, std::vector<std::string>& warnings);

}  // namespace articula
