// The mechanism scene (render/mechanism_scene) against the core's kinematics: one transform per
// model body, every joint frame where forward kinematics puts it, sizes that follow the
// mechanism, picking by ray casting (no GL context needed).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <osg/Geode>
#include <osg/Geometry>
#include <osgUtil/IntersectionVisitor>
#include <osgUtil/LineSegmentIntersector>
#include <string>

#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/io/visual_json.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/simulation.hpp"
#include "core/sim/snapshot.hpp"
#include "render/contact_overlay.hpp"
#include "render/mechanism_scene.hpp"
#include "render/scene_layout.hpp"
#include "tests/support/snapshots.hpp"

using namespace articula;

namespace {

// World position of joint j's frame origin on one side, from the spec and forward kinematics
// alone (nothing from render/).
Vec3 joint_point(const Mechanism& mech, const Data& data, int j, bool child) {
  const JointSpec& js = mech.spec.joints[j];
  const std::string& body = child ? js.child : js.parent;
  const Vec3 p_user = (child ? js.child_frame : js.parent_frame).position;
  if (body == "ground") return p_user;
  const int m = mech.compiled.model_body[mech.spec.body_index(body)];
  const Transform& X = mech.compiled.X_body[m];  // ^{model}X_{user}
  return point_position(data, m, X.E * (p_user - X.r));
}

ScenePick cast_ray(const MechanismScene& scene, const Vec3& from, const Vec3& to) {
  osg::ref_ptr<osgUtil::LineSegmentIntersector> ray = new osgUtil::LineSegmentIntersector(
      osg::Vec3d(from.x(), from.y(), from.z()), osg::Vec3d(to.x(), to.y(), to.z()));
  osgUtil::IntersectionVisitor visitor(ray.get());
  visitor.setTraversalMask(kMechanismMask);
  scene.root()->accept(visitor);
  if (!ray->containsIntersections()) return {};
  return scene.pick(ray->getFirstIntersection().nodePath);
}

}  // namespace

TEST_CASE("scene: one transform per model body, each non-ground body drawn", "[render]") {
  for (const char* name :
       {"fourbar.json", "excavator.json", "stewart_platform.json", "slider_crank.json",
        "jansen_leg.json", "puma560.json", "rssr.json", "pendulum.json"}) {
    INFO(name);
    const Mechanism mech = test::prepared_sample(name);
    MechanismScene scene(mech);
    REQUIRE(scene.body_count() == mech.model().nb + 1);
    for (int i = 0; i <= mech.model().nb; ++i) {
      osg::MatrixTransform* xf = scene.body_transform(i);
      REQUIRE(xf != nullptr);
      CHECK(scene.root()->containsNode(xf));
      if (i == 0) continue;
      const osg::BoundingSphere bound = xf->getBound();
      CHECK(bound.valid());
      CHECK(bound.radius() > 0.005 * scene.characteristic_length());
    }
    CHECK(scene.anchors().size() == 2 * mech.spec.joints.size());
  }
}

TEST_CASE("scene: joint points follow forward kinematics after update()", "[render]") {
  for (const char* name : {"fourbar.json", "excavator.json", "stewart_platform.json",
                           "bennett.json", "slider_crank.json", "puma560.json"}) {
    INFO(name);
    const Mechanism mech = test::prepared_sample(name);
    MechanismScene scene(mech);
    const Snapshot snap = test::snapshot_after(mech, 150);
    const unsigned children = scene.root()->getNumChildren();
    scene.update(snap);
    CHECK(scene.root()->getNumChildren() == children);  // moved, not rebuilt
    Data data(mech.model());
    forward_kinematics(mech.model(), data, snap.q);
    for (std::size_t k = 0; k < scene.anchors().size(); ++k) {
      const JointAnchor& a = scene.anchors()[k];
      const osg::Vec3d p = scene.anchor_world(static_cast<int>(k));
      const Vec3 expected = joint_point(mech, data, a.joint, a.child);
      INFO("joint " << mech.spec.joints[a.joint].name << (a.child ? " child" : " parent"));
      CHECK((Vec3(p.x(), p.y(), p.z()) - expected).norm() <= 1e-12);
    }
    // Both sides of a pin meet: the loops are closed in the drawing too.
    for (std::size_t j = 0; j < mech.spec.joints.size(); ++j) {
      const JointType t = mech.spec.joints[j].joint.type;
      if (t != JointType::Revolute && t != JointType::Spherical && t != JointType::Universal)
        continue;
      CHECK((scene.anchor_world(2 * j) - scene.anchor_world(2 * j + 1)).length() <= 1e-9);
    }
  }
}

