#include "core/model/model.hpp"

#include <Eigen/Eigenvalues>
#include <stdexcept>

namespace articula {

int Model::body_index(const std::string& name) const {
  for (int i = 0; i <= nb; ++i)
    if (body_names[i] == name) return i;
  return -1;
}

std::string inertia_problem(double mass, const Mat3& I) {
  if (!(mass > 0.0)) return "mass must be positive";
  if ((I - I.transpose()).norm() > 1e-12 * (1.0 + I.norm())) return "inertia must be symmetric";
  const Eigen::SelfAdjointEigenSolver<Mat3> es(I);
  const Vec3 p = es.eigenvalues();  // principal moments, ascending
  const double tol = 1e-12 * std::max(1.0, p.cwiseAbs().maxCoeff());
  if (p(0) <= 0.0) return "inertia must be positive definite";
  if (p(0) + p(1) < p(2) - tol) return "principal moments violate the triangle inequality";
  return {};
}

ModelBuilder::ModelBuilder() {
  model_.parent = {-1};
  model_.joints = {Joint::fixed()};
  model_.X_tree = {Transform()};
  model_.X_tree_axes = {AxisPermutation()};
  model_.inertia = {RigidBodyInertia()};
  model_.q_index = {0};
  model_.v_index = {0};
  model_.children = {{}};
  model_.body_names = {"ground"};
  model_.joint_names = {""};
  model_.set_gravity(Vec3(0, -9.81, 0));
}

int ModelBuilder::add_body(const std::string& name, int parent, const Joint& joint,
                           const Transform& X_T, const RigidBodyInertia& inertia,
                           const std::string& joint_name) {
  Model& m = model_;
  if (parent < 0 || parent > m.nb)
    throw std::invalid_argument("body '" + name + "': unknown parent");
  if (m.body_index(name) >= 0) throw std::invalid_argument("body '" + name + "': duplicate name");
  // Massless bodies are allowed inside a tree (their inertia is zero); otherwise check physics.
  if (inertia.m != 0.0 || !inertia.Ibar.isZero()) {
    const std::string why = inertia_problem(inertia.m, inertia.inertia_about_com());
    if (!why.empty()) throw std::invalid_argument("body '" + name + "': " + why);
  }
  const int i = ++m.nb;
  m.parent.push_back(parent);
  m.joints.push_back(joint);
  m.X_tree.push_back(X_T);
  m.X_tree_axes.push_back(snap_axis_permutation(m.X_tree.back().E));
  m.inertia.push_back(inertia);
  m.q_index.push_back(m.nq);
  m.v_index.push_back(m.nv);
  m.children.emplace_back();
  m.children[parent].push_back(i);
  m.body_names.push_back(name);
  m.joint_names.push_back(joint_name.empty() ? name + "_joint" : joint_name);
  // Expanded parent array (RBDA Table 6.4): a multi-DoF joint becomes a chain of 1-DoF arcs.
  int pv = parent;  // last velocity coordinate of the nearest ancestor with freedoms
  while (pv > 0 && m.joints[pv].nv() == 0) pv = m.parent[pv];
  int prev = pv > 0 ? m.v_index[pv] + m.joints[pv].nv() - 1 : -1;
  for (int k = 0; k < joint.nv(); ++k) {
    m.lambda_v.push_back(prev);
    m.v_body.push_back(i);
    prev = m.nv + k;
  }
  m.nq += joint.nq();
  m.nv += joint.nv();
  return i;
}

Model ModelBuilder::build() const {
  return model_;
}

}  // namespace articula
