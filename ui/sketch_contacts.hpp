#pragma once
// Contacts and joint end stops in the sketch (contract-additions-2 §2): each contact's sphere as a
// circle on its body (a dot for a point), and its surface on the other body: a plane as a hatched
// line (the ground's grey, or the body's colour), a cam's profile, a slot's two rails. Drawn from
// the file and the poses on display, so they move with their bodies.
#include <QPointF>
#include <functional>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

class QPainter;

namespace articula {

// A point given in a body's frame (file body index, -1 = ground) in world coordinates.
using BodyToWorld = std::function<Vec3(int body, const Vec3& local)>;

// A contact as the sketch draws it and picks it (world; the sketch plane is x-y, z is dropped
// when drawn): its sphere on its body and its surface on the other body.
struct ContactShape {
  int contact = -1;            // spec.contacts index
  Vec3 centre = Vec3::Zero();  // the sphere's centre: the body's point c.point, where it is now
  double radius = 0.0;         // m (0: a point, drawn as a dot)
  bool ground = false;         // the surface is on ground (drawn grey)
  std::vector<std::vector<Vec3>> lines;  // the surface as world polylines: a plane's line through
                                         // the foot of the centre, `reach` each side; a cam's
                                         // closed profile (first point repeated); a slot's rails
  Vec3 normal = Vec3::Zero();  // a plane: unit outward normal in the sketch plane (hatches on
                               // the other side); zero for other surfaces
};
// `reach`: how far (m) a plane's line runs each side of where its sphere is (the view's size: a
// plane is unbounded). Contacts naming unknown bodies, and planes facing the viewer, are skipped.
std::vector<ContactShape> contactShapes(const MechanismSpec& spec, const BodyToWorld& to_world,
                                        double reach);

// `scale`: pixels per metre; `selected`: the spec.contacts index drawn highlighted (-1: none).
void drawContacts(QPainter& p, const MechanismSpec& spec, const BodyToWorld& to_world,
                  const std::function<QPointF(const Vec3&)>& to_screen, double scale, double reach,
                  int selected = -1);

// The contact drawn at a screen point, or -1: with `surfaces` false, a sphere whose circle (its
// rim, or all of it when smaller than `tolerance` pixels) is within `tolerance` pixels; with
// `surfaces` true, a surface whose drawn line is, the nearest sphere winning among several (the
// walker's feet share one ground line).
int contactAt(const std::vector<ContactShape>& shapes,
              const std::function<QPointF(const Vec3&)>& to_screen, double scale,
              const QPointF& screen, double tolerance, bool surfaces);

// World points that bound what drawContacts draws, each with the body it belongs to (file index,
// -1 = ground), for fitting the view: a sphere's box, a slot's rail ends, a cam's profile. Planes
// are unbounded and add nothing beyond their sphere.
struct ContactPoint {
  int body;
  Vec3 world;
};
std::vector<ContactPoint> contactExtent(const MechanismSpec& spec, const BodyToWorld& to_world);

// The end stops of revolute and prismatic joints: an arc over a revolute joint's range, from its
// parent frame's x axis (q = 0), with a bar at each bound; bars across a slider's axis at its
// bounds.
void drawJointLimits(QPainter& p, const MechanismSpec& spec, const BodyToWorld& to_world,
                     const std::function<QPointF(const Vec3&)>& to_screen);

}  // namespace articula
