#pragma once
// Many moving bodies drawn as one (issue 17 item 4): the shaded solids of each body (its shape
// and its joint markers) copied once into one triangle list, whose vertices and normals are put
// at the bodies' poses on the CPU at each update. One draw call instead of one per solid: the
// 1,000-body ladder had ~3,200, and under a software rasteriser each costs microseconds of
// state validation. The per-body nodes stay in the scene for picking and bounds (the viewport's
// camera does not draw kPickOnlyMask); a selected body is drawn by its own nodes again, in the
// selection colour, and left out of the merged list.
#include <osg/Geometry>
#include <osg/Matrixd>
#include <osg/ref_ptr>
#include <vector>

namespace articula {

class MergedBodies {
 public:
  MergedBodies();
  // Takes the solids of model body `body` found under `parts` (geodes directly under them, in
  // body coordinates), if every drawable there can be merged: no state set of its own, triangles,
  // per-vertex normals, one colour or one per vertex. False (and nothing taken) otherwise.
  bool add(int body, const std::vector<osg::Node*>& parts);
  void finish();  // builds the arrays of what was added
  osg::Geometry* node() const { return geometry_.get(); }
  bool empty() const { return ranges_.empty(); }
  bool has(int body) const;
  // Vertices and normals to `pose[body]` (model body to world, OSG row-vector convention); a
  // hidden body's triangles collapse to a point (nothing drawn).
  void update(const std::vector<osg::Matrixd>& pose);
  void set_hidden(int body, bool hidden);
  std::size_t vertex_count() const { return rest_.size(); }
  std::size_t triangle_count() const;

 private:
  struct Range {
    int body = 0;
    std::size_t begin = 0, end = 0;  // vertices
    bool hidden = false;
  };
  // The box of the vertices as update() placed them: found while they are written, so that OSG
  // does not walk the ~100k vertices again for the bound at every frame (ComputeBound was 2 % of
  // the 1,000-body ladder's GUI thread).
  struct Bounds : osg::Drawable::ComputeBoundingBoxCallback {
    osg::BoundingBox box;
    osg::BoundingBox computeBound(const osg::Drawable&) const override { return box; }
  };
  osg::ref_ptr<osg::Geometry> geometry_;
  osg::ref_ptr<Bounds> bounds_;
  std::vector<Range> ranges_;
  std::vector<int> range_of_;  // model body -> index in ranges_, -1 when not merged
  std::vector<osg::Vec3f> rest_, rest_normals_;
  std::vector<osg::Vec4f> colors_;
  std::vector<unsigned> indices_;
};

}  // namespace articula