TEST_CASE("scene: characteristic length follows the mechanism's size", "[render]") {
  const Mechanism fourbar = test::prepared_sample("fourbar.json");
  const Mechanism excavator = test::prepared_sample("excavator.json");
  const double small = MechanismScene(fourbar).characteristic_length();
  const double large = MechanismScene(excavator).characteristic_length();
  CHECK(small > 0.25);  // ground 0.3 m, rocker 0.25 m
  CHECK(small < 0.6);
  CHECK(large > 2.5);  // boom 5.7 m, pins 2 m apart
  CHECK(large < 8.0);
}

TEST_CASE("scene: rays pick joints and bodies, overlays follow snapshots", "[render]") {
  const Mechanism mech = test::prepared_sample("fourbar.json");
  MechanismScene scene(mech);
  const Snapshot snap = test::snapshot_after(mech, 100);
  scene.update(snap);
  Data data(mech.model());
  forward_kinematics(mech.model(), data, snap.q);
  const int joint_A = mech.spec.joint_index("A"), coupler = mech.spec.body_index("coupler");
  const Vec3 A = joint_point(mech, data, joint_A, true);
  const Vec3 B = joint_point(mech, data, mech.spec.joint_index("B"), false);
  const Vec3 z = Vec3::UnitZ();
  const ScenePick on_pin = cast_ray(scene, A + z, A - z);
  CHECK(on_pin.joint == joint_A);
  CHECK(on_pin.body >= 0);
  const Vec3 mid = 0.5 * (A + B);
  CHECK(cast_ray(scene, mid + z, mid - z) == ScenePick{coupler, -1});
  const Vec3 empty(5, 5, 0);
  CHECK(cast_ray(scene, empty + z, empty - z) == ScenePick{});
  scene.set_selection({coupler, joint_A});
  scene.set_selection({});

  scene.set_trace(coupler, osg::Vec3d(0.14, 0.05, 0));
  scene.set_forces_visible(true);
  Simulation sim(mech);
  Data d2(mech.model());
  Snapshot s;
  for (int k = 0; k < 50; ++k) {
    for (int i = 0; i < 4; ++i) sim.step(1e-3, Integrator::RK4);
    sim.evaluate();
    take_snapshot(sim, d2, s);
    scene.update(s);
    scene.extend_trace({s});  // the trace grows with records, not with displayed frames
  }
  CHECK(scene.trace_size() == 50);
  CHECK(scene.force_scale() > 0);
  scene.update(s);  // a paused run adds no point
  scene.extend_trace({s});
  CHECK(scene.trace_size() == 50);
}

