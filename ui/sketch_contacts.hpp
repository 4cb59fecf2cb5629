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

// `scale`: pixels per metre; `reach`: how far (m) a plane's line runs each side of where its
// sphere is (the view's size: a plane is unbounded).
void drawContacts(QPainter& p, const MechanismSpec& spec, const BodyToWorld& to_world,
                  const std::function<QPointF(const Vec3&)>& to_screen, double scale, double reach);

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
