#include "render/primitives.hpp"

#include <algorithm>
#include <cmath>
#include <osg/Geode>
#include <osg/LineWidth>
#include <osg/ShapeDrawable>
#include <osg/StateSet>

namespace articula::prim {

namespace {

// OSG tessellates 40 * ratio segments around and 20 * ratio rows over a sphere. Under a software
// rasteriser (Mesa llvmpipe, Xvfb, CI) the cost of a frame is the number of small triangles:
// ratio 1.6 gave a Stewart platform ~108k vertices and 23 fps. 24 segments with Gouraud shading
// keep bar silhouettes smooth at the sizes the mechanisms are shown at, for a sixth of the cost.
osg::ref_ptr<osg::TessellationHints> make_hints(float ratio) {
  auto t = make_ref<osg::TessellationHints>();
  t->setDetailRatio(ratio);
  return t;
}

// Each ratio its own hints object: a shape keeps the hints it was built with.
osg::ref_ptr<osg::TessellationHints>& hints() {
  static osg::ref_ptr<osg::TessellationHints> h = make_hints(kDetailRatio);
  return h;
}

osg::ref_ptr<osg::Geometry> shape(osg::Shape* s, const osg::Vec4& color) {
  auto d = make_ref<osg::ShapeDrawable>(s, hints().get());
  d->setColor(color);
  return d;
}

// Rotation taking +z to the direction of d (OSG shapes are built along z).
osg::Quat z_to(const osg::Vec3d& d) {
  osg::Quat q;
  q.makeRotate(osg::Vec3d(0, 0, 1), d);
  return q;
}

}  // namespace

float detail_ratio_for(int bodies) {
  if (bodies <= kDetailedBodies) return kDetailRatio;
  return std::max(kLeastDetailRatio, kDetailRatio * float(kDetailedBodies) / bodies);
}

DetailScope::DetailScope(float ratio) : before_(hints()->getDetailRatio()) {
  if (ratio != before_) hints() = make_hints(ratio);
}

DetailScope::~DetailScope() {
  if (hints()->getDetailRatio() != before_) hints() = make_hints(before_);
}

osg::Vec3d perpendicular(const osg::Vec3d& v) {
  const osg::Vec3d helper =
      std::abs(v.x()) < 0.9 * v.length() ? osg::Vec3d(1, 0, 0) : osg::Vec3d(0, 1, 0);
  osg::Vec3d p = v ^ helper;
  p.normalize();
  return p;
}

osg::ref_ptr<osg::Geometry> capsule(const osg::Vec3d& a, const osg::Vec3d& b, double radius,
                                    const osg::Vec4& color) {
  const osg::Vec3d d = b - a;
  auto c = new osg::Capsule((a + b) * 0.5, radius, d.length());
  if (d.length() > 0) c->setRotation(z_to(d));
  return shape(c, color);
}

osg::ref_ptr<osg::Geometry> cylinder(const osg::Vec3d& a, const osg::Vec3d& b, double radius,
                                     const osg::Vec4& color) {
  const osg::Vec3d d = b - a;
  auto c = new osg::Cylinder((a + b) * 0.5, radius, d.length());
  if (d.length() > 0) c->setRotation(z_to(d));
  return shape(c, color);
}

osg::ref_ptr<osg::Geometry> cone(const osg::Vec3d& base, const osg::Vec3d& tip, double radius,
                                 const osg::Vec4& color) {
  const osg::Vec3d d = tip - base;
  // osg::Cone's centre is its centre of mass, a quarter of the height above the base.
  auto c = new osg::Cone(base + d * 0.25, radius, d.length());
  if (d.length() > 0) c->setRotation(z_to(d));
  return shape(c, color);
}

osg::ref_ptr<osg::Geometry> sphere(const osg::Vec3d& center, double radius,
                                   const osg::Vec4& color) {
  return shape(new osg::Sphere(center, radius), color);
}

osg::ref_ptr<osg::Geometry> box(const osg::Matrixd& frame, const osg::Vec3d& half_extents,
                                const osg::Vec4& color) {
  auto b = new osg::Box(frame.getTrans(), 2 * half_extents.x(), 2 * half_extents.y(),
                        2 * half_extents.z());
  b->setRotation(frame.getRotate());
  return shape(b, color);
}

osg::ref_ptr<osg::Geometry> prism(const std::vector<osg::Vec3d>& polygon, const osg::Vec3d& normal,
                                  double thickness, const osg::Vec4& color) {
  auto geom = make_ref<osg::Geometry>();
  auto v = make_ref<osg::Vec3Array>();
  auto n = make_ref<osg::Vec3Array>();
  const std::size_t k = polygon.size();
  const osg::Vec3d h = normal * (0.5 * thickness);
  osg::Vec3d centroid;
  for (const auto& p : polygon) centroid += p / static_cast<double>(k);
  for (int side : {1, -1}) {  // top and bottom faces as triangles around the centroid
    for (std::size_t i = 0; i < k; ++i) {
      const osg::Vec3d& a = polygon[i];
      const osg::Vec3d& b = polygon[(i + 1) % k];
      const osg::Vec3d tri[3] = {centroid, side > 0 ? a : b, side > 0 ? b : a};
      for (const auto& p : tri) {
        v->push_back(p + h * side);
        n->push_back(normal * side);
      }
    }
  }
  for (std::size_t i = 0; i < k; ++i) {  // side walls, two triangles each
    const osg::Vec3d& a = polygon[i];
    const osg::Vec3d& b = polygon[(i + 1) % k];
    osg::Vec3d out = (b - a) ^ normal;
    out.normalize();
    for (const auto& p : {a + h, a - h, b - h, a + h, b - h, b + h}) {
      v->push_back(p);
      n->push_back(out);
    }
  }
  geom->setVertexArray(v);
  geom->setNormalArray(n, osg::Array::BIND_PER_VERTEX);
  auto c = make_ref<osg::Vec4Array>();
  c->push_back(color);
  geom->setColorArray(c, osg::Array::BIND_OVERALL);
  geom->addPrimitiveSet(new osg::DrawArrays(GL_TRIANGLES, 0, v->size()));
  return geom;
}

osg::ref_ptr<osg::Geometry> lines(const std::vector<osg::Vec3d>& pairs, const osg::Vec4& color,
                                  float width) {
  auto geom = make_ref<osg::Geometry>();
  auto v = make_ref<osg::Vec3Array>();
  for (const auto& p : pairs) v->push_back(p);
  geom->setVertexArray(v);
  auto c = make_ref<osg::Vec4Array>();
  c->push_back(color);
  geom->setColorArray(c, osg::Array::BIND_OVERALL);
  geom->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 0, v->size()));
  osg::StateSet* ss = geom->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  ss->setAttributeAndModes(new osg::LineWidth(width));
  if (color.a() < 1.f) {
    ss->setMode(GL_BLEND, osg::StateAttribute::ON);
    ss->setRenderingHint(osg::StateSet::TRANSPARENT_BIN);
  }
  return geom;
}

void add_arrow(osg::Geode& geode, const osg::Vec3d& from, const osg::Vec3d& dir, double radius,
               const osg::Vec4& color) {
  const double len = dir.length();
  if (len <= 0) return;
  const osg::Vec3d u = dir / len;
  const double head = std::min(0.35 * len, 4.0 * radius);
  geode.addDrawable(cylinder(from, from + u * (len - head), radius, color));
  geode.addDrawable(cone(from + u * (len - head), from + dir, 2.2 * radius, color));
}

}  // namespace articula::prim
