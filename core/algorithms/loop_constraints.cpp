#include "core/algorithms/loop_constraints.hpp"

#include <algorithm>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/pivoted_ldlt.hpp"
#include "core/model/joint_ops.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

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
  LoopMotion m;
  loop_motion(data, l, LoopLevel::Position, m);
  return m.X_sp;
}

namespace {
// Column k of joint i's motion subspace in base coordinates, ^0X_i S_i.
Motion subspace_in_base(const Model& model, const Data& data, int i, int k) {
  return articula::subspace_in_base(model.joints[i], data.X0[i], data.jc[i].S, k);
}

// One loop joint's share of δ, K and k (RBDA Table 8.4), from one X_sp and one loop_jcalc.
// K rows are T^T (J_s - J_p) in the loop joint's successor frame; joints on both paths (above
// the nearest common ancestor) cancel exactly. k needs data.a from a
// forward_kinematics pass with q̈ = 0.
struct LoopTerms {
  LoopMotion m;  // Xs and X_sp; v_J and a_bias for the bias rows
  VecN delta;
  Mat6X T;
};
void loop_terms(const Data& data, const LoopJoint& l, LoopTerms& t) {
  loop_frames(data, l, t.m);
  loop_jcalc(l.joint, t.m.X_sp, t.delta, t.T);
}
// Column k of S_i rotated to base axes, still at body i's origin.
void rotated_column(const Model& model, const Data& data, int i, int k, double* x) {
  subspace_rotated(model.joints[i], data.X0[i], data.jc[i].S, k, x);
}

// The loop joint's constraint-force rows not known to be zero, rotated to base orientation.
struct RowBasis {
  int rows[6];
  int nc = 0;
  double Tb[6][6];       // Tb[a] = [E_s^T T_c,ang; E_s^T T_c,lin] for c = rows[a]
  bool angular = false;  // whether a row has a moment part (a spherical joint's have none)
};
inline RowBasis rotated_row_basis(const LoopJoint& l, const LoopTerms& t) {
  RowBasis b;
  for (int c = 0; c < l.joint.nc(); ++c)
    if (!(l.zero_rows >> c & 1u)) b.rows[b.nc++] = c;
  for (int a = 0; a < b.nc; ++a) {
    const double* tc = t.T.data() + 6 * b.rows[a];
    t.m.Xs.rot_t(tc[0], tc[1], tc[2], b.Tb[a]);
    t.m.Xs.rot_t(tc[3], tc[4], tc[5], b.Tb[a] + 3);
    b.angular = b.angular || tc[0] != 0.0 || tc[1] != 0.0 || tc[2] != 0.0;
  }
  return b;
}

// The nearest common ancestor of bodies a and b (0: ground); parents have lower indices.
int common_ancestor(const Model& model, int a, int b) {
  while (a != b) {
    if (a > b)
      a = model.parent[a];
    else
      b = model.parent[b];
  }
  return a;
}

// rotated: the columns of rotated_column for every degree of freedom (nv), or nullptr to
// compute them here. Loops that share a path (a Stewart platform's legs all end at the top
// plate) then rotate each column once.
void jacobian_rows(const Model& model, const Data& data, const LoopJoint& l, const LoopTerms& t,
                   const Motion* rotated, MatX& K) {
  // Row c of K is T_c . (Xs ^0X_i S_i). T is rotated to base orientation once per loop, and each
  // column taken at the successor origin p_s as [w; v + (r_i - p_s) x w], with w and v the
  // column rotated to base orientation at body i's origin r_i: the lever arm is a difference
  // of nearby points, so no digits are lost far from the origin (RBDA 10.1), and the column
  // costs a rotation instead of two full transforms. Raw column pointers: K is written through
  // while T is read.
  const RowBasis basis = rotated_row_basis(l, t);
  const int nc = basis.nc;
  const int* rows = basis.rows;
  const auto& Tb = basis.Tb;
  const bool angular = basis.angular;
  double* Kc = K.data() + l.row;  // K(l.row + c, col) = Kc[c + col * ldk]
  const long ldk = K.rows();
  const Vec3& ps = t.m.Xs.r;
  // The rows of one column. Three force rows (a spherical loop joint, the common case in
  // spatial mechanisms) are written out, their T_c in registers for the whole path.
  auto general_rows = [&](const double* x, double sign, double* out) {
    for (int a = 0; a < nc; ++a) {
      const double* tc = Tb[a];
      const double lin = tc[3] * x[3] + tc[4] * x[4] + tc[5] * x[5];
      out[rows[a]] += sign * (angular ? tc[0] * x[0] + tc[1] * x[1] + tc[2] * x[2] + lin : lin);
    }
  };
  auto three_force_rows = [&](const double* x, double sign, double* out) {
    out[0] += sign * (Tb[0][3] * x[3] + Tb[0][4] * x[4] + Tb[0][5] * x[5]);
    out[1] += sign * (Tb[1][3] * x[3] + Tb[1][4] * x[4] + Tb[1][5] * x[5]);
    out[2] += sign * (Tb[2][3] * x[3] + Tb[2][4] * x[4] + Tb[2][5] * x[5]);
  };
  // The columns above the ends' nearest common ancestor would enter once with each sign and
  // cancel exactly (0 + x - x = 0): the paths stop there, so a loop costs its own length, not its
  // depth (a chain of loops would otherwise be O(N²)).
  const int nca = common_ancestor(model, l.successor, l.predecessor);
  auto add_path = [&](int body, double sign, auto add_rows) {
    for (int i = body; i > nca; i = model.parent[i]) {
      const int nvi = model.joints[i].nv(), col0 = model.v_index[i];
      if (nvi == 0) continue;
      const Transform& X = data.X0[i];
      const double d0 = X.r[0] - ps[0], d1 = X.r[1] - ps[1], d2 = X.r[2] - ps[2];
      for (int k = 0; k < nvi; ++k) {
        double x[6];
        if (rotated)
          std::copy_n(rotated[col0 + k].data(), 6, x);
        else
          rotated_column(model, data, i, k, x);
        x[3] += d1 * x[2] - d2 * x[1];
        x[4] += d2 * x[0] - d0 * x[2];
        x[5] += d0 * x[1] - d1 * x[0];
        add_rows(x, sign, Kc + (col0 + k) * ldk);
      }
    }
  };
  if (!angular && nc == 3 && rows[0] == 0 && rows[1] == 1 && rows[2] == 2) {
    add_path(l.successor, 1.0, three_force_rows);
    add_path(l.predecessor, -1.0, three_force_rows);
  } else {
    add_path(l.successor, 1.0, general_rows);
    add_path(l.predecessor, -1.0, general_rows);
  }
}
// k = -T^T a_bias (RBDA Table 8.4), with the T̊ term of a universal joint. loop_motion at the
// acceleration level (data.a from kinematics with q̈ = 0); cache shares a successor's motion.
void bias_rows(const Data& data, const LoopJoint& l, LoopTerms& t, LoopMotionCache& cache,
               double* k) {
  loop_rates(data, l, LoopLevel::Bias, t.m, &cache);  // frames from loop_terms
  const Motion& rel_s = t.m.a_bias;
  const double* T = t.T.data();  // 6 x nc, column-major
  for (int c = 0; c < l.joint.nc(); ++c, T += 6)
    k[l.row + c] = l.zero_rows >> c & 1u ? 0.0
                                         : -(T[0] * rel_s[0] + T[1] * rel_s[1] + T[2] * rel_s[2] +
                                             T[3] * rel_s[3] + T[4] * rel_s[4] + T[5] * rel_s[5]);
  if (l.joint.type == JointType::Universal) k[l.row] -= loop_tdot_term(l.joint, t.m.X_sp, t.m.vJ);
}
}  // namespace

