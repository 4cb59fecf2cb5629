#pragma once
// SDFormat (1.9, read by libsdformat 12) import and export, closed chains kept.
//
// Import: one body per link (body frame = link frame, sketched pose = the link's pose in the
// model), one joint per SDF joint whose frame's z is the axis; the compiler picks the spanning
// tree, so joints whose child is already reached become loop joints. revolute/continuous ->
// revolute, prismatic, screw -> helical (pitch = 1 / thread_pitch: thread_pitch in rad/m, as
// Gazebo classic reads it), universal/revolute2 -> universal (axis along z, axis2 along y; they
// must be perpendicular), ball -> spherical, fixed. gearbox -> a coupling between the two 1-DoF
// joints that join its reference body to its parent and child links (theta2 = -ratio theta1).
// Limits and axis dynamics as in URDF; spring stiffness and damping become a joint spring. Links
// that no joint connects to the world get a free joint from ground (warned); a static model is
// fixed. Gravity comes from the <world> when there is one, else -9.81 along z. <visual> boxes,
// cylinders and spheres become the body's visuals; other geometry is warned about.
// Export: a <world> holding the gravity and one <model>, links at the assembled configuration
// (which is then q = 0 in SDF: 1-DoF and universal coordinates shift by their assembled values,
// spherical ones by the assembled rotation), loop joints as ordinary joints, couplings between
// joints that share a body as gearbox joints, body visuals as <visual> elements.
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"
#include "interchange/xml_text.hpp"

namespace articula {

// Throws InterchangeError "source:line: problem" (libsdformat's own messages keep its wording).
MechanismSpec import_sdf(const std::string& text, const std::string& source,
                         std::vector<std::string>& warnings);
std::string to_sdf(const Mechanism& mech, std::vector<std::string>& warnings);

}  // namespace articula
