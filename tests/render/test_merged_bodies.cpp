// Many bodies drawn as one list (render/merged_bodies, issue 17 item 4), forced on small samples:
// every vertex and normal of the merged list where OSG's own transforms put the bodies' solids
// (osg::computeLocalToWorld on the node paths, double precision; 1e-5 of the mechanism's size
// for float vertices), the same triangles, the same picks, and a selected body drawn by its own
// nodes and left out of the list.
#include <catch2/catch.hpp>
#include <osg/Geode>
#include <osg/TriangleIndexFunctor>
#include <osgUtil/IntersectionVisitor>
#include <osgUtil/LineSegmentIntersector>
#include <string>

#include "core/io/project.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/snapshot.hpp"
#include "render/mechanism_scene.hpp"
#include "render/merged_bodies.hpp"
#include "render/primitives.hpp"
#include "tests/support/snapshots.hpp"

using namespace articula;

namespace {

struct MergedTestCount {
  std::size_t triangles = 0;
  void operator()(unsigned, unsigned, unsigned) { ++triangles; }
};

// Body b's solids in world coordinates, from the scene graph alone: shape geode, then marker
// geodes, each drawable's vertices through its node path's local-to-world matrix.
struct MergedTestWorld {
  std::vector<osg::Vec3d> vertices, normals;
  std::size_t triangles = 0;
};
MergedTestWorld merged_test_world(const MechanismScene& scene, int b) {
  MergedTestWorld out;
  osg::MatrixTransform* xf = scene.body_transform(b);
  auto take = [&](osg::Geode* geode, osg::Group* under) {
    osg::NodePath path{scene.root(), xf};
    if (under) path.push_back(under);
    path.push_back(geode);
    const osg::Matrixd m = osg::computeLocalToWorld(path);
    for (unsigned i = 0; i < geode->getNumDrawables(); ++i) {
      const osg::Geometry* g = geode->getDrawable(i)->asGeometry();
      const auto& v = static_cast<const osg::Vec3Array&>(*g->getVertexArray());
      const auto& n = static_cast<const osg::Vec3Array&>(*g->getNormalArray());
      for (std::size_t k = 0; k < v.size(); ++k) {
        out.vertices.push_back(osg::Vec3d(v[k]) * m);
        out.normals.push_back(osg::Matrixd::transform3x3(osg::Vec3d(n[k]), m));
      }
      osg::TriangleIndexFunctor<MergedTestCount> count;
      g->accept(count);
      out.triangles += count.triangles;
    }
  };
  take(xf->getChild(0)->asGeode(), nullptr);
  osg::Group* markers = xf->getChild(1)->asGroup();
  for (unsigned i = 0; i < markers->getNumChildren(); ++i)
    take(markers->getChild(i)->asGeode(), markers);
  return out;
}

// The merged list against the scene graph, body after body (the list keeps that order).
void merged_test_compare(const MechanismScene& scene, int hidden_body) {
  const MergedBodies& merged = *scene.merged();
  const auto& v = static_cast<const osg::Vec3Array&>(*merged.node()->getVertexArray());
  const auto& n = static_cast<const osg::Vec3Array&>(*merged.node()->getNormalArray());
  const double tol = 1e-5 * scene.characteristic_length();
  std::size_t at = 0, triangles = 0;
  for (int b = 1; b < scene.body_count(); ++b) {
    REQUIRE(merged.has(b));
    const MergedTestWorld w = merged_test_world(scene, b);
    triangles += w.triangles;
    for (std::size_t k = 0; k < w.vertices.size(); ++k, ++at) {
      INFO("body " << b << " vertex " << k);
      if (b == hidden_body) {  // collapsed onto the body's origin: nothing drawn
        CHECK((osg::Vec3d(v[at]) - scene.body_transform(b)->getMatrix().getTrans()).length() < tol);
        continue;
      }
      CHECK((osg::Vec3d(v[at]) - w.vertices[k]).length() < tol);
      CHECK((osg::Vec3d(n[at]) - w.normals[k]).length() < 1e-5);  // unit normals
    }
  }
  CHECK(at == v.size());
  CHECK(triangles == merged.triangle_count());
  // The bound kept by update() is the box of the vertices as placed (the same floats: exact).
  osg::BoundingBox box;
  for (const osg::Vec3f& p : v) box.expandBy(p);
  const osg::BoundingBox& kept = merged.node()->getBoundingBox();
  CHECK(kept._min == box._min);
  CHECK(kept._max == box._max);
}

ScenePick merged_test_ray(const MechanismScene& scene, const osg::Vec3d& from,
                          const osg::Vec3d& to) {
  osg::ref_ptr<osgUtil::LineSegmentIntersector> ray = new osgUtil::LineSegmentIntersector(from, to);
  osgUtil::IntersectionVisitor visitor(ray.get());
  visitor.setTraversalMask(kMechanismMask | kPickOnlyMask);  // as the viewport picks
  scene.root()->accept(visitor);
  if (!ray->containsIntersections()) return {};
  return scene.pick(ray->getFirstIntersection().nodePath);
}

}  // namespace