namespace {
// k -= 2 α K q̇ + β² δ (RBDA Eq. 8.22), K q̇ by add_times (K's columns are contiguous, its rows
// strided) into a stack buffer when it fits.
void baumgarte(const MatX& K, int m, const VecX& qd, const VecX& delta, double alpha, double beta,
               double* k) {
  constexpr int kMax = 64;
  if (m > kMax) {
    for (int r = 0; r < m; ++r) k[r] -= baumgarte_term(alpha, beta, K.row(r).dot(qd), delta[r]);
    return;
  }
  double kq[kMax] = {};
  add_times(K, m, qd.data(), 1.0, kq);
  for (int r = 0; r < m; ++r) k[r] -= baumgarte_term(alpha, beta, kq[r], delta[r]);
}
}  // namespace

void loop_position_errors(const Model&, const Data& data, const std::vector<LoopJoint>& loops,
                          VecX& delta) {
  delta.resize(constraint_rows(loops));
  LoopTerms t;
  for (const LoopJoint& l : loops) {
    loop_terms(data, l, t);
    delta.segment(l.row, t.delta.size()) = t.delta;
  }
}

void loop_jacobian(const Model& model, const Data& data, const std::vector<LoopJoint>& loops,
                   MatX& K) {
  K.setZero(constraint_rows(loops), model.nv);
  LoopTerms t;
  for (const LoopJoint& l : loops) {  // RBDA Table 8.4
    loop_terms(data, l, t);
    jacobian_rows(model, data, l, t, nullptr, K);
  }
}

