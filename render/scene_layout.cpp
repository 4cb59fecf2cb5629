#include "render/scene_layout.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/contact/unilateral.hpp"

namespace articula {

namespace {

// World poses ^iX_0 of the model bodies at the assembled initial state.
std::vector<Transform> initial_poses(const Mechanism& mech) {
  Data data(mech.model());
  forward_kinematics(mech.model(), data, mech.q0);
  std::vector<Transform> X0(mech.model().nb + 1);
  for (int i = 1; i <= mech.model().nb; ++i) X0[i] = data.X0[i];
  return X0;
}

int model_body_of(const Mechanism& mech, const std::string& name) {
  if (name == "ground") return 0;
  const int user = mech.spec.body_index(name);
  return user < 0 ? 0 : mech.compiled.model_body[user];
}

std::vector<Anchor> make_anchors(const Mechanism& mech, const std::vector<Transform>& X0) {
  std::vector<Anchor> anchors;
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j) {
    const JointSpec& js = mech.spec.joints[j];
    for (bool child : {false, true}) {
      Anchor a;
      a.joint = static_cast<int>(j);
      a.child = child;
      a.body = model_body_of(mech, child ? js.child : js.parent);
      const PoseSpec& frame = child ? js.child_frame : js.parent_frame;
      // ^{joint}X_{model} = ^{joint}X_{user} ^{user}X_{model}
      a.X = frame.transform() * mech.compiled.X_body[a.body].inverse();
      a.world0 = (a.X * X0[a.body]).r;
      anchors.push_back(a);
    }
  }
  return anchors;
}

std::vector<Vec3> distinct_points(const std::vector<Anchor>& anchors,
                                  const std::vector<int>& on_body, double tolerance) {
  std::vector<Vec3> points;
  for (int k : on_body) {
    const Vec3& p = anchors[k].origin();
    const bool seen = std::any_of(points.begin(), points.end(),
                                  [&](const Vec3& q) { return (q - p).norm() <= tolerance; });
    if (!seen) points.push_back(p);
  }
  return points;
}

// A body is drawn as a slider block when a prismatic joint's frame is its only joint point and
// its inertia says it is compact: the slider of a slider-crank, not the rod of a cylinder.
// A ball (a contact sphere centred on its only joint point, the bouncing ball on its guide) is
// drawn as itself: a block there would hide the sphere that meets the floor.
int slider_joint_of(const Mechanism& mech, const SceneLayout& layout, int body) {
  if (body == 0 || layout.points[body].size() > 1 || layout.ball[body]) return -1;
  if (layout.solids[body].extent() > 0.3 * layout.length) return -1;
  for (int k : layout.body_anchors[body]) {
    const Anchor& a = layout.anchors[k];
    if (mech.spec.joints[a.joint].joint.type == JointType::Prismatic) return a.joint;
  }
  return -1;
}

}  // namespace

InertiaSolid inertia_solid(const RigidBodyInertia& I) {
  InertiaSolid s;
  if (I.m <= 0) return s;
  s.center = I.com();
  Eigen::SelfAdjointEigenSolver<Mat3> eig(I.inertia_about_com());
  const Vec3 J = eig.eigenvalues().cwiseMax(0.0);  // ascending
  s.axes = eig.eigenvectors();
  const double m = I.m;
  // The distinct moment of an axisymmetric body: the smallest (rod) or the largest (disc).
  const double tol = 0.08 * J.maxCoeff();
  if (J[2] - J[0] <= tol) {  // J = 2/5 m r^2
    s.sphere = true;
    s.half.setConstant(std::sqrt(2.5 * J.mean() / m));
    return s;
  }
  int axis = -1;
  if (std::abs(J[1] - J[2]) <= tol && std::abs(J[0] - J[1]) > tol) axis = 0;
  if (std::abs(J[0] - J[1]) <= tol && std::abs(J[1] - J[2]) > tol) axis = 2;
  if (axis >= 0) {
    const double J_axis = J[axis], J_perp = axis == 0 ? 0.5 * (J[1] + J[2]) : 0.5 * (J[0] + J[1]);
    const double r2 = 2 * J_axis / m;  // J_axis = m r^2 / 2, J_perp = m (3 r^2 + h^2) / 12
    const double h2 = std::max(0.0, 12 * J_perp / m - 3 * r2);
    s.cylinder = true;
    s.half = Vec3(std::sqrt(r2), std::sqrt(r2), 0.5 * std::sqrt(h2));
    if (axis == 0) s.axes = (Mat3() << s.axes.col(1), s.axes.col(2), s.axes.col(0)).finished();
    return s;
  }
  for (int k = 0; k < 3; ++k) {  // J_k = m (a_j^2 + a_l^2) / 12 for full edge lengths a
    const double a2 = 6 * (J.sum() - 2 * J[k]) / m;
    s.half[k] = 0.5 * std::sqrt(std::max(0.0, a2));
  }
  return s;
}

