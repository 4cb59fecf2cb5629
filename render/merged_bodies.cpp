#include "render/merged_bodies.hpp"

#include <osg/Geode>
#include <osg/TriangleIndexFunctor>

namespace articula {

namespace {

struct MergedTriangleSink {
  std::vector<unsigned>* out = nullptr;
  unsigned offset = 0;
  void operator()(unsigned a, unsigned b, unsigned c) {
    out->push_back(offset + a), out->push_back(offset + b), out->push_back(offset + c);
  }
};

bool merged_triangles_only(const osg::Geometry& g) {
  for (unsigned i = 0; i < g.getNumPrimitiveSets(); ++i) {
    const GLenum mode = g.getPrimitiveSet(i)->getMode();
    if (mode != GL_TRIANGLES && mode != GL_TRIANGLE_STRIP && mode != GL_TRIANGLE_FAN &&
        mode != GL_QUADS && mode != GL_QUAD_STRIP && mode != GL_POLYGON)
      return false;
  }
  return true;
}

const osg::Geometry* merged_source(const osg::Drawable* d) {
  const auto* g = d ? d->asGeometry() : nullptr;
  if (!g || g->getStateSet() || !merged_triangles_only(*g)) return nullptr;
  const auto* v = dynamic_cast<const osg::Vec3Array*>(g->getVertexArray());
  const auto* n = dynamic_cast<const osg::Vec3Array*>(g->getNormalArray());
  const auto* c = dynamic_cast<const osg::Vec4Array*>(g->getColorArray());
  if (!v || !n || !c || n->size() != v->size() || c->empty()) return nullptr;
  if (g->getNormalArray()->getBinding() != osg::Array::BIND_PER_VERTEX) return nullptr;
  const auto cb = g->getColorArray()->getBinding();
  if (cb != osg::Array::BIND_OVERALL &&
      !(cb == osg::Array::BIND_PER_VERTEX && c->size() == v->size()))
    return nullptr;
  return g;
}

// The drawables under `parts`: a geode, or a group of geodes.
bool merged_collect(osg::Node* node, std::vector<const osg::Geometry*>& out) {
  if (!node) return true;
  if (osg::Geode* geode = node->asGeode()) {
    for (unsigned i = 0; i < geode->getNumDrawables(); ++i) {
      const osg::Geometry* g = merged_source(geode->getDrawable(i));
      if (!g) return false;
      out.push_back(g);
    }
    return true;
  }
  osg::Group* group = node->asGroup();
  if (!group || node->asTransform()) return false;
  for (unsigned i = 0; i < group->getNumChildren(); ++i)
    if (!merged_collect(group->getChild(i), out)) return false;
  return true;
}

}  // namespace

MergedBodies::MergedBodies() : geometry_(new osg::Geometry), bounds_(new Bounds) {
  geometry_->setUseDisplayList(false);
  geometry_->setUseVertexBufferObjects(true);
  geometry_->setDataVariance(osg::Object::DYNAMIC);
}

bool MergedBodies::add(int body, const std::vector<osg::Node*>& parts) {
  std::vector<const osg::Geometry*> found;
  for (osg::Node* p : parts)
    if (!merged_collect(p, found)) return false;
  Range r;
  r.body = body;
  r.begin = rest_.size();
  for (const osg::Geometry* g : found) {
    const auto& v = static_cast<const osg::Vec3Array&>(*g->getVertexArray());
    const auto& n = static_cast<const osg::Vec3Array&>(*g->getNormalArray());
    const auto& c = static_cast<const osg::Vec4Array&>(*g->getColorArray());
    osg::TriangleIndexFunctor<MergedTriangleSink> tris;
    tris.out = &indices_;
    tris.offset = static_cast<unsigned>(rest_.size());
    g->accept(tris);
    for (std::size_t i = 0; i < v.size(); ++i) {
      rest_.push_back(v[i]);
      rest_normals_.push_back(n[i]);
      colors_.push_back(c.size() == v.size() ? c[i] : c[0]);
    }
  }
  r.end = rest_.size();
  if (range_of_.size() <= static_cast<std::size_t>(body)) range_of_.resize(body + 1, -1);
  range_of_[body] = static_cast<int>(ranges_.size());
  ranges_.push_back(r);
  return true;
}

void MergedBodies::finish() {
  auto v = new osg::Vec3Array(rest_.begin(), rest_.end());
  auto n = new osg::Vec3Array(rest_normals_.begin(), rest_normals_.end());
  auto c = new osg::Vec4Array(colors_.begin(), colors_.end());
  v->setDataVariance(osg::Object::DYNAMIC);
  n->setDataVariance(osg::Object::DYNAMIC);
  geometry_->setVertexArray(v);
  geometry_->setNormalArray(n, osg::Array::BIND_PER_VERTEX);
  geometry_->setColorArray(c, osg::Array::BIND_PER_VERTEX);
  auto e = new osg::DrawElementsUInt(GL_TRIANGLES, indices_.begin(), indices_.end());
  geometry_->addPrimitiveSet(e);
  bounds_->box.init();
  for (const osg::Vec3f& p : rest_) bounds_->box.expandBy(p);  // until the first update()
  geometry_->setComputeBoundingBoxCallback(bounds_.get());
}

bool MergedBodies::has(int body) const {
  return body >= 0 && body < static_cast<int>(range_of_.size()) && range_of_[body] >= 0;
}

std::size_t MergedBodies::triangle_count() const {
  return indices_.size() / 3;
}

void MergedBodies::set_hidden(int body, bool hidden) {
  if (has(body)) ranges_[range_of_[body]].hidden = hidden;
}

void MergedBodies::update(const std::vector<osg::Matrixd>& pose) {
  auto& v = static_cast<osg::Vec3Array&>(*geometry_->getVertexArray());
  auto& n = static_cast<osg::Vec3Array&>(*geometry_->getNormalArray());
  osg::BoundingBox box;
  for (const Range& r : ranges_) {
    const osg::Matrixf m(pose[r.body]);  // rigid: normals turn by its 3x3 part
    if (r.hidden) {
      std::fill(v.begin() + r.begin, v.begin() + r.end, m.getTrans());
      if (r.end > r.begin) box.expandBy(m.getTrans());
      continue;
    }
    for (std::size_t i = r.begin; i < r.end; ++i) {
      v[i] = rest_[i] * m;
      n[i] = osg::Matrixf::transform3x3(rest_normals_[i], m);
      box.expandBy(v[i]);
    }
  }
  bounds_->box = box;
  v.dirty();
  n.dirty();
  geometry_->dirtyBound();
}

}  // namespace articula