TEST_CASE("scene: merged bodies are drawn where their own nodes are", "[render]") {
  for (const char* file : {"fourbar.json", "jansen_leg.json", "slider_crank.json"}) {
    INFO(file);
    const Mechanism mech = test::prepared_sample(file);
    MechanismScene plain(mech), merged(mech, 0);  // 0: merge above zero bodies
    CHECK(plain.merged() == nullptr);             // few bodies: each draws its own
    REQUIRE(merged.merged() != nullptr);
    merged_test_compare(merged, -1);  // the initial poses
    const Snapshot snap = test::snapshot_after(mech, 120);
    plain.update(snap);
    merged.update(snap);
    merged_test_compare(merged, -1);
    // The same picks as the scene without the merged list, along rays through every body.
    for (int b = 1; b < merged.body_count(); ++b) {
      const osg::Vec3d c = merged.body_transform(b)->getMatrix().getTrans();
      for (const osg::Vec3d& d : {osg::Vec3d(0, 0, 1), osg::Vec3d(0.01, 0.02, 1)}) {
        const osg::Vec3d from = c + d * merged.characteristic_length(),
                         to = c - d * merged.characteristic_length();
        CHECK(merged_test_ray(merged, from, to) == merged_test_ray(plain, from, to));
      }
    }
    // A selected body is drawn by its own nodes (in the selection colour), not by the list.
    const int user = mech.compiled.user_body[1], model = 1;
    merged.set_selection({user, -1});
    CHECK(merged.body_transform(model)->getChild(0)->getNodeMask() == kMechanismMask);
    merged_test_compare(merged, model);
    merged.set_selection({});
    CHECK(merged.body_transform(model)->getChild(0)->getNodeMask() == kPickOnlyMask);
    merged_test_compare(merged, -1);
  }
}

TEST_CASE("scene: many bodies are tessellated coarser", "[render]") {
  CHECK(prim::detail_ratio_for(1) == prim::kDetailRatio);
  CHECK(prim::detail_ratio_for(prim::kDetailedBodies) == prim::kDetailRatio);
  float last = prim::kDetailRatio;
  for (int n : {151, 300, 1000, 2000, 100000}) {
    const float r = prim::detail_ratio_for(n);
    CHECK(r <= last);                     // falls with the body count ...
    CHECK(r >= prim::kLeastDetailRatio);  // ... to a floor
    last = r;
  }
  CHECK(prim::detail_ratio_for(1000) < prim::detail_ratio_for(300));
  CHECK(prim::detail_ratio_for(300) < prim::detail_ratio_for(151));
  CHECK(prim::detail_ratio_for(100000) == prim::kLeastDetailRatio);
  // The ratio in force while a scope lives, then the one before.
  auto segments = [] {
    osg::ref_ptr<osg::Geometry> g = prim::cylinder({0, 0, 0}, {0, 0, 1}, 0.1, {1, 1, 1, 1});
    return static_cast<const osg::Vec3Array&>(*g->getVertexArray()).size();
  };
  const std::size_t fine = segments();
  std::size_t coarsest = 0;
  {
    const prim::DetailScope coarse(prim::kLeastDetailRatio);
    coarsest = segments();
    CHECK(coarsest < fine);
  }
  CHECK(segments() == fine);
  {  // the floor is OSG's own: a coarser ratio builds the same cylinder
    const prim::DetailScope coarser(0.5f * prim::kLeastDetailRatio);
    CHECK(segments() == coarsest);
  }
}
