#pragma once
// Planar sketch geometry on top of a MechanismSpec: the points a user drew (link ends, ternary
// corners, ground pivots), where they are in the world, and default mass properties of a drawn
// link. Sketch-only data lives in extension fields (docs/format-extensions.md):
//   body.extra["sketch"]["points"]   body-frame points of the drawn link
//   body.extra["sketch"]["mass"]     "bars" while mass and inertia follow the drawn geometry
//   spec.extra["sketch"]["ground_points"]  ground pivots not yet used by a joint
#include <vector>

#include "core/spec/link_inertia.hpp"
#include "core/spec/mechanism_spec.hpp"

namespace articula {

// What a drawn link is made of: by default an aluminium bar 20 × 6 mm (0.324 kg/m); the body's
// extra.sketch.material ("steel", "aluminium") chooses the material, extra.sketch.diameter (m) a
// round bar instead (the 3D view's Link tool).
struct LinkStock {
  BarSection section = BarSection::rectangular(0.02, 0.006);
  Material material = Material::aluminium();
  static LinkStock of(const BodySpec& body);
};

// A point of the sketch: on ground (body = -1) or on a body, in that body's frame.
struct SketchPoint {
  int body = -1;
  Vec3 local = Vec3::Zero();
  Vec3 world = Vec3::Zero();
};

// World pose helpers (a body without a pose sits at the origin).
Vec3 to_world(const MechanismSpec& spec, int body, const Vec3& local);
Vec3 to_local(const MechanismSpec& spec, int body, const Vec3& world);
// The joint's location in the world as sketched (its parent frame origin).
Vec3 joint_world_point(const MechanismSpec& spec, int joint);

// The drawn points of a body (its sketch points, else its joint frame origins).
std::vector<Vec3> body_points(const MechanismSpec& spec, int body);
// Every distinct point of the sketch: ground pivots and joint points on ground, then each body's.
std::vector<SketchPoint> sketch_points(const MechanismSpec& spec);
std::vector<Vec3> ground_points(const MechanismSpec& spec);

// Mass, centre of mass and inertia (core/spec/link_inertia) of bars along the edges of a polygon
// of body points (two points: one bar; three or more: a closed outline). One point: a slider
// block 50 × 20 × 20 mm.
void bar_mass_properties(const std::vector<Vec3>& points, const LinkStock& stock, BodySpec& body);

bool mass_from_sketch(const BodySpec& body);  // extra.sketch.mass == "bars"

}  // namespace articula