TEST_CASE("scene: contacts drawn where the ball meets the floor, with its weight", "[render]") {
  // The bouncing-ball sample (0.1 kg, radius 0.05 m, on a vertical slider over the floor y = 0)
  // set down at rest: the contact holds it with m g = 0.981 N straight up, at the ball's foot.
  MechanismSpec spec =
      load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/bouncing_ball.json").spec;
  spec.joints[0].q0 = std::vector<double>{0.05};
  const Mechanism resting = prepare(spec);
  MechanismScene scene(resting);
  const ContactOverlay& contacts = scene.contacts();
  REQUIRE(contacts.count() == 1);
  scene.update(test::snapshot_after(resting, 20));
  CHECK(contacts.touching(0));
  CHECK((contacts.touching_point(0) - osg::Vec3d(0, 0, 0)).length() < 1e-12);
  CHECK((contacts.force(0) - osg::Vec3d(0, 0.1 * 9.81, 0)).length() < 1e-9);  // λ from the LCP
  // The sphere is drawn on the ball: a ray down beside the guide's rail (on the y axis) and
  // 30 mm off it, inside the 50 mm ball, meets the ball, not the floor patch.
  CHECK(cast_ray(scene, Vec3(0.03, 1, 0), Vec3(0.03, -1, 0)).body == spec.body_index("ball"));
  // The ball is drawn as a ball, not as a slider block on its guide that would hide the sphere.
  const SceneLayout layout = make_layout(resting);
  CHECK(layout.slider_joint[resting.compiled.model_body[spec.body_index("ball")]] == -1);
  CHECK(layout.solids[resting.compiled.model_body[spec.body_index("ball")]].sphere);
  const SceneLayout crank =
      make_layout(test::prepared_sample("slider_crank.json"));  // no contact: a block
  CHECK(std::count_if(crank.slider_joint.begin(), crank.slider_joint.end(),
                      [](int j) { return j >= 0; }) == 1);
  // In the air (0.4 m up, falling): apart, no force, the foot straight below on the floor.
  spec.joints[0].q0 = std::vector<double>{0.4};
  const Mechanism falling = prepare(spec);
  MechanismScene air(falling);
  air.update(test::snapshot_after(falling, 20));
  CHECK_FALSE(air.contacts().touching(0));
  CHECK(air.contacts().force(0).length() == 0.0);
  CHECK(std::abs(air.contacts().touching_point(0).y()) < 1e-12);
  // Switched off, the markers stop following (nothing is computed for hidden overlays).
  air.set_contacts_visible(false);
  CHECK(air.contacts().markers()->getNodeMask() == 0u);
}

TEST_CASE("scene: a body with one joint reaches its contact roller (ratchet pawl)", "[render]") {
  // The pawl turns about its pivot and carries a 1 mm roller at (-0.06, 0, 0), its centre of mass
  // at (-0.03, 0, 0) (user body frame). It is drawn out to the roller, not as a ball at its
  // centre of mass: a ray through the arm three quarters of the way out meets the pawl.
  const Mechanism mech = test::prepared_sample("ratchet.json");
  MechanismScene scene(mech);
  Data data(mech.model());
  forward_kinematics(mech.model(), data, mech.q0);
  const int user = mech.spec.body_index("pawl"), m = mech.compiled.model_body[user];
  const Transform& X = mech.compiled.X_body[m];  // ^{model}X_{user}
  auto world = [&](const Vec3& p) { return point_position(data, m, X.E * (p - X.r)); };
  const Vec3 com = world(Vec3(-0.03, 0, 0)), roller = world(Vec3(-0.06, 0, 0));
  const Vec3 arm = com + 0.75 * (roller - com), z = Vec3::UnitZ();
  CHECK(cast_ray(scene, arm + z, arm - z).body == user);
  // Off the arm sideways by 8 mm (the bar is thinner): nothing of the pawl.
  const Vec3 side = arm + 0.008 * (roller - com).normalized().cross(z);
  CHECK(cast_ray(scene, side + z, side - z).body != user);
}

namespace {
// Vertices a frame sends to the rasteriser: the drawables under visible nodes, each counted once
// per path that reaches it (shared geometry under several transforms is drawn several times).
struct VertexCounter : osg::NodeVisitor {
  VertexCounter() : osg::NodeVisitor(TRAVERSE_ACTIVE_CHILDREN) { setTraversalMask(~0u); }
  void apply(osg::Drawable& d) override {
    if (const osg::Geometry* g = d.asGeometry(); g && g->getVertexArray())
      vertices += g->getVertexArray()->getNumElements();
  }
  long vertices = 0;
};
long visible_vertices(const MechanismScene& scene) {
  VertexCounter count;
  scene.root()->accept(count);
  return count.vertices;
}
}  // namespace

TEST_CASE("scene: a vertex budget that a software rasteriser draws at 30 fps", "[render]") {
  // Under Mesa llvmpipe (Xvfb, CI) a frame costs about the number of small triangles drawn; at
  // the former tessellation the Stewart platform sent ~108k vertices and drew 23 fps.
  for (const auto& [file, budget] : {std::pair{"fourbar.json", 6000L},
                                     {"jansen_leg.json", 16000L},
                                     {"stewart_platform.json", 22000L}}) {
    INFO(file);
    const Mechanism mech = test::prepared_sample(file);
    MechanismScene scene(mech);
    scene.set_forces_visible(true);  // the worst case: every overlay that scales with joints
    const long n = visible_vertices(scene);
    std::printf("%s: %ld vertices\n", file, n);
    CHECK(n > 0);
    CHECK(n < budget);
  }
}

