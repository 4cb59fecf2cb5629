#include "render/contact_overlay.hpp"

#include <cmath>
#include <osg/BlendFunc>
#include <osg/Depth>
#include <osg/Geode>

#include "core/model/data.hpp"
#include "core/sim/contact/unilateral.hpp"
#include "core/sim/snapshot.hpp"
#include "render/osg_convert.hpp"
#include "render/overlays.hpp"
#include "render/primitives.hpp"
#include "render/scene_layout.hpp"
#include "render/scene_pick.hpp"

namespace articula {

struct ContactOverlay::Bound {
  explicit Bound(const Mechanism& mech) : items(bind_unilaterals(mech)), data(mech.model()) {}
  std::vector<Unilateral> items;
  std::vector<int> normal;               // per contact: its Contact or Slot item
  std::vector<std::vector<int>> slides;  // per contact: its friction items (tangents)
  Data data;                             // X0 from the snapshot: where contact_hit looks
};

namespace {

using Bodies = std::vector<osg::ref_ptr<osg::MatrixTransform>>;

// The world position of a point given in model body coordinates at the layout's initial state.
Vec3 world_at_start(const SceneLayout& layout, int body, const Vec3& p) {
  const Transform& X = layout.X0[body];
  return body == 0 ? p : Vec3(X.r + X.E.transpose() * p);
}
Vec3 body_point(const SceneLayout& layout, int body, const Vec3& world) {
  return body == 0 ? world : point_in(layout.X0[body], world);
}
Vec3 body_direction(const SceneLayout& layout, int body, const Vec3& world) {
  return body == 0 ? world : Vec3(layout.X0[body].E * world);
}

// Translucent, and not hiding what is behind it from the depth test (the grid on a floor).
void translucent(osg::Geode& geode) {
  osg::StateSet* ss = geode.getOrCreateStateSet();
  ss->setMode(GL_BLEND, osg::StateAttribute::ON);
  ss->setAttributeAndModes(new osg::BlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA));
  ss->setAttributeAndModes(new osg::Depth(osg::Depth::LESS, 0.0, 1.0, false));
  ss->setRenderingHint(osg::StateSet::TRANSPARENT_BIN);
}

// A patch of a contact's plane around where the sphere starts: a strip seen edge-on in a planar
// mechanism (its ground line), a square of side 2L in space. Its top face is the plane.
osg::ref_ptr<osg::Geometry> plane_patch(const SceneLayout& layout, const style::Sizes& size,
                                        const Unilateral& u) {
  const Vec3 c = body_point(layout, u.surface, world_at_start(layout, u.body, u.point));
  const Vec3 n = u.normal.normalized();
  const Vec3 foot = c - n * n.dot(c - u.plane_point);
  Vec3 t1 = body_direction(layout, u.surface, Vec3::UnitZ()).cross(n);
  if (!layout.planar || t1.norm() < 1e-9) t1 = from_osg(prim::perpendicular(to_osg(n)));
  t1.normalize();
  const Vec3 t2 = n.cross(t1);
  // A planar view sees the plane edge-on: a band a pin thick reads as the ground line.
  const double depth = layout.planar ? 0.5 * size.pin : 0.5 * size.plate;
  const Vec3 centre = foot - n * depth;
  const osg::Matrixd frame(t1.x(), t1.y(), t1.z(), 0, t2.x(), t2.y(), t2.z(), 0, n.x(), n.y(),
                           n.z(), 0, centre.x(), centre.y(), centre.z(), 1);
  const double across = layout.planar ? 0.15 * size.length : size.length;
  return prim::box(frame, {size.length, across, depth}, style::kSurface);
}

// A cam's profile, extruded along its axis (the profile is star-shaped about its centre).
osg::ref_ptr<osg::Geometry> cam_solid(const style::Sizes& size, const Unilateral& u,
                                      const osg::Vec4& color) {
  constexpr int kSamples = 180;
  std::vector<osg::Vec3d> polygon;
  for (int i = 0; i < kSamples; ++i) {
    const Eigen::Vector2d p = u.cam->at(2 * M_PI * i / kSamples).p;
    polygon.push_back(to_osg(u.plane_point + p.x() * u.cam_x + p.y() * u.cam_y));
  }
  return prim::prism(polygon, to_osg(u.cam_x.cross(u.cam_y).normalized()), 2.0 * size.plate, color);
}

// A slot's two rails, a pin's width apart, from the mouth inward.
void add_slot_rails(osg::Geode& geode, const style::Sizes& size, const Unilateral& u,
                    const osg::Vec4& color) {
  const double r = 0.6 * size.bar;  // standing out of the plate the slot is cut in
  for (double side : {-1.0, 1.0}) {
    const Vec3 a = u.plane_point + side * (u.radius + r) * u.normal;
    geode.addDrawable(prim::capsule(to_osg(a), to_osg(a + u.bound * u.tangent), r, color));
  }
}

// Each contact's sphere on its body and its surface on the other.
void add_shapes(const Mechanism& mech, const SceneLayout& layout, const style::Sizes& size,
                const Unilateral& u, const Bodies& bodies) {
  auto on = [&](int body) {
    auto g = make_ref<osg::Geode>();
    g->setNodeMask(kMechanismMask);
    bodies[body]->addChild(g);
    return g;
  };
  const auto color = [&](int body) {
    return body == 0 ? style::kGround
                     : style::lighter(style::body_color(mech.compiled.user_body[body]), 0.15f);
  };
  const double r = u.radius > 0 ? u.radius : 0.35 * size.pin;  // a point gets a dot
  on(u.body)->addDrawable(
      prim::sphere(to_osg(u.point), r, u.radius > 0 ? color(u.body) : style::kPinDark));
  if (u.slot()) {  // over the wheel's solid (its inertia's shape), which would hide the slot
    auto g = on(u.surface);
    g->getOrCreateStateSet()->setAttributeAndModes(new osg::Depth(osg::Depth::LESS, 0.0, 0.1));
    add_slot_rails(*g, size, u, color(u.surface));
  } else if (u.cam) {
    on(u.surface)->addDrawable(cam_solid(size, u, color(u.surface)));
  } else {
    auto g = on(u.surface);
    // The ground's plane is endless: its patches are drawn but not fitted, or a walker's twelve
    // feet, each with its own patch, would shrink the mechanism in the view.
    if (u.surface == 0) g->setNodeMask(kDecorationMask);
    translucent(*g);
    g->addDrawable(plane_patch(layout, size, u));
  }
}

}  // namespace

