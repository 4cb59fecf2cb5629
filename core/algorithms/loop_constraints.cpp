#include "core/algorithms/loop_constraints.hpp"

#include "core/algorithms/kinematics.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

namespace {
// ^{frame}X_0 of a loop joint's predecessor or successor frame.
Transform frame_from_base(const Data& data, int body, const Transform& X_frame) {
  return body == 0 ? X_frame : X_frame * data.X0[body];
}

Motion base_velocity(const Data& data, int body) {
  return body == 0 ? Motion::Zero() : data.X0[body].inverse_apply(data.v[body]);
}
Motion base_acceleration(const Data& data, int body) {
  return body == 0 ? Motion::Zero() : data.X0[body].inverse_apply(data.a[body]);
}
}  // namespace

// T̊^T v_rel for loop joints whose T varies with the configuration (only the universal joint's
// moment column n = y_s × z_p does). v_rel in successor coordinates.
double loop_tdot_term(const Joint& joint, const Transform& X_sp, const Motion& v_rel) {
  if (joint.type != JointType::Universal) return 0.0;
  const Vec3 w = v_rel.head<3>();
  const Vec3 z_p = X_sp.E.col(2);
  const Vec3 n_dot = Vec3::UnitY().cross(-w.cross(z_p));
  return n_dot.dot(w);
}

Transform loop_transform(const Data& data, const LoopJoint& l) {
  const Transform Xp = frame_from_base(data, l.predecessor, l.X_P);
  const Transform Xs = frame_from_base(data, l.successor, l.X_S);
  return Xs * Xp.inverse();
}

void loop_position_errors(const Model&, const Data& data, const std::vector<LoopJoint>& loops,
                          VecX& delta) {
  delta.resize(constraint_rows(loops));
  VecN d;
  Mat6X T;
  for (const LoopJoint& l : loops) {
    loop_jcalc(l.joint, loop_transform(data, l), d, T);
    delta.segment(l.row, d.size()) = d;
  }
}

void loop_jacobian(const Model& model, const Data& data, const std::vector<LoopJoint>& loops, MatX& K) {
  K.setZero(constraint_rows(loops), model.nv);
  VecN d;
  Mat6X T;
  for (const LoopJoint& l : loops) {  // RBDA Table 8.4
    const Transform Xs = frame_from_base(data, l.successor, l.X_S);
    loop_jcalc(l.joint, loop_transform(data, l), d, T);
    const int nc = l.joint.nc();
    Mat6X T0(6, nc);  // T in base coordinates
    for (int c = 0; c < nc; ++c) T0.col(c) = Xs.transpose_apply(Force(T.col(c)));
    auto add_path = [&](int body, double sign) {
      for (int i = body; i > 0; i = model.parent[i])
        for (int k = 0; k < model.joints[i].nv(); ++k) {
          const Motion s0 = data.X0[i].inverse_apply(Motion(data.jc[i].S.col(k)));
          K.block(l.row, model.v_index[i] + k, nc, 1) += sign * (T0.transpose() * s0);
        }
    };
    // Joints on both paths (above the nearest common ancestor) cancel exactly.
    add_path(l.successor, 1.0);
    add_path(l.predecessor, -1.0);
  }
}

void relative_velocity_row(const Model& model, const Data& data, const LoopJoint& l, const Force& t,
                           Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row) {
  row.setZero();
  const Force t0 = frame_from_base(data, l.successor, l.X_S).transpose_apply(t);  // base coords
  auto add_path = [&](int body, double sign) {
    for (int i = body; i > 0; i = model.parent[i])
      for (int k = 0; k < model.joints[i].nv(); ++k)
        row(model.v_index[i] + k) += sign * t0.dot(data.X0[i].inverse_apply(Motion(data.jc[i].S.col(k))));
  };
  add_path(l.successor, 1.0);
  add_path(l.predecessor, -1.0);
}

void loop_bias(const Model&, const Data& data, const std::vector<LoopJoint>& loops, VecX& k) {
  k.resize(constraint_rows(loops));
  VecN d;
  Mat6X T;
  for (const LoopJoint& l : loops) {
    const Transform Xs = frame_from_base(data, l.successor, l.X_S);
    const Transform X_sp = loop_transform(data, l);
    loop_jcalc(l.joint, X_sp, d, T);
    const Motion vs = base_velocity(data, l.successor), vp = base_velocity(data, l.predecessor);
    const Motion rel = base_acceleration(data, l.successor) - base_acceleration(data, l.predecessor) +
                       cross_motion(vs, vp);
    const Motion rel_s = Xs.apply(rel);  // successor coordinates, where T is given
    k.segment(l.row, l.joint.nc()) = -(T.transpose() * rel_s);
    if (l.joint.type == JointType::Universal)
      k(l.row) -= loop_tdot_term(l.joint, X_sp, Xs.apply(Motion(vs - vp)));
  }
}

void loop_constraints(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                      const VecX& q, const VecX& qd, double alpha, double beta, VecX& delta,
                      MatX& K, VecX& k) {
  forward_kinematics_bias(model, data, q, qd);
  loop_position_errors(model, data, loops, delta);
  loop_jacobian(model, data, loops, K);
  loop_bias(model, data, loops, k);
  if (alpha != 0.0 || beta != 0.0)  // Eq. 8.22, row by row: no temporary vector
    for (int r = 0; r < k.size(); ++r) k[r] -= 2 * alpha * K.row(r).dot(qd) + beta * beta * delta[r];
}

}  // namespace articula
