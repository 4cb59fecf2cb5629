#include "core/doc/kinematic_drag.hpp"

#include <Eigen/SVD>

#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/model/configuration.hpp"

namespace articula {

namespace {
// The point in model body coordinates (a model body's frame is its tree joint's successor frame).
Vec3 model_point(const CompiledMechanism& c, int m, const Vec3& p) {
  return c.X_body[m].E * (p - c.X_body[m].r);
}

double loop_error(const Mechanism& mech, Data& data, const VecX& q) {
  forward_kinematics(mech.model(), data, q);
  VecX delta;
  loop_position_errors(mech.model(), data, mech.compiled.loops, delta);
  return delta.size() ? delta.cwiseAbs().maxCoeff() : 0.0;
}

// Columns spanning {v : K v = 0, v_locked = 0}.
MatX motion_basis(const Mechanism& mech, Data& data, const std::vector<bool>& locked) {
  const Model& model = mech.model();
  MatX K;
  loop_jacobian(model, data, mech.compiled.loops, K);
  int n_locked = 0;
  for (bool l : locked) n_locked += l;
  MatX A = MatX::Zero(K.rows() + n_locked, model.nv);
  A.topRows(K.rows()) = K;
  for (int v = 0, r = static_cast<int>(K.rows()); v < model.nv; ++v)
    if (locked[v]) A(r++, v) = 1.0;
  if (A.rows() == 0) return MatX::Identity(model.nv, model.nv);
  const Eigen::JacobiSVD<MatX> svd(A, Eigen::ComputeFullV);
  const VecX& s = svd.singularValues();
  const double tol = 1e-9 * std::max(1.0, s(0));
  int rank = 0;
  for (int i = 0; i < s.size(); ++i) rank += s(i) > tol;
  return svd.matrixV().rightCols(model.nv - rank);
}
}  // namespace

Vec3 body_point_world(const Mechanism& mech, const VecX& q, int user_body, const Vec3& point) {
  Data data(mech.model());
  forward_kinematics(mech.model(), data, q);
  const int m = mech.compiled.model_body[user_body];
  return point_position(data, m, model_point(mech.compiled, m, point));
}

DragResult drag_point(const Mechanism& mech, const VecX& q_start, int user_body, const Vec3& point,
                      const Vec3& target, bool hold_drives, int max_iterations) {
  const Model& model = mech.model();
  const CompiledMechanism& c = mech.compiled;
  const int m = c.model_body.at(user_body);
  const Vec3 p_m = model_point(c, m, point);
  const std::vector<bool> locked = hold_drives ? mech.locked_v : std::vector<bool>(model.nv, false);
  Data data(model);
  DragResult res;
  res.q = q_start;
  forward_kinematics(model, data, res.q);
  Vec3 e = target - point_position(data, m, p_m);
  res.distance = e.norm();
  const double L = mech.length_scale;
  MatX J;
  for (; res.iterations < max_iterations && res.distance > 1e-10 * L; ++res.iterations) {
    const MatX N = motion_basis(mech, data, locked);
    if (N.cols() == 0) break;
    point_jacobian(model, data, m, p_m, J);
    const MatX JN = J * N;
    // Damped least squares: the damping keeps steps finite near singular (limit) positions.
    const double lambda = 1e-6 * L * L;
    const MatX A = JN.transpose() * JN + lambda * MatX::Identity(N.cols(), N.cols());
    VecX dq = N * A.ldlt().solve(JN.transpose() * e);
    bool improved = false;
    for (double scale = 1.0; scale > 1e-4 && !improved; scale *= 0.5) {
      VecX q_try = integrate(model, res.q, dq, scale);
      const AssemblyResult a = assemble(model, data, c.loops, q_try, locked, 1e-12, 50);
      if (!a.converged) continue;
      forward_kinematics(model, data, q_try);
      const Vec3 e_try = target - point_position(data, m, p_m);
      if (e_try.norm() < res.distance * (1 - 1e-9)) {
        res.q = q_try;
        e = e_try;
        res.distance = e.norm();
        improved = true;
      }
    }
    forward_kinematics(model, data, res.q);
    if (!improved) break;  // at the reachable limit (or the target): nothing gets nearer
  }
  res.loop_error = loop_error(mech, data, res.q);
  return res;
}

}  // namespace articula