void loop_errors_and_jacobian(const Model& model, const Data& data,
                              const std::vector<LoopJoint>& loops, VecX& delta, MatX& K) {
  const int m = constraint_rows(loops);
  delta.resize(m);
  K.setZero(m, model.nv);
  LoopTerms t;
  for (const LoopJoint& l : loops) {
    loop_terms(data, l, t);
    delta.segment(l.row, t.delta.size()) = t.delta;
    jacobian_rows(model, data, l, t, nullptr, K);
  }
}

void loop_errors_and_jacobian_into(const Model& model, const Data& data,
                                   const std::vector<LoopJoint>& loops, VecX& delta, MatX& J) {
  delta.resize(constraint_rows(loops));
  LoopTerms t;
  for (const LoopJoint& l : loops) {
    loop_terms(data, l, t);
    delta.segment(l.row, t.delta.size()) = t.delta;
    jacobian_rows(model, data, l, t, nullptr, J);
  }
}

void relative_velocity_row(const Model& model, const Data& data, const LoopJoint& l, const Force& t,
                           Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row) {
  row.setZero();
  const Force t0 = frame_from_base(data, l.successor, l.X_S).transpose_apply(t);  // base coords
  auto add_path = [&](int body, double sign) {
    for (int i = body; i > 0; i = model.parent[i])
      for (int k = 0; k < model.joints[i].nv(); ++k)
        row(model.v_index[i] + k) += sign * t0.dot(subspace_in_base(model, data, i, k));
  };
  add_path(l.successor, 1.0);
  add_path(l.predecessor, -1.0);
}

void loop_bias(const Model&, const Data& data, const std::vector<LoopJoint>& loops, VecX& k) {
  k.resize(constraint_rows(loops));
  LoopTerms t;
  LoopMotionCache succ;
  for (const LoopJoint& l : loops) {
    loop_terms(data, l, t);
    bias_rows(data, l, t, succ, k.data());
  }
}

void loop_constraints(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                      const VecX& q, const VecX& qd, double alpha, double beta, VecX& delta,
                      MatX& K, VecX& k) {
  forward_kinematics_bias(model, data, q, qd);
  const int m = constraint_rows(loops);
  K.setZero(m, model.nv);
  k.resize(m);
  loop_constraints_from_kinematics(model, data, loops, qd, alpha, beta, delta, K, k.data());
}

void loop_constraints_from_kinematics(const Model& model, Data& data,
                                      const std::vector<LoopJoint>& loops, const VecX& qd,
                                      double alpha, double beta, VecX& delta, MatX& G, double* k) {
  for (int i = 1; i <= model.nb; ++i)
    for (int c = 0; c < model.joints[i].nv(); ++c)
      rotated_column(model, data, i, c, data.S0[model.v_index[i] + c].data());
  const int m = constraint_rows(loops);
  delta.resize(m);
  LoopTerms t;
  LoopMotionCache succ;
  for (const LoopJoint& l : loops) {  // one X_sp and one loop_jcalc per loop for δ, K and k
    loop_terms(data, l, t);
    delta.segment(l.row, t.delta.size()) = t.delta;
    jacobian_rows(model, data, l, t, data.S0.data(), G);
    bias_rows(data, l, t, succ, k);
  }
  if (alpha != 0.0 || beta != 0.0) baumgarte(G, m, qd, delta, alpha, beta, k);
}

}  // namespace articula
