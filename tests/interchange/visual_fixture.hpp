#pragma once
// A mechanism dressed with visuals, and where its visuals are in the world: shared by the URDF,
// SDFormat and MJCF visual tests.
#include <catch2/catch.hpp>

#include "core/algorithms/kinematics.hpp"
#include "core/io/project.hpp"
#include "core/io/visual_json.hpp"
#include "core/model/data.hpp"
#include "core/sim/mechanism.hpp"
#include "tests/support/fixtures.hpp"

namespace articula::test {

// Every visual's ^{visual} X_{world} at configuration q, body by body in file order.
inline std::vector<Transform> visual_poses(const Mechanism& mech, const VecX& q) {
  Data data(mech.model());
  forward_kinematics(mech.model(), data, q);
  std::vector<Transform> out;
  for (std::size_t b = 0; b < mech.spec.bodies.size(); ++b) {
    const int m = mech.compiled.model_body[b];
    for (const VisualSpec& v : body_visuals(mech.spec.bodies[b]))
      out.push_back(v.frame.transform() * mech.compiled.X_body[m].inverse() * data.X0[m]);
  }
  return out;
}

inline double largest_difference(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    d = std::max({d, (a[k].E - b[k].E).cwiseAbs().maxCoeff(), (a[k].r - b[k].r).norm()});
  return d;
}

// The double pendulum with its joint frames moved and turned on the links (so that link frames
// written by URDF differ from the body frames) and one shape of each kind.
inline MechanismSpec dressed_pendulum() {
  MechanismSpec spec = load_project(sample_path("double_pendulum.json")).spec;
  spec.joints[0].child_frame.position = Vec3(-0.05, 0.02, 0.01);
  spec.joints[0].child_frame.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
  spec.joints[1].child_frame.position = Vec3(0.04, 0, -0.02);
  spec.joints[1].child_frame.orientation =
      Quat(Eigen::AngleAxisd(-1.1, Vec3(0, 1, 1).normalized()));
  VisualSpec box, cylinder, sphere;
  box.size = Vec3(0.3, 0.04, 0.02);
  box.frame.position = Vec3(0.15, 0, 0);
  box.frame.orientation = Quat(Eigen::AngleAxisd(0.2, Vec3::UnitZ()));
  cylinder.shape = VisualSpec::Shape::Cylinder;
  cylinder.radius = 0.02;
  cylinder.length = 0.05;
  cylinder.frame.orientation = Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX()));
  sphere.shape = VisualSpec::Shape::Sphere;
  sphere.radius = 0.03;
  sphere.frame.position = Vec3(0.3, 0.01, 0);
  set_body_visuals(spec.bodies[0], {box, cylinder});
  set_body_visuals(spec.bodies[1], {sphere, box});
  return spec;
}

}  // namespace articula::test