ContactOverlay::ContactOverlay(const Mechanism& mech, const SceneLayout& layout,
                               const style::Sizes& size, const Bodies& bodies)
    : mech_(mech), bound_(std::make_unique<Bound>(mech)), markers_(new osg::Group) {
  const std::size_t contacts = mech.spec.contacts.size();
  bound_->normal.assign(contacts, -1);
  bound_->slides.resize(contacts);
  for (std::size_t k = 0; k < bound_->items.size(); ++k) {
    const Unilateral& u = bound_->items[k];
    if (u.contact < 0) continue;
    if (u.slide())
      bound_->slides[u.contact].push_back(static_cast<int>(k));
    else if (u.kind == Unilateral::Kind::Contact || u.slot())
      bound_->normal[u.contact] = static_cast<int>(k);
  }
  for (int k : bound_->normal)
    if (k >= 0) add_shapes(mech, layout, size, bound_->items[k], bodies);
  shown_.resize(contacts);
  // In front of the bodies (the ring lies on the surface, inside the sphere's silhouette).
  markers_->getOrCreateStateSet()->setAttributeAndModes(new osg::Depth(osg::Depth::LESS, 0.0, 0.1));
  arrows_ = std::make_unique<ForceArrows>(static_cast<int>(contacts), size, style::kContactForce);
  build_markers(size);
}

