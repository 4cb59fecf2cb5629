#pragma once
// What the mechanism scene is built from, derived once from a prepared mechanism: the joint frames
// fixed on every model body (anchors), each body's distinct joint points, its inertia-equivalent
// solid, which bodies are drawn as prismatic slider blocks, and the characteristic length.
#include <vector>

#include "core/sim/mechanism.hpp"

namespace articula {

struct Anchor {
  int joint = 0;                              // user joint index
  int body = 0;                               // model body (0 = ground)
  bool child = true;                          // the joint's child side (else its parent side)
  Transform X;                                // ^{joint frame} X_{model body}
  Vec3 world0;                                // origin in world coordinates at the initial state
  const Vec3& origin() const { return X.r; }  // body coordinates
  Vec3 axis(int k) const { return X.E.row(k).transpose(); }  // joint axis k, body coordinates
};

// A solid with the body's mass and rotational inertia, centred on the centre of mass: a sphere
// when the principal moments agree, a cylinder when two do (axis along `axes.col(2)`), else a box.
struct InertiaSolid {
  bool sphere = false;
  bool cylinder = false;
  Vec3 center = Vec3::Zero();
  Mat3 axes = Mat3::Identity();  // columns: principal axes, body coordinates
  Vec3 half = Vec3::Zero();      // box half extents; cylinder: r, r, half length; sphere: r
  double extent() const { return 2 * half.maxCoeff(); }
};

struct SceneLayout {
  std::vector<Anchor> anchors;                 // 2j: parent side of joint j, 2j+1: child side
  std::vector<std::vector<int>> body_anchors;  // per model body: indices into anchors
  std::vector<std::vector<Vec3>> points;       // per model body: distinct joint points
  // Per model body: the centres of the contact spheres and cam rollers it carries (body
  // coordinates), apart from its joint points: a pawl is drawn reaching its roller.
  std::vector<std::vector<Vec3>> contact_points;
  std::vector<InertiaSolid> solids;  // per model body (ground: unused)
  std::vector<int> slider_joint;     // per model body: prismatic joint drawn as its block
  // per model body: a contact sphere centred on its only joint point (a ball on a guide), drawn as
  // the ball on its guide's rail instead of a slider block that would hide it
  std::vector<bool> ball;
  std::vector<Transform> X0;  // per model body: ^iX_0 at the initial state
  Vec3 up = Vec3::UnitY();    // opposite to gravity
  bool planar = false;        // moves in the world x-y plane
  double length = 1.0;        // characteristic length
};

// Throws nothing; a mechanism without joints gets length 1.
SceneLayout make_layout(const Mechanism& mech);

// The world-space bounding-box diagonal of every joint point and centre of mass at the initial
// state (1 when that is degenerate).
double characteristic_length(const Mechanism& mech);

InertiaSolid inertia_solid(const RigidBodyInertia& I);

}  // namespace articula
