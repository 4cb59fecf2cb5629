#pragma once
// The edits of the 3D view's building tools: a link between two points anywhere in space (a round
// bar whose mass follows its geometry, as drawn links do) and a joint of any 1-3 DoF kind at a
// point, joining two bodies with joint frames whose z axis is a chosen world direction. Points and
// directions are in world coordinates of the sketched poses (body.pose), as the sketch's edits
// are. Builders throw std::invalid_argument naming the problem, and change nothing.
#include <optional>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

// A joint to place: on ground (body = -1) or a body; revolute, prismatic, spherical or universal.
struct SpatialJoint {
  int body = -1;
  Joint joint = Joint::revolute();
  // World direction of the joint frame's z axis: the rotation axis (revolute), the slide
  // (prismatic), the first axis (universal; its second axis is the frame's y, perpendicular to z
  // and to `across`); a spherical joint ignores it. Any length but zero.
  Vec3 axis = Vec3::UnitZ();
  Vec3 across = Vec3::UnitX();  // universal: a direction the second axis is perpendicular to
};

// A joint frame (columns x, y, z) with z along `axis`, and y perpendicular to `across` where they
// are not parallel (else to the world axis least aligned with `axis`).
Mat3 joint_frame(const Vec3& axis, const Vec3& across);

// A round link of `diameter` (m) from world point a to world point b: its frame at a with x along
// b - a, sketch points at both ends, mass from the bar (extra.sketch.mass "bars", diameter). Each
// end given a joint is joined there to that joint's body (its parent) with the new link as child.
Edit add_spatial_link(EditableMechanism& doc, const Vec3& a, const Vec3& b, double diameter,
                      const std::optional<SpatialJoint>& at_a,
                      const std::optional<SpatialJoint>& at_b);

// A plate: a closed outline of round bars of `diameter` through three or more world points (its
// frame at the first, x towards the second, z normal to the first three), mass from the bars.
// Point i is joined as at[i] says (at may be shorter: the rest are free).
Edit add_spatial_plate(EditableMechanism& doc, const std::vector<Vec3>& points, double diameter,
                       const std::vector<std::optional<SpatialJoint>>& at);

// A joint at world point `at` with `parent.body` as parent and body `child` as child.
Edit add_spatial_joint(EditableMechanism& doc, const SpatialJoint& parent, int child,
                       const Vec3& at);

// A rigid motion of the world of the sketched poses: rotate by `rotation` about `pivot`, then
// translate by `delta` (m). What the 3D view's move/rotate gizmo makes.
struct RigidMove {
  Vec3 pivot = Vec3::Zero();
  Mat3 rotation = Mat3::Identity();  // proper orthogonal
  Vec3 delta = Vec3::Zero();
  Vec3 apply(const Vec3& p) const { return rotation * (p - pivot) + pivot + delta; }
};

// Moves joint `joint`'s frames (both, as placed in the world: their relation, so its sketched
// configuration, is kept) by `move`; the bodies stay where they are.
Edit move_joint_frames(const EditableMechanism& doc, int joint, const RigidMove& move);

// Moves body `body`'s sketched pose (its frame, with its geometry and the joint frames on it) by
// `move`.
Edit move_body_pose(const EditableMechanism& doc, int body, const RigidMove& move);

}  // namespace articula
