#include "render/overlays.hpp"

#include <algorithm>
#include <cmath>
#include <osg/Depth>
#include <osg/LineWidth>

#include "render/osg_convert.hpp"
#include "render/primitives.hpp"

namespace articula {

namespace {
// Overlays are drawn in the nearest tenth of the depth range: in front of the bodies (a joint's
// force starts inside its pin), still ordered correctly among themselves.
void in_front(osg::Node& node) {
  node.getOrCreateStateSet()->setAttributeAndModes(new osg::Depth(osg::Depth::LESS, 0.0, 0.1));
}
}  // namespace

ForceArrows::ForceArrows(int count, const style::Sizes& size, const osg::Vec4& color)
    : size_(size), root_(new osg::Group) {
  in_front(*root_);
  // Unit shapes along +z, stretched by the per-frame matrices.
  auto shaft = make_ref<osg::Geode>();
  shaft->addDrawable(prim::cylinder({0, 0, 0}, {0, 0, 1}, 1.0, color));
  auto head = make_ref<osg::Geode>();
  head->addDrawable(prim::cone({0, 0, 0}, {0, 0, 1}, 1.0, color));
  for (int i = 0; i < count; ++i) {
    Arrow a{new osg::MatrixTransform, new osg::MatrixTransform};
    a.shaft->addChild(shaft);
    a.head->addChild(head);
    for (auto* t : {a.shaft.get(), a.head.get()}) {
      t->setDataVariance(osg::Object::DYNAMIC);
      t->setNodeMask(0);
      root_->addChild(t);
    }
    arrows_.push_back(a);
  }
}

void ForceArrows::set_scale(double metres_per_newton) {
  fixed_scale_ = std::max(0.0, metres_per_newton);
  recent_max_ = 0.0;
}

void ForceArrows::update(const std::vector<osg::Vec3d>& origins,
                         const std::vector<osg::Vec3d>& forces) {
  double frame_max = 0.0;
  for (const auto& f : forces) frame_max = std::max(frame_max, f.length());
  recent_max_ = std::max(frame_max, 0.995 * recent_max_);  // forgets a spike within seconds
  scale_ = fixed_scale_ > 0 ? fixed_scale_ : (recent_max_ > 0 ? size_.force / recent_max_ : 0.0);
  const double r = 0.45 * size_.bar, head_r = 1.25 * size_.bar, head_len = 3.8 * size_.bar;
  for (std::size_t i = 0; i < arrows_.size(); ++i) {
    Arrow& a = arrows_[i];
    const double len = i < forces.size() ? forces[i].length() * scale_ : 0.0;
    if (len < 0.5 * size_.bar) {  // too small to read: hide
      a.shaft->setNodeMask(0);
      a.head->setNodeMask(0);
      continue;
    }
    const osg::Vec3d dir = forces[i] / forces[i].length();
    const double h = std::min(head_len, 0.5 * len);
    const osg::Matrixd R = osg::Matrixd::rotate(osg::Vec3d(0, 0, 1), dir);
    a.shaft->setMatrix(osg::Matrixd::scale(r, r, len - h) * R *
                       osg::Matrixd::translate(origins[i]));
    a.head->setMatrix(osg::Matrixd::scale(head_r, head_r, h) * R *
                      osg::Matrixd::translate(origins[i] + dir * (len - h)));
    a.shaft->setNodeMask(~0u);
    a.head->setNodeMask(~0u);
  }
}

PointTrace::PointTrace(std::size_t capacity, float width)
    : ring_(std::max<std::size_t>(capacity, 2)),
      geode_(new osg::Geode),
      geometry_(new osg::Geometry),
      vertices_(new osg::Vec3Array),
      draw_(new osg::DrawArrays(GL_LINE_STRIP, 0, 0)) {
  vertices_->reserve(ring_.size());
  geometry_->setDataVariance(osg::Object::DYNAMIC);
  geometry_->setUseDisplayList(false);  // rewritten every frame
  geometry_->setUseVertexBufferObjects(true);
  geometry_->setVertexArray(vertices_);
  auto color = make_ref<osg::Vec4Array>();
  color->push_back(style::kTrace);
  geometry_->setColorArray(color, osg::Array::BIND_OVERALL);
  geometry_->addPrimitiveSet(draw_);
  osg::StateSet* ss = geometry_->getOrCreateStateSet();
  ss->setMode(GL_LIGHTING, osg::StateAttribute::OFF | osg::StateAttribute::PROTECTED);
  ss->setAttributeAndModes(new osg::LineWidth(width));
  geode_->addDrawable(geometry_);
  in_front(*geode_);
}

void PointTrace::clear() {
  head_ = count_ = 0;
  vertices_->clear();
  vertices_->dirty();
  draw_->setCount(0);
  geometry_->dirtyBound();
}

void PointTrace::add(const osg::Vec3d& p, double min_step) {
  if (count_ > 0 && (ring_[(head_ + ring_.size() - 1) % ring_.size()] - p).length() <= min_step)
    return;
  ring_[head_] = p;
  head_ = (head_ + 1) % ring_.size();
  count_ = std::min(count_ + 1, ring_.size());
}

void PointTrace::commit() {
  // Oldest first: the strip is a copy of the ring in time order (a few thousand points).
  vertices_->resize(count_);
  const std::size_t start = (head_ + ring_.size() - count_) % ring_.size();
  for (std::size_t i = 0; i < count_; ++i) (*vertices_)[i] = ring_[(start + i) % ring_.size()];
  vertices_->dirty();
  draw_->setCount(static_cast<GLsizei>(count_));
  geometry_->dirtyBound();
}

namespace {
// 1, 2 or 5 times a power of ten, at most x.
double nice_step(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  const double m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}
}  // namespace

namespace {
// Grid lines along axis `a` at every step of axis `b` (indices 0..2), at level `level` on `n`.
void grid_lines(int a, int b, int n, double level, const Eigen::AlignedBox3d& extent, double step,
                std::vector<osg::Vec3d>& minor, std::vector<osg::Vec3d>& major) {
  for (int i = 0; extent.min()[b] + i * step <= extent.max()[b] + 1e-9 * step; ++i) {
    Vec3 p0, p1;
    p0[b] = p1[b] = extent.min()[b] + i * step;
    p0[a] = extent.min()[a];
    p1[a] = extent.max()[a];
    p0[n] = p1[n] = level;
    auto& set = std::abs(std::remainder(p0[b], 5 * step)) < 1e-6 * step ? major : minor;
    set.insert(set.end(), {to_osg(p0), to_osg(p1)});
  }
}
}  // namespace

osg::ref_ptr<osg::Geode> build_grid(const SceneLayout& layout, const style::Sizes& size) {
  Eigen::AlignedBox3d box;
  for (const Anchor& a : layout.anchors) box.extend(a.world0);
  for (std::size_t i = 1; i < layout.X0.size(); ++i) box.extend(layout.X0[i].r);
  if (box.isEmpty()) box.extend(Vec3::Zero());
  // Planar mechanisms get their drawing plane (x-y, behind them); spatial ones a floor across
  // the world axis nearest to "up", below them.
  int n = 2;
  if (!layout.planar) layout.up.cwiseAbs().maxCoeff(&n);
  const int a = (n + 1) % 3, b = (n + 2) % 3;
  const double s = layout.planar || layout.up[n] >= 0 ? 1.0 : -1.0;
  const double gap = 1.5 * (size.pin_half_length + size.bar);  // clear of every pin
  const double level = s > 0 ? box.min()[n] - gap : box.max()[n] + gap;
  const double step = nice_step(size.length / 6), major_step = 5 * step;
  const double margin = 0.6 * size.length;
  Eigen::AlignedBox3d extent;
  for (int k : {a, b}) {
    extent.min()[k] = std::floor((box.min()[k] - margin) / major_step) * major_step;
    extent.max()[k] = std::ceil((box.max()[k] + margin) / major_step) * major_step;
  }
  std::vector<osg::Vec3d> minor, major;
  grid_lines(a, b, n, level, extent, step, minor, major);
  grid_lines(b, a, n, level, extent, step, minor, major);
  auto geode = make_ref<osg::Geode>();
  geode->addDrawable(prim::lines(minor, style::kGridMinor, 1.0f));
  geode->addDrawable(prim::lines(major, style::kGridMajor, 1.4f));
  // The two in-plane world axes from the origin, when it is on the grid.
  const osg::Vec4 colors[3] = {style::kAxisX, style::kAxisY, style::kAxisZ};
  for (int k : {a, b}) {
    if (extent.min()[k] > 0 || extent.max()[k] < 0 || extent.min()[a + b - k] > 0 ||
        extent.max()[a + b - k] < 0)
      continue;
    Vec3 o = Vec3::Zero(), e = Vec3::Zero();
    o[n] = e[n] = level;
    e[k] = extent.max()[k];
    geode->addDrawable(prim::lines({to_osg(o), to_osg(e)}, colors[k], 2.0f));
  }
  return geode;
}

osg::ref_ptr<osg::Geode> build_frame_axes(const osg::Matrixd& frame, double length) {
  auto geode = make_ref<osg::Geode>();
  const osg::Vec3d o = frame.getTrans();
  const osg::Vec4 colors[3] = {style::kAxisX, style::kAxisY, style::kAxisZ};
  for (int k = 0; k < 3; ++k) {
    const osg::Vec3d axis(frame(k, 0), frame(k, 1), frame(k, 2));
    geode->addDrawable(prim::lines({o, o + axis * length}, colors[k], 2.5f));
  }
  return geode;
}

}  // namespace articula
