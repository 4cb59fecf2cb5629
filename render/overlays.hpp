#pragma once
// Scene overlays that change every frame or can be toggled: reaction-force arrows, the trace of a
// body point, and the static decorations (ground grid, frame axes).
#include <osg/Geode>
#include <osg/Geometry>
#include <osg/Group>
#include <osg/MatrixTransform>
#include <vector>

#include "render/scene_layout.hpp"
#include "render/scene_style.hpp"

namespace articula {

// One arrow per joint, moved and stretched per frame (no geometry is rebuilt).
class ForceArrows {
 public:
  ForceArrows(int count, const style::Sizes& size, const osg::Vec4& color = style::kForce);
  osg::Group* node() const { return root_.get(); }
  // World origin and force of each arrow (force in newtons).
  void update(const std::vector<osg::Vec3d>& origins, const std::vector<osg::Vec3d>& forces);
  // Metres of arrow per newton; 0 = automatic (the largest recent force gets the longest arrow).
  void set_scale(double metres_per_newton);
  double scale() const { return scale_; }

 private:
  struct Arrow {
    osg::ref_ptr<osg::MatrixTransform> shaft, head;
  };
  style::Sizes size_;
  osg::ref_ptr<osg::Group> root_;
  std::vector<Arrow> arrows_;
  double fixed_scale_ = 0.0;
  double recent_max_ = 0.0;  // decaying maximum of |f|, for the automatic scale
  double scale_ = 0.0;       // in use at the last update
};

// Polyline of the last `capacity` positions of a point (a ring buffer).
class PointTrace {
 public:
  explicit PointTrace(std::size_t capacity, float width);
  osg::Geode* node() const { return geode_.get(); }
  void clear();
  // Appends p unless it is within `min_step` of the last point (a paused or creeping run);
  // the drawn strip follows at the next commit() (one copy per batch, not per point).
  void add(const osg::Vec3d& p, double min_step = 0.0);
  void commit();
  std::size_t size() const { return count_; }
  // The i-th committed point, oldest first (i < size() after commit()).
  osg::Vec3d point(std::size_t i) const { return (*vertices_)[i]; }

 private:
  std::vector<osg::Vec3d> ring_;
  std::size_t head_ = 0, count_ = 0;  // head_: next slot to write
  osg::ref_ptr<osg::Geode> geode_;
  osg::ref_ptr<osg::Geometry> geometry_;
  osg::ref_ptr<osg::Vec3Array> vertices_;
  osg::ref_ptr<osg::DrawArrays> draw_;
};

// A grid in the world x-y plane behind/below the mechanism, with the x and y axes marked.
osg::ref_ptr<osg::Geode> build_grid(const SceneLayout& layout, const style::Sizes& size);
// Red, green and blue lines along the x, y, z axes of `frame` (a pose in the parent coordinates).
osg::ref_ptr<osg::Geode> build_frame_axes(const osg::Matrixd& frame, double length);

}  // namespace articula