TEST_CASE("scene: a body's visuals are drawn where its frame puts them", "[render]") {
  // The pendulum with its joint frame moved and turned on the body (so that the model body frame
  // differs from the user's), a box and a sphere in body coordinates. Rays along the box's axes
  // must enter it on its faces: half its edge from the centre that forward kinematics and the
  // body frame give (float geometry: 1e-6 m).
  MechanismSpec spec =
      load_project(std::string(ARTICULA_SOURCE_DIR) + "/samples/pendulum.json").spec;
  spec.joints[0].child_frame.position = Vec3(0.1, 0.05, 0);
  spec.joints[0].child_frame.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()));
  VisualSpec box;
  box.size = Vec3(0.1, 0.2, 0.3);
  box.frame.position = Vec3(0.6, 0.02, -0.01);
  box.frame.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(0, 0, 1)));
  VisualSpec ball;
  ball.shape = VisualSpec::Shape::Sphere;
  ball.radius = 0.05;
  ball.frame.position = Vec3(1.0, 0, 0);
  set_body_visuals(spec.bodies[0], {box, ball});
  const Mechanism mech = prepare(spec);
  MechanismScene scene(mech);
  const Snapshot snap = test::snapshot_after(mech, 120);
  scene.update(snap);
  Data data(mech.model());
  forward_kinematics(mech.model(), data, snap.q);
  const int m = mech.compiled.model_body[0];
  // world <- model body <- user body <- visual, from core alone
  const Transform X_visual_world =
      box.frame.transform() * mech.compiled.X_body[m].inverse() * data.X0[m];
  const Vec3 centre = X_visual_world.translation();
  const Mat3 axes = X_visual_world.rotation();  // the box's axes in world coordinates
  for (int k = 0; k < 3; ++k) {
    INFO("box axis " << k);
    const Vec3 a = axes.col(k);
    osg::ref_ptr<osgUtil::LineSegmentIntersector> ray = new osgUtil::LineSegmentIntersector(
        osg::Vec3d(centre.x() + 2 * a.x(), centre.y() + 2 * a.y(), centre.z() + 2 * a.z()),
        osg::Vec3d(centre.x(), centre.y(), centre.z()));
    osgUtil::IntersectionVisitor visitor(ray.get());
    visitor.setTraversalMask(kMechanismMask);
    scene.root()->accept(visitor);
    REQUIRE(ray->containsIntersections());
    const auto& hit = ray->getFirstIntersection();
    CHECK(scene.pick(hit.nodePath).body == 0);
    const osg::Vec3d p = hit.getWorldIntersectPoint();
    CHECK((Vec3(p.x(), p.y(), p.z()) - (centre + 0.5 * box.size[k] * a)).norm() <= 1e-6);
  }
  // The sphere: a vertical ray off its centre by 0.5 r (a ray through the pole vertex itself
  // may slip between the degenerate triangles there) enters it sqrt(0.75) r above the centre;
  // its facets lie inside the sphere by up to 5 % of r at this tessellation.
  const Vec3 c =
      (ball.frame.transform() * mech.compiled.X_body[m].inverse() * data.X0[m]).translation();
  const Vec3 off = c + Vec3(0.3, 0.4, 0) * ball.radius;
  const Vec3 z = Vec3::UnitZ();
  CHECK(cast_ray(scene, off + z, off).body == 0);
  osg::ref_ptr<osgUtil::LineSegmentIntersector> ray = new osgUtil::LineSegmentIntersector(
      osg::Vec3d(off.x(), off.y(), off.z() + 1), osg::Vec3d(off.x(), off.y(), off.z()));
  osgUtil::IntersectionVisitor visitor(ray.get());
  visitor.setTraversalMask(kMechanismMask);
  scene.root()->accept(visitor);
  REQUIRE(ray->containsIntersections());
  CHECK(ray->getFirstIntersection().getWorldIntersectPoint().z() - c.z() ==
        Approx(std::sqrt(0.75) * ball.radius).margin(0.05 * ball.radius));
}
