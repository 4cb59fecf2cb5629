#pragma once
// Shaded solids and unlit line sets for the mechanism scene, in the caller's coordinates. Solids
// carry a per-drawable colour that drives ambient and diffuse (the scene's material tracks it).
#include <osg/Geometry>
#include <osg/Matrixd>
#include <osg/Vec3d>
#include <osg/Vec4>
#include <osg/ref_ptr>
#include <utility>
#include <vector>

namespace articula {

// osg::ref_ptr construction (OSG 3.6 has no make_ref).
template <class T, class... Args>
osg::ref_ptr<T> make_ref(Args&&... args) {
  return osg::ref_ptr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace articula

namespace articula::prim {

// Tessellation of the shaded solids (OSG's TessellationHints detail ratio; see primitives.cpp).
constexpr float kDetailRatio = 0.6f;
// Many bodies (issue 17 item 4): a mechanism of more than kDetailedBodies moving bodies is shown
// small on screen, and a software rasteriser's frame costs about its vertices, so its solids are
// tessellated coarser, the ratio falling as 1/bodies to at least kLeastDetailRatio, OSG's
// coarsest (5 segments around, 3 rows: 40 and 20 times the ratio have floors 5 and 3). The
// 1,000-body ladder's 45 m fill ~260 px of the app's 3D view: a 0.1 m bar is a pixel or two,
// drawn by 5 segments as by 9 (the square-root rule gave it 0.23) or 24.
constexpr int kDetailedBodies = 150;
constexpr float kLeastDetailRatio = 0.125f;
float detail_ratio_for(int bodies);
// The shapes built while it lives use `ratio` (the scene is built on one thread).
class DetailScope {
 public:
  explicit DetailScope(float ratio);
  ~DetailScope();
  DetailScope(const DetailScope&) = delete;
  DetailScope& operator=(const DetailScope&) = delete;

 private:
  float before_;
};

// A cylinder with hemispherical ends from a to b.
osg::ref_ptr<osg::Geometry> capsule(const osg::Vec3d& a, const osg::Vec3d& b, double radius,
                                    const osg::Vec4& color);
// A cylinder with flat ends from a to b.
osg::ref_ptr<osg::Geometry> cylinder(const osg::Vec3d& a, const osg::Vec3d& b, double radius,
                                     const osg::Vec4& color);
osg::ref_ptr<osg::Geometry> cone(const osg::Vec3d& base, const osg::Vec3d& tip, double radius,
                                 const osg::Vec4& color);
osg::ref_ptr<osg::Geometry> sphere(const osg::Vec3d& center, double radius, const osg::Vec4& color);
// A box with the given half extents along the axes of `frame` (a pose, OSG row-vector convention).
osg::ref_ptr<osg::Geometry> box(const osg::Matrixd& frame, const osg::Vec3d& half_extents,
                                const osg::Vec4& color);
// A convex polygon (vertices in order around `normal`) extruded by `thickness`, centred on it.
osg::ref_ptr<osg::Geometry> prism(const std::vector<osg::Vec3d>& polygon, const osg::Vec3d& normal,
                                  double thickness, const osg::Vec4& color);
// Unlit line segments: vertices taken in pairs.
osg::ref_ptr<osg::Geometry> lines(const std::vector<osg::Vec3d>& pairs, const osg::Vec4& color,
                                  float width);
// An arrow from `from` along `dir` (any length > 0): shaft and head, total length |dir|.
void add_arrow(osg::Geode& geode, const osg::Vec3d& from, const osg::Vec3d& dir, double radius,
               const osg::Vec4& color);

// A unit vector perpendicular to v (|v| > 0).
osg::Vec3d perpendicular(const osg::Vec3d& v);

}  // namespace articula::prim