double characteristic_length(const Mechanism& mech) {
  const std::vector<Transform> X0 = initial_poses(mech);
  Eigen::AlignedBox3d box;
  for (const Anchor& a : make_anchors(mech, X0)) box.extend(a.world0);
  for (int i = 1; i <= mech.model().nb; ++i)
    box.extend(X0[i].r + X0[i].E.transpose() * mech.model().inertia[i].com());
  for (const Unilateral& u : bind_unilaterals(mech))  // contact spheres, which may sit far out
    if (u.contact >= 0 && !u.slide())
      box.extend(u.body == 0 ? u.point : Vec3(X0[u.body].r + X0[u.body].E.transpose() * u.point));
  const double d = box.isEmpty() ? 0.0 : box.diagonal().norm();
  return d > 1e-9 ? d : 1.0;
}

SceneLayout make_layout(const Mechanism& mech) {
  const Model& model = mech.model();
  SceneLayout layout;
  layout.X0 = initial_poses(mech);
  const std::vector<Transform>& X0 = layout.X0;
  layout.length = characteristic_length(mech);
  layout.planar = mech.planar;
  const Vec3 g = mech.spec.gravity;
  layout.up = g.norm() > 0 ? Vec3(-g.normalized()) : Vec3::UnitY();
  layout.anchors = make_anchors(mech, X0);
  layout.body_anchors.resize(model.nb + 1);
  for (std::size_t k = 0; k < layout.anchors.size(); ++k)
    layout.body_anchors[layout.anchors[k].body].push_back(static_cast<int>(k));
  const double tolerance = 0.005 * layout.length;  // points closer than this look like one pin
  layout.points.resize(model.nb + 1);
  layout.solids.resize(model.nb + 1);
  for (int i = 0; i <= model.nb; ++i) {
    layout.points[i] = distinct_points(layout.anchors, layout.body_anchors[i], tolerance);
    if (i > 0) layout.solids[i] = inertia_solid(model.inertia[i]);
  }
  layout.contact_points.resize(model.nb + 1);
  layout.ball.assign(model.nb + 1, false);
  for (const Unilateral& u : bind_unilaterals(mech)) {
    if (u.contact < 0 || u.slide() || u.body == 0) continue;
    std::vector<Vec3>& on = layout.contact_points[u.body];
    auto near = [&](const Vec3& q) { return (q - u.point).norm() <= tolerance; };
    const bool at_joint =
        std::any_of(layout.points[u.body].begin(), layout.points[u.body].end(), near);
    if (at_joint && u.radius > 0) layout.ball[u.body] = true;
    if (!at_joint && std::none_of(on.begin(), on.end(), near)) on.push_back(u.point);
  }
  layout.slider_joint.assign(model.nb + 1, -1);
  for (int i = 1; i <= model.nb; ++i) layout.slider_joint[i] = slider_joint_of(mech, layout, i);
  return layout;
}

}  // namespace articula