ContactOverlay::~ContactOverlay() = default;

osg::Group* ContactOverlay::arrows() const {
  return arrows_->node();
}

void ContactOverlay::set_force_scale(double metres_per_newton) {
  arrows_->set_scale(metres_per_newton);
}

// A dot on the surface with a short normal (seen from any side, a planar view's too): child 0
// drawn while touching, child 1 while apart.
void ContactOverlay::build_markers(const style::Sizes& size) {
  marker_size_ = 0.45 * size.pin;
  touch_ = 1e-9 * size.length;  // closed contacts sit at round-off; open ones well above
  const double normal = 3.0 * size.pin;
  for (std::size_t c = 0; c < shown_.size(); ++c) {
    auto xf = make_ref<osg::MatrixTransform>();
    xf->setDataVariance(osg::Object::DYNAMIC);
    for (const osg::Vec4& colour : {style::kContactClosed, style::kContactOpen}) {
      auto g = make_ref<osg::Geode>();
      g->addDrawable(prim::sphere({0, 0, 0}, marker_size_, colour));
      g->addDrawable(prim::cylinder({0, 0, 0}, {0, 0, normal}, 0.12 * size.pin, colour));
      xf->addChild(g);
    }
    xf->setNodeMask(bound_->normal[c] >= 0 ? ~0u : 0u);
    markers_->addChild(xf);
    marker_xf_.push_back(xf);
  }
}

void ContactOverlay::update(const Snapshot& snapshot) {
  Bound& b = *bound_;
  const std::size_t n = std::min(snapshot.X0.size(), b.data.X0.size());
  for (std::size_t i = 0; i < n; ++i) b.data.X0[i] = snapshot.X0[i];
  const auto force_of = [&](int item) {
    return item < static_cast<int>(snapshot.unilateral_force.size())
               ? snapshot.unilateral_force[item]
               : 0.0;
  };
  std::vector<osg::Vec3d> origins(shown_.size()), forces(shown_.size());
  for (std::size_t c = 0; c < shown_.size(); ++c) {
    const int k = b.normal[c];
    if (k < 0) continue;
    const Unilateral& u = b.items[k];
    Shown& s = shown_[c];
    const double lambda = force_of(k);
    Vec3 f = Vec3::Zero();
    if (u.slot()) {  // the pin's centre; held while the slot pushes it sideways
      const Vec3 lateral =
          u.surface == 0 ? u.normal : Vec3(b.data.X0[u.surface].E.transpose() * u.normal);
      Vec3 centre, unused;
      contact_frame(b.data, u, centre, unused);
      s.point = to_osg(centre), s.normal = to_osg(lateral);
      s.touching = lambda != 0.0;
      f = lambda * lateral;
    } else {
      const ContactHit h = contact_hit(b.data, u);
      s.point = to_osg(h.centre - h.normal * h.distance);
      s.normal = to_osg(h.normal);
      const double gap = k < static_cast<int>(snapshot.gap.size()) ? snapshot.gap[k] : h.distance;
      s.touching = gap <= touch_ || lambda > 0.0;
      f = lambda * h.normal;
      for (int t : b.slides[c]) f += force_of(t) * slide_tangent(b.data, b.items[t]);
    }
    s.force = to_osg(f);
    origins[c] = s.point, forces[c] = s.force;
    place_marker(static_cast<int>(c));
  }
  arrows_->update(origins, forces);
}

void ContactOverlay::place_marker(int c) {
  const Shown& s = shown_[c];
  osg::MatrixTransform& xf = *marker_xf_[c];
  xf.setMatrix(osg::Matrixd::rotate(osg::Vec3d(0, 0, 1), s.normal) *
               osg::Matrixd::translate(s.point));
  xf.getChild(0)->setNodeMask(s.touching ? ~0u : 0u);
  xf.getChild(1)->setNodeMask(s.touching ? 0u : ~0u);
}

}  // namespace articula
