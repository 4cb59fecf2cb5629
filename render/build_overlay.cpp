#include "render/build_overlay.hpp"

#include <cmath>
#include <osg/Depth>
#include <osg/Geometry>
#include <osg/LineWidth>

namespace articula {

namespace {

const osg::Vec4 kPlane(0.25f, 0.40f, 0.65f, 1.f);
const osg::Vec4 kHover(0.95f, 0.45f, 0.05f, 1.f);
const osg::Vec4 kSnapped(0.05f, 0.65f, 0.15f, 1.f);
const osg::Vec4 kFirst(0.10f, 0.10f, 0.10f, 1.f);
const osg::Vec4 kAxis(0.85f, 0.05f, 0.10f, 1.f);

// Coloured line segments (pairs of points) in one drawable.
struct Lines {
  osg::ref_ptr<osg::Vec3Array> v = new osg::Vec3Array;
  osg::ref_ptr<osg::Vec4Array> c = new osg::Vec4Array;
  void add(const osg::Vec3d& a, const osg::Vec3d& b, const osg::Vec4& color) {
    v->push_back(a);
    v->push_back(b);
    c->push_back(color);
    c->push_back(color);
  }
  void cross(const osg::Vec3d& p, double s, const osg::Vec4& color) {
    for (const osg::Vec3d& d : {osg::Vec3d(s, 0, 0), osg::Vec3d(0, s, 0), osg::Vec3d(0, 0, s)})
      add(p - d, p + d, color);
  }
  osg::ref_ptr<osg::Geometry> geometry() const {
    osg::ref_ptr<osg::Geometry> g = new osg::Geometry;
    g->setVertexArray(v);
    g->setColorArray(c, osg::Array::BIND_PER_VERTEX);
    g->addPrimitiveSet(new osg::DrawArrays(GL_LINES, 0, static_cast<int>(v->size())));
    return g;
  }
};

osg::ref_ptr<osg::Geode> unlit(float width, bool on_top) {
  osg::ref_ptr<osg::Geode> geode = new osg::Geode;
  osg::StateSet* ss = geode->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  ss->setAttributeAndModes(new osg::LineWidth(width));
  if (on_top) {
    ss->setAttributeAndModes(new osg::Depth(osg::Depth::ALWAYS, 0, 1, false));
    ss->setRenderBinDetails(100, "RenderBin");
  }
  return geode;
}

}  // namespace

BuildOverlay::BuildOverlay()
    : root_(new osg::Group), plane_(unlit(1.f, false)), points_(unlit(2.5f, true)) {
  root_->addChild(plane_);
  root_->addChild(points_);
}

void BuildOverlay::show(const BuildMarks& m) {
  marks_ = m;
  plane_->removeDrawables(0, plane_->getNumDrawables());
  points_->removeDrawables(0, points_->getNumDrawables());
  if (m.plane && m.plane_step > 0) {
    Lines grid;
    const int n = static_cast<int>(std::lround(m.plane_half / m.plane_step));
    const double h = n * m.plane_step;
    for (int k = -n; k <= n; ++k) {
      const double u = k * m.plane_step;
      const osg::Vec3d a = m.plane_origin + m.plane_u * u, b = m.plane_origin + m.plane_v * u;
      grid.add(a - m.plane_v * h, a + m.plane_v * h, kPlane);
      grid.add(b - m.plane_u * h, b + m.plane_u * h, kPlane);
    }
    plane_->addDrawable(grid.geometry());
  }
  Lines marks;
  for (std::size_t i = 0; i < m.chain.size(); ++i) {
    marks.cross(m.chain[i], m.size, kFirst);
    if (i + 1 < m.chain.size()) marks.add(m.chain[i], m.chain[i + 1], kFirst);
  }
  if (!m.chain.empty() && m.hover) marks.add(m.chain.back(), *m.hover, kFirst);
  if (m.hover) marks.cross(*m.hover, m.size, m.snapped ? kSnapped : kHover);
  if (m.axis && m.axis_at)
    marks.add(*m.axis_at - *m.axis * (2 * m.size), *m.axis_at + *m.axis * (8 * m.size), kAxis);
  for (int k = 0; k < 3; ++k) {
    osg::Vec4 color(k == 0 ? 0.8f : 0.1f, k == 1 ? 0.6f : 0.1f, k == 2 ? 0.85f : 0.1f, 1.f);
    if (k == m.gizmo_active) color = osg::Vec4(1.f, 0.8f, 0.f, 1.f);
    for (std::size_t i = 0; i + 1 < m.gizmo[k].size(); i += 2)
      marks.add(m.gizmo[k][i], m.gizmo[k][i + 1], color);
  }
  for (std::size_t i = 0; i + 1 < m.preview.size(); i += 2)
    marks.add(m.preview[i], m.preview[i + 1], kFirst);
  if (!marks.v->empty()) points_->addDrawable(marks.geometry());
}

}  // namespace articula
