#pragma once
// Kinematic dragging: move a body-fixed point of an assembled mechanism toward a target while
// every loop stays closed. Each step moves within the null space of the loop Jacobian K toward
// the target (damped least squares, so it stops at the reachable limit instead of breaking),
// then re-closes the loops with the assembly solver; a step is kept only if the loops close to
// 1e-12 and the point got nearer.
#include "core/sim/mechanism.hpp"

namespace articula {

struct DragResult {
  VecX q;                   // model coordinates after the drag
  double distance = 0.0;    // remaining distance from the point to the target (m)
  double loop_error = 0.0;  // max |δ| at q
  int iterations = 0;
};

// user_body: index into mech.spec.bodies; point in that body's frame; target in world
// coordinates. Motion-driven coordinates move too unless hold_drives.
DragResult drag_point(const Mechanism& mech, const VecX& q_start, int user_body, const Vec3& point,
                      const Vec3& target, bool hold_drives = false, int max_iterations = 100);

// World position of a user body's point at configuration q.
Vec3 body_point_world(const Mechanism& mech, const VecX& q, int user_body, const Vec3& point);

}  // namespace articula
