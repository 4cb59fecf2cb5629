#include "core/algorithms/sparse_dynamics.hpp"

#include <cmath>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/sparse_planar_kinematics.hpp"
#include "core/model/joint_ops.hpp"
#include "core/spatial/cross.hpp"

namespace articula {

namespace {
using Cols = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;

// The kept components of a spatial vector.
void reduce(const SparseDynamicsModel& sm, const Vec6& v, double* out) {
  for (int k = 0; k < sm.d; ++k) out[k] = v[sm.sel[k]];
}
Vec6 expand(const SparseDynamicsModel& sm, const double* x) {
  Vec6 v = Vec6::Zero();
  for (int k = 0; k < sm.d; ++k) v[sm.sel[k]] = x[k];
  return v;
}

// Orthonormal columns T (d x (d - n)) with T^T s = 0 for the n columns s (first n of S, rows
// 0..d-1): pivoted Gram-Schmidt on the unit vectors, the constraint-force subspace of a joint
// whose motion subspace is s (RBDA 3.2, T^T S = 0).
void complement(const Cols& s, int n, int d, Cols& T) {
  Mat6 Q = Mat6::Zero();
  int q = 0;
  for (int c = 0; c < n; ++c) {
    Vec6 v = s.col(c);
    for (int j = 0; j < q; ++j) v -= Q.col(j).dot(v) * Q.col(j);
    Q.col(q++) = v / v.norm();
  }
  const int base = q;
  while (q < d) {
    double best_norm = -1.0;
    Vec6 best_v = Vec6::Zero();
    for (int k = 0; k < d; ++k) {
      Vec6 v = Vec6::Zero();
      v[k] = 1.0;
      for (int j = 0; j < q; ++j) v -= Q(k, j) * Q.col(j);
      const double nv = v.squaredNorm();
      if (nv > best_norm) best_norm = nv, best_v = v;
    }
    Q.col(q++) = best_v / std::sqrt(best_norm);
  }
  T.resize(6, d - base);
  T = Q.block(0, base, 6, d - base);
}

// ^iX_0' for the base frame 0' at sm.origin (same axes): absolute coordinates centred on the
// mechanism, so that a mechanism far from the world origin keeps its precision (RBDA 10.1).
Transform X0s(const SparseDynamicsModel& sm, const Data& data, int i) {
  return {data.X0[i].E, data.X0[i].r - sm.origin};
}
Transform frame_from_base(const SparseDynamicsModel& sm, const Data& data, int body,
                          const Transform& X_frame) {
  return body == 0 ? X_frame * Transform::xlt(-sm.origin) : X_frame * X0s(sm, data, body);
}
}  // namespace

namespace {
// Where the assembly writes: the factor's block storage (per step), or plain blocks (prepare
// time, before the elimination order exists, for the ordering's pivot checks).
struct FactorSink {
  const SparseDynamicsModel& sm;
  SparseDynamicsWork& w;
  double* body_block(int i) { return w.factor.values.data() + sm.pattern.diag_offset[i - 1]; }
  double* rhs(int node) { return w.x.data() + sm.pattern.x_offset[node]; }
  void column(const SparseDynamicsModel::JointNode& j, int rows, int c, const double* t) {
    double* values = w.factor.values.data();
    if (j.s > 0) sparse_put_column(values + j.s_offset, j.s_transposed, sm.d, rows, c, t, -1.0);
    if (j.p > 0) sparse_put_column(values + j.p_offset, j.p_transposed, sm.d, rows, c, t, 1.0);
  }
};
struct BlockSink {
  const SparseDynamicsModel& sm;
  std::vector<MatX> I, T;  // per body: its d x d block; per joint node: its d x rows columns
  double scratch[8] = {};
  double* body_block(int i) { return I[i - 1].data(); }
  double* rhs(int) { return scratch; }  // right-hand sides are not needed for the ordering
  void column(const SparseDynamicsModel::JointNode& j, int, int c, const double* t) {
    T[&j - sm.joints.data()].col(c) = Eigen::Map<const VecX>(t, sm.d);
  }
};
}  // namespace

void SparseDynamicsWork::resize(const SparseDynamicsModel& sm) {
  factor.resize(sm.pattern);
  if (!sm.pivot_reference.empty()) factor.reference = sm.pivot_reference;
  x.setZero(sm.pattern.size);
  mu.setZero(sm.loop_rows + sm.tree_drives + sm.loop_drives);
}

namespace {
// The kept components (ω_z, v_x, v_y) of X0^-1 m: a body-coordinate motion m in the absolute
// frame (E, r: the body's ^iX_0', r relative to sm.origin). RBDA Table A.2's inverse, 3 rows.
inline void sparse_planar_to_base(const Mat3& E, const Vec3& r, const double* m, double* out) {
  double w[3], v[3];  // E^T ω, E^T v
  for (int a = 0; a < 3; ++a) {
    w[a] = E(0, a) * m[0] + E(1, a) * m[1] + E(2, a) * m[2];
    v[a] = E(0, a) * m[3] + E(1, a) * m[4] + E(2, a) * m[5];
  }
  out[0] = w[2];
  out[1] = v[0] + r.y() * w[2] - r.z() * w[1];
  out[2] = v[1] + r.z() * w[0] - r.x() * w[2];
}

// A planar body's block D = X0^T I X0 on (ω_z, v_x, v_y) (Eq. 2.66 restricted to the plane) and
// right-hand side r_i = -(D (a0 - g) + v0 ×* D v0) in the absolute frame: the spatial expression
// X0^T (-(I (a - X0 g) + v ×* I v)) with the out-of-plane velocity components (zero in a planar
// mechanism) left out. v ×* h in the plane: (v_x h_y - v_y h_x, -ω h_y, ω h_x). In scalars.
void sparse_planar_body(const SparseDynamicsModel& sm, const RigidBodyInertia& I,
                        const Transform& X0, const Vec6& v, const Vec6& a, const Vec6& a_grav,
                        double* D, double* rhs) {
  const Mat3& E = X0.E;
  const double r[3] = {X0.r[0] - sm.origin[0], X0.r[1] - sm.origin[1], X0.r[2] - sm.origin[2]};
  const double ez[3] = {E(0, 2), E(1, 2), E(2, 2)};
  double h1[3], Iez[3];  // E^T h, Ibar ez
  for (int k = 0; k < 3; ++k) {
    h1[k] = E(0, k) * I.h[0] + E(1, k) * I.h[1] + E(2, k) * I.h[2];
    Iez[k] = I.Ibar(k, 0) * ez[0] + I.Ibar(k, 1) * ez[1] + I.Ibar(k, 2) * ez[2];
  }
  const double Izz = ez[0] * Iez[0] + ez[1] * Iez[1] + ez[2] * Iez[2] +
                     2 * (r[0] * h1[0] + r[1] * h1[1]) + I.m * (r[0] * r[0] + r[1] * r[1]);
  const double hx = h1[0] + I.m * r[0], hy = h1[1] + I.m * r[1];
  D[0] = Izz, D[1] = -hy, D[2] = hx;
  D[3] = -hy, D[4] = I.m, D[5] = 0.0;
  D[6] = hx, D[7] = 0.0, D[8] = I.m;
  const Vec3 rv(r[0], r[1], r[2]);
  double v0[3], a0[3];
  sparse_planar_to_base(E, rv, v.data(), v0);
  sparse_planar_to_base(E, rv, a.data(), a0);
  a0[0] -= a_grav[2], a0[1] -= a_grav[3], a0[2] -= a_grav[4];
  const double h[3] = {Izz * v0[0] - hy * v0[1] + hx * v0[2], -hy * v0[0] + I.m * v0[1],
                       hx * v0[0] + I.m * v0[2]};
  const double f[3] = {Izz * a0[0] - hy * a0[1] + hx * a0[2], -hy * a0[0] + I.m * a0[1],
                       hx * a0[0] + I.m * a0[2]};
  rhs[0] = -(f[0] + v0[1] * h[2] - v0[2] * h[1]);
  rhs[1] = -(f[1] - v0[0] * h[2]);
  rhs[2] = -(f[2] + v0[0] * h[1]);
}

// Body blocks and right-hand sides: I_i in base coordinates, r_i = X0^T (f_x - I a^vp - v × I v)
// with gravity as a fictitious base acceleration (RBDA 5.3), plus the joint forces τ.
template <class Sink>
void assemble_bodies(const Model& model, const SparseDynamicsModel& sm, const Data& data,
                     const VecX& tau, Sink& w, const ExternalForces* f_ext) {
  const int d = sm.d;
  for (int i = 1; i <= model.nb; ++i) {
    const RigidBodyInertia& I = model.inertia[i];
    double* D = w.body_block(i);
    if (sm.planar && sm.planar_assembly) {
      sparse_planar_body(sm, I, data.X0[i], data.v[i], data.a[i], model.a_grav, D, w.rhs(i - 1));
      if (f_ext) {  // given in world coordinates
        double fe[6];
        reduce(sm, X0s(sm, data, i).transpose_apply(data.X0[i].apply_force((*f_ext)[i])), fe);
        for (int k = 0; k < 3; ++k) w.rhs(i - 1)[k] += fe[k];
      }
      continue;
    }
    const Transform X0 = X0s(sm, data, i);
    if (sm.planar) {  // X0^T I X0 on (ω_z, v_x, v_y) only: Eq. 2.66 restricted to the plane
      const Vec3 ez = X0.E.col(2), h1 = X0.E.transpose() * I.h, r = X0.r;
      const double Izz = ez.dot(I.Ibar * ez) + 2 * (r.x() * h1.x() + r.y() * h1.y()) +
                         I.m * (r.x() * r.x() + r.y() * r.y());
      const Vec3 h0 = h1 + I.m * r;
      D[0] = Izz, D[1] = -h0.y(), D[2] = h0.x();
      D[3] = -h0.y(), D[4] = I.m, D[5] = 0.0;
      D[6] = h0.x(), D[7] = 0.0, D[8] = I.m;
    } else {
      const Mat6 I0 = transpose_apply(X0, I).matrix();
      Eigen::Map<Mat6> block(D);
      block = I0;
    }
    Force b =
        I * Motion(data.a[i] - X0.apply(model.a_grav)) + cross_force(data.v[i], I * data.v[i]);
    if (f_ext) b -= data.X0[i].apply_force((*f_ext)[i]);  // given in world coordinates
    reduce(sm, X0.transpose_apply(Force(-b)), w.rhs(i - 1));
  }
  for (int i = 1; i <= model.nb; ++i) {  // τ_i as the wrench S (S^T S)^-1 τ_i on body i
    const int nv = model.joints[i].nv();
    if (nv == 0) continue;
    const Mat6X& S = data.jc[i].S;
    const VecN ti = tau.segment(model.v_index[i], nv);
    if (ti.isZero(0.0)) continue;
    const Force f = subspace_wrench(model.joints[i], S, ti);
    double f0[6];
    reduce(sm, X0s(sm, data, i).transpose_apply(f), f0);
    double* xs = w.rhs(i - 1);
    for (int k = 0; k < d; ++k) xs[k] += f0[k];
    const int p = model.parent[i];
    if (p > 0) {
      double* xp = w.rhs(p - 1);
      for (int k = 0; k < d; ++k) xp[k] -= f0[k];
    }
  }
}

// A joint node's columns t (base coordinates, kept components) into the coupling blocks: -t
// with its successor, +t with its predecessor (the -PT block of the matrix).
template <class Sink>
void put_joint_column(const SparseDynamicsModel& sm, const SparseDynamicsModel::JointNode& j,
                      int rows, int c, const Force& t0, Sink& w) {
  double t[6];
  reduce(sm, t0, t);
  w.column(j, rows, c, t);
}

// The planar rows of a tree joint with at most one freedom, from the kept components of its axis
// in the absolute frame: the complement's columns, and the drive row s / |s|^2.
template <class Sink>
void sparse_planar_tree_joint(const SparseDynamicsModel& sm,
                              const SparseDynamicsModel::JointNode& j, const Data& data, int nv,
                              int rows, Sink& w) {
  double s[3] = {0.0, 0.0, 0.0};
  if (nv == 1)
    sparse_planar_to_base(data.X0[j.body].E, data.X0[j.body].r - sm.origin,
                          data.jc[j.body].S.data(), s);
  double t[3][3];
  sparse_planar_complement(s, nv == 0, t);
  for (int c = 0; c < j.constraint_rows; ++c) w.column(j, rows, c, t[c]);
  if (j.drive >= 0) {
    const double inv = 1.0 / (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    const double u[3] = {s[0] * inv, s[1] * inv, s[2] * inv};
    w.column(j, rows, j.constraint_rows, u);
  }
}

// Tree joint i: T^T (Δ_i - Δ_λ(i)) = 0 with T spanning the complement of S (base coordinates);
// a motion drive adds the row S^T/|S|^2 with right-hand side q̈_d.
template <class Sink>
void assemble_tree_joint(const Model& model, const SparseDynamicsModel& sm,
                         const SparseDynamicsModel::JointNode& j, const Data& data,
                         const SparseDriveInput& drives, Sink& w) {
  const int i = j.body, nv = model.joints[i].nv(), rows = j.constraint_rows + (j.drive >= 0);
  double* rhs = w.rhs(j.node);
  for (int c = 0; c < j.constraint_rows; ++c) rhs[c] = 0.0;
  if (sm.planar && sm.planar_assembly && nv <= 1) {
    sparse_planar_tree_joint(sm, j, data, nv, rows, w);
    if (j.drive >= 0) rhs[j.constraint_rows] = -drives.tree_qdd[j.drive];
    return;
  }
  const Transform X0 = X0s(sm, data, i);
  Motion s0 = Motion::Zero();  // the first column of S, base coordinates
  if (nv > 0) s0 = X0.inverse_apply(Motion(data.jc[i].S.col(0)));
  if (j.constant_T) {
    for (int c = 0; c < j.constraint_rows; ++c)
      put_joint_column(sm, j, rows, c, X0.transpose_apply(Force(j.T_local.col(c))), w);
  } else if (sm.planar && nv <= 1) {
    const Vec3 s = nv ? Vec3(s0[2], s0[3], s0[4]) : Vec3::Zero();
    Vec3 t[3] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};  // a fixed joint: all three
    if (nv == 1) {  // two vectors orthogonal to s, by cross products with its smallest axis
      int k = 0;
      s.cwiseAbs().minCoeff(&k);
      t[0] = s.cross(Vec3::Unit(k)).normalized();
      t[1] = s.cross(t[0]).normalized();
    }
    for (int c = 0; c < j.constraint_rows; ++c)
      put_joint_column(sm, j, rows, c, expand(sm, t[c].data()), w);
  } else if (!sm.planar && nv == 2 && data.jc[i].S.bottomRows<3>().isZero(0.0)) {
    // Two rotations (the universal joint): n = s1 x s2 and the three forces, successor frame.
    const Mat6X& S = data.jc[i].S;
    const Vec3 n = Vec3(S.col(0).head<3>()).cross(Vec3(S.col(1).head<3>())).normalized();
    put_joint_column(sm, j, rows, 0, X0.transpose_apply(make_spatial(n, Vec3::Zero())), w);
    for (int c = 1; c < 4; ++c)
      put_joint_column(sm, j, rows, c, X0.transpose_apply(Force(Force::Unit(2 + c))), w);
  } else {
    Cols s(6, nv), T;
    for (int c = 0; c < nv; ++c) {
      const Motion sc = X0.inverse_apply(Motion(data.jc[i].S.col(c)));
      s.col(c).setZero();
      for (int k = 0; k < sm.d; ++k) s(k, c) = sc[sm.sel[k]];
    }
    complement(s, nv, sm.d, T);
    for (int c = 0; c < j.constraint_rows; ++c)
      put_joint_column(sm, j, rows, c, expand(sm, T.col(c).data()), w);
  }
  if (j.drive >= 0) {
    double kept = 0.0;  // S^T t = 1 on the kept components
    for (int k = 0; k < sm.d; ++k) kept += s0[sm.sel[k]] * s0[sm.sel[k]];
    put_joint_column(sm, j, rows, j.constraint_rows, Force(s0 / kept), w);
    rhs[j.constraint_rows] = -drives.tree_qdd[j.drive];
  }
}

// Loop joint: the kept rows of T^T (Δ_s - Δ_p) = k (RBDA Table 8.4, Eq. 8.22); a motion drive
// adds its row P with Method 2's right-hand side.
template <class Sink>
void assemble_loop_joint(const SparseDynamicsModel& sm, const SparseDynamicsModel::JointNode& j,
                         const Data& data, const LoopJoint& l, double alpha, double beta,
                         const SparseDriveInput& drives, Sink& w) {
  const int rows = j.constraint_rows + (j.drive >= 0);
  const Transform Xs = frame_from_base(sm, data, l.successor, l.X_S);  // the absolute frame's
  LoopMotion m;  // relative motion in successor coordinates: the same in any absolute frame
  loop_motion(data, l, LoopLevel::Bias, m, nullptr, &sm.origin);
  VecN delta;
  Mat6X T;
  loop_jcalc(l.joint, m.X_sp, delta, T);
  double* rhs = w.rhs(j.node);
  for (int c = 0; c < j.constraint_rows; ++c) {
    const int col = j.cols[c];
    double k = -T.col(col).dot(m.a_bias);
    if (col == 0) k -= loop_tdot_term(l.joint, m.X_sp, m.vJ);
    k -= baumgarte_term(alpha, beta, T.col(col).dot(m.vJ), delta[col]);
    put_joint_column(sm, j, rows, c, Xs.transpose_apply(Force(T.col(col))), w);
    rhs[c] = -k;
  }
  if (j.drive >= 0) {
    put_joint_column(sm, j, rows, j.constraint_rows, Xs.transpose_apply(drives.loop_P[j.drive]), w);
    rhs[j.constraint_rows] = -drives.loop_g[j.drive];
  }
}

template <class Sink>
void assemble(const Model& model, const SparseDynamicsModel& sm, const Data& data,
              const std::vector<LoopJoint>& loops, const VecX& tau, double alpha, double beta,
              const SparseDriveInput& drives, Sink& sink, const ExternalForces* f_ext) {
  assemble_bodies(model, sm, data, tau, sink, f_ext);
  for (const SparseDynamicsModel::JointNode& j : sm.joints) {
    if (j.loop < 0)
      assemble_tree_joint(model, sm, j, data, drives, sink);
    else
      assemble_loop_joint(sm, j, data, loops[j.loop], alpha, beta, drives, sink);
  }
}

// S q̈_i = ^iX_0 (Δ_i - Δ_λ(i)) for every tree joint; multipliers into Method 2's layout.
void read_back(const Model& model, const SparseDynamicsModel& sm, Data& data,
               SparseDynamicsWork& w) {
  const double* x = w.x.data();
  auto delta = [&](int body) {
    return body == 0 ? Motion::Zero() : expand(sm, x + sm.pattern.x_offset[body - 1]);
  };
  for (int i = 1; i <= model.nb; ++i) {
    const int nv = model.joints[i].nv(), vi = model.v_index[i];
    if (nv == 0) continue;
    if (sm.planar && sm.planar_assembly && is_axial_revolute(model.joints[i])) {
      // q̈ = ω_z of X0 (Δ_i - Δ_λ(i)) in body coordinates: E's row 2 times the planar ω_z
      const int p = model.parent[i];
      const double dz = x[sm.pattern.x_offset[i - 1]] - (p ? x[sm.pattern.x_offset[p - 1]] : 0.0);
      data.qdd[vi] = data.X0[i].E(2, 2) * dz;
      continue;
    }
    const Motion m = X0s(sm, data, i).apply(Motion(delta(i) - delta(model.parent[i])));
    rates_from_motion(model.joints[i], data.jc[i].S, m, data.qdd.data() + vi);
  }
}
}  // namespace

bool sparse_solve_assembled(const SparseDynamicsModel& sm, SparseDynamicsWork& w) {
  const bool first = w.factor.reference.empty() || w.factor.reference[0] == 0.0;
  if (first) {
    if (!sparse_ldlt_calibrate(sm.pattern, w.factor)) return false;
    sparse_ldlt_solve(sm.pattern, w.factor, w.x.data());
    return true;
  }
  return sparse_ldlt_factor_solve(sm.pattern, w.factor, w.x.data());
}

void sparse_read_multipliers(const SparseDynamicsModel& sm, const std::vector<LoopJoint>& loops,
                             SparseDynamicsWork& w) {
  w.mu.setZero();
  for (const SparseDynamicsModel::JointNode& j : sm.joints) {
    const double* lambda = w.x.data() + sm.pattern.x_offset[j.node];
    if (j.drive >= 0) {
      const int base = sm.loop_rows + (j.loop >= 0 ? sm.tree_drives : 0);
      w.mu[base + j.drive] = lambda[j.constraint_rows];
    }
    if (j.loop < 0) continue;
    for (int c = 0; c < j.constraint_rows; ++c) w.mu[loops[j.loop].row + j.cols[c]] = lambda[c];
  }
}

bool sparse_forward_dynamics_from_kinematics(const Model& model, const SparseDynamicsModel& sm,
                                             Data& data, const std::vector<LoopJoint>& loops,
                                             const VecX& tau, double alpha, double beta,
                                             const SparseDriveInput& drives, SparseDynamicsWork& w,
                                             const ExternalForces* f_ext) {
  if (w.factor.values.size() != static_cast<std::size_t>(sm.pattern.values)) w.resize(sm);
  w.factor.zero_fill(sm.pattern);  // the assembly overwrites every other block
  FactorSink sink{sm, w};
  assemble(model, sm, data, loops, tau, alpha, beta, drives, sink, f_ext);
  if (!sparse_solve_assembled(sm, w)) return false;
  read_back(model, sm, data, w);
  sparse_read_multipliers(sm, loops, w);
  return true;
}

bool sparse_forward_dynamics(const Model& model, const SparseDynamicsModel& sm, Data& data,
                             const std::vector<LoopJoint>& loops, const VecX& q, const VecX& qd,
                             const VecX& tau, double alpha, double beta, SparseDynamicsWork& w,
                             const ExternalForces* f_ext) {
  forward_kinematics_bias(model, data, q, qd);
  return sparse_forward_dynamics_from_kinematics(model, sm, data, loops, tau, alpha, beta, {}, w,
                                                 f_ext);
}

Force loop_drive_row(const LoopJoint& l, const Data& data) {
  LoopMotion m;
  loop_motion(data, l, LoopLevel::Position, m);
  LoopCoordinate c;
  loop_coordinate(l, m, LoopLevel::Position, c);
  return c.P;
}

namespace {
// One node per tree joint with constraint rows (d - nv, plus its drive row).
bool tree_joint_nodes(const Model& model, const std::vector<int>& drive, SparseDynamicsModel& sm) {
  for (int i = 1; i <= model.nb; ++i) {
    SparseDynamicsModel::JointNode j;
    j.body = j.s = i;
    j.p = model.parent[i];
    j.constraint_rows = sm.d - model.joints[i].nv();
    j.drive = drive[i];
    if (j.constraint_rows < 0) return false;
    const Joint& joint = model.joints[i];
    if (!sm.planar && j.constraint_rows > 0) {  // S constant in the successor frame: T once
      JointCalc a, b;
      VecN q(joint.nq()), q1(joint.nq()), v = VecN::Constant(joint.nv(), 0.7);
      const VecN zero = VecN::Zero(joint.nv());
      joint_neutral(joint, q.data());
      joint_integrate(joint, q.data(), v.data(), 1.0, q1.data());
      jcalc(joint, q.data(), zero.data(), a);
      jcalc(joint, q1.data(), zero.data(), b);
      if (a.S.cols() == 0 || (a.S - b.S).cwiseAbs().maxCoeff() <= 1e-14) {
        Cols S(6, joint.nv()), T;
        S = a.S;
        complement(S, joint.nv(), 6, T);
        j.constant_T = true;
        j.T_local = T;
      }
    }
    if (j.constraint_rows + (j.drive >= 0) > 0) sm.joints.push_back(j);
  }
  return true;
}

// One node per loop joint: the columns of loop_jcalc's T that act in the kept components (all
// of them in 3-D); false when a planar loop's in-plane rows are not d - nv of its columns.
bool loop_joint_nodes(const Data& data, const std::vector<LoopJoint>& loops,
                      const std::vector<int>& drive, SparseDynamicsModel& sm) {
  for (std::size_t l = 0; l < loops.size(); ++l) {
    SparseDynamicsModel::JointNode j;
    j.loop = static_cast<int>(l);
    j.s = loops[l].successor;
    j.p = loops[l].predecessor;
    j.drive = drive[l];
    VecN delta;
    Mat6X T;
    loop_jcalc(loops[l].joint, loop_transform(data, loops[l]), delta, T);
    const Transform Xs = frame_from_base(sm, data, j.s, loops[l].X_S);
    for (int c = 0; c < T.cols(); ++c) {
      const Force t0 = Xs.transpose_apply(Force(T.col(c)));
      double kept = 0.0;  // planar: structurally zero out-of-plane columns are left out
      for (int k = 0; k < sm.d; ++k) kept += t0[sm.sel[k]] * t0[sm.sel[k]];
      if (kept > 1e-18 * t0.squaredNorm()) j.cols[j.constraint_rows++] = c;
    }
    if (j.constraint_rows != sm.d - loops[l].joint.nv()) return false;
    if (j.constraint_rows + (j.drive >= 0) > 0) sm.joints.push_back(j);
  }
  return true;
}

// The elimination order from the graph and the blocks at the assembled state (pivot checks),
// then a trial factorisation there, which records each pivot's scale.
bool analyse(const Model& model, const Data& data, const std::vector<LoopJoint>& loops,
             const std::vector<int>& driven_loops, SparseDynamicsModel& sm) {
  const int nb = model.nb;
  std::vector<int> dim(nb, sm.d);
  std::vector<char> body(nb, 1);
  std::vector<std::array<int, 2>> ends(nb, {-1, -1});
  BlockSink sink{sm, std::vector<MatX>(nb, MatX::Zero(sm.d, sm.d)), {}};
  for (SparseDynamicsModel::JointNode& j : sm.joints) {
    j.node = static_cast<int>(dim.size());
    dim.push_back(j.constraint_rows + (j.drive >= 0));
    body.push_back(0);
    ends.push_back({j.s - 1, j.p - 1});  // body i is node i-1; the base (0) becomes -1
    sink.T.push_back(MatX::Zero(sm.d, dim.back()));
  }
  const VecX tau = VecX::Zero(model.nv), qdd = VecX::Zero(sm.tree_drives);
  std::vector<Force> P;
  for (int l : driven_loops) P.push_back(loop_drive_row(loops[l], data));
  const std::vector<double> g(sm.loop_drives, 0.0);
  assemble(model, sm, data, loops, tau, 0.0, 0.0, {qdd.data(), P.data(), g.data()}, sink, nullptr);
  auto blocks = [&](int a, int b) -> MatX {  // a <= b: bodies come first
    if (a == b) return a < nb ? sink.I[a] : MatX::Zero(dim[a], dim[a]);
    const SparseDynamicsModel::JointNode& j = sm.joints[b - nb];
    return (j.s - 1 == a ? -1.0 : 1.0) * sink.T[b - nb];
  };
  if (!sparse_ldlt_analyse(dim, body, ends, sm.pattern, blocks)) return false;
  for (SparseDynamicsModel::JointNode& j : sm.joints) {
    if (j.s > 0) j.s_offset = sm.pattern.block_offset(j.s - 1, j.node, j.s_transposed);
    if (j.p > 0) j.p_offset = sm.pattern.block_offset(j.p - 1, j.node, j.p_transposed);
  }
  SparseDynamicsWork w;
  w.resize(sm);
  FactorSink factor_sink{sm, w};
  assemble(model, sm, data, loops, tau, 0.0, 0.0, {qdd.data(), P.data(), g.data()}, factor_sink,
           nullptr);
  if (!sparse_ldlt_calibrate(sm.pattern, w.factor)) return false;
  sm.pivot_reference = w.factor.reference;
  return true;
}
}  // namespace

bool prepare_sparse_dynamics(const Model& model, const Data& data,
                             const std::vector<LoopJoint>& loops,
                             const std::vector<int>& driven_bodies,
                             const std::vector<int>& driven_loops, bool planar,
                             SparseDynamicsModel& sm) {
  sm = SparseDynamicsModel{};
  sm.planar = planar;
  sm.d = planar ? 3 : 6;
  if (planar)
    sm.sel = {2, 3, 4, 0, 0, 0};
  else
    sm.sel = {0, 1, 2, 3, 4, 5};
  sm.loop_rows = constraint_rows(loops);
  for (int i = 1; i <= model.nb; ++i) sm.origin += data.X0[i].r / model.nb;
  sm.tree_drives = static_cast<int>(driven_bodies.size());
  sm.loop_drives = static_cast<int>(driven_loops.size());
  for (int i = 1; i <= model.nb; ++i)
    if (!(model.inertia[i].m > 0.0)) return false;  // a massless body: singular I (Method 2 copes)
  std::vector<int> tree_drive(model.nb + 1, -1), loop_drive(loops.size(), -1);
  for (int r = 0; r < sm.tree_drives; ++r) {
    if (model.joints[driven_bodies[r]].nv() != 1 || tree_drive[driven_bodies[r]] >= 0) return false;
    tree_drive[driven_bodies[r]] = r;
  }
  for (int r = 0; r < sm.loop_drives; ++r) {
    if (loops[driven_loops[r]].joint.nv() != 1 || loop_drive[driven_loops[r]] >= 0) return false;
    loop_drive[driven_loops[r]] = r;
  }
  if (!tree_joint_nodes(model, tree_drive, sm) || !loop_joint_nodes(data, loops, loop_drive, sm) ||
      !analyse(model, data, loops, driven_loops, sm))
    return false;
  // Assembly per body and joint (transforms, complements) on top of the factor and solve.
  sm.flops = sm.pattern.flops + 150.0 * model.nb + 100.0 * static_cast<double>(sm.joints.size());
  return true;
}

double method2_cost(const Model& model, int rows, int solved_rows) {
  double depth_sum = 0.0, nnz = 0.0;  // nnz: entries of H's lower triangle (branch-induced)
  for (int v = 0; v < model.nv; ++v)
    for (int k = v; k >= 0; k = model.lambda_v[k]) nnz += 1.0;
  for (int i = 1; i <= model.nb; ++i)
    for (int k = i; k > 0; k = model.parent[k]) depth_sum += 1.0;
  const double m = rows, me = solved_rows, n = model.nv;
  // Per body (kinematics, CRBA, factor of H), per row (K, H^-1 G^T), and the dense G H^-1 G^T
  // and its factor; coefficients fitted to instruction counts (callgrind) of Method 2 on the
  // samples and ladders of 2-20 loops (within 15 %).
  return 4200.0 * model.nb + 2.95 * (me * nnz + m * depth_sum) +
         12.3 * (me * me * n + me * me * me / 3);
}

}  // namespace articula
