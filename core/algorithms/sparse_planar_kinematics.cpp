#include "core/algorithms/sparse_planar_kinematics.hpp"

#include <cmath>

#include "core/algorithms/loop_geometry.hpp"
#include "core/spatial/trig.hpp"

namespace articula {

namespace {
// Body i's planar frame seen from the absolute frame (world axes, origin sm.origin): ^iX_0'.
PlanarTransform sparse_planar_frame(const SparseDynamicsModel& sm, const PlanarData& pd, int i) {
  PlanarTransform X = pd.X0[i];
  X.x -= sm.origin.x();
  X.y -= sm.origin.y();
  return X;
}

// A tree joint's motion subspace in its body's planar frame (zero for a fixed joint).
PlanarMotion sparse_planar_axis(const PlanarJoint& j) {
  if (j.kind == PlanarJoint::Kind::Revolute) return {j.sigma, 0.0, 0.0};
  if (j.kind == PlanarJoint::Kind::Prismatic) return {0.0, j.ux, j.uy};
  return PlanarMotion::Zero();
}

// Column c of joint node j's rows (absolute components t): -t with its successor, +t with its
// predecessor (the -PT block of Eq. 8.64).
void sparse_planar_put(const SparseDynamicsModel::JointNode& j, int rows, int c, const double* t,
                       SparseDynamicsWork& w) {
  double* values = w.factor.values.data();
  if (j.s > 0) sparse_put_column(values + j.s_offset, j.s_transposed, 3, rows, c, t, -1.0);
  if (j.p > 0) sparse_put_column(values + j.p_offset, j.p_transposed, 3, rows, c, t, 1.0);
}

// Poses as planar_kinematics forms them (pd.Xup, pd.X0), and the motion in the absolute frame
// (world axes, origin sm.origin) by the base-coordinate recursion: axis s_i = ^iX_0'^-1 S_i
// (pd.c), velocity v_i = v_λ + s_i q̇_i (pd.v), bias acceleration a_i = a_λ + v_i × s_i q̇_i (pd.a:
// the body-frame c_i = v_i × v_J carried over, q̈ = 0). No per-body transform of v and a.
void sparse_planar_motion(const SparseDynamicsModel& sm, const PlanarModel& pm, PlanarData& pd,
                          const VecX& q, const VecX& qd) {
  for (int i = 1; i <= pm.nb; ++i) {
    const PlanarJoint& j = pm.joints[i];
    const int p = pm.parent[i];
    PlanarTransform XJ;  // RBDA Eq. 2.77: a turn about the origin, or a shift
    if (j.kind == PlanarJoint::Kind::Revolute) {
      sin_cos(j.sigma * q[pm.q_index[i]], XJ.s, XJ.c);
    } else if (j.kind == PlanarJoint::Kind::Prismatic) {
      const double x = q[pm.q_index[i]];
      XJ.x = x * j.ux, XJ.y = x * j.uy;
    }
    pd.Xup[i] = XJ * j.M;
    pd.X0[i] = p > 0 ? pd.Xup[i] * pd.X0[p] : pd.Xup[i];
    const PlanarMotion vp = p > 0 ? pd.v[p] : PlanarMotion(PlanarMotion::Zero());
    const PlanarMotion ap = p > 0 ? pd.a[p] : PlanarMotion(PlanarMotion::Zero());
    PlanarMotion& s = pd.c[i];
    if (j.kind == PlanarJoint::Kind::Fixed) {
      s.setZero();
      pd.v[i] = vp;
      pd.a[i] = ap;
      continue;
    }
    if (j.kind == PlanarJoint::Kind::Revolute)  // σ e_z about the body's origin
      s = {j.sigma, j.sigma * (pd.X0[i].y - sm.origin.y()),
           -j.sigma * (pd.X0[i].x - sm.origin.x())};
    else
      s[0] = 0.0, pd.X0[i].direction_to_parent(j.ux, j.uy, s[1], s[2]);
    const PlanarMotion vJ = s * qd[pm.v_index[i]];
    pd.v[i] = vp + vJ;
    pd.a[i] = ap + cross_motion(pd.v[i], vJ);
  }
}

// Body blocks X0^T I X0 (Eq. 2.78 in the absolute frame) and right-hand sides
// r_i = -X0^T (I (a - g) + v ×* I v), then the joint forces τ_i as S τ_i / |S|^2 on body i and
// its opposite on the parent.
void sparse_planar_bodies(const SparseDynamicsModel& sm, const PlanarModel& pm,
                          const PlanarData& pd, const VecX& tau, SparseDynamicsWork& w) {
  double* values = w.factor.values.data();
  double* x = w.x.data();
  for (int i = 1; i <= pm.nb; ++i) {
    const PlanarTransform X = sparse_planar_frame(sm, pd, i);
    const PlanarInertia I = transpose_apply(X, pm.inertia[i]);
    double* D = values + sm.pattern.diag_offset[i - 1];
    D[0] = I.Io, D[1] = -I.hy, D[2] = I.hx;
    D[3] = -I.hy, D[4] = I.m, D[5] = 0.0;
    D[6] = I.hx, D[7] = 0.0, D[8] = I.m;
    const PlanarMotion& v0 = pd.v[i];
    PlanarMotion a0 = pd.a[i];
    a0[1] -= pm.gx;
    a0[2] -= pm.gy;
    const PlanarForce r = -(I * a0 + cross_force(v0, I * v0));
    double* rhs = x + sm.pattern.x_offset[i - 1];
    rhs[0] = r[0], rhs[1] = r[1], rhs[2] = r[2];
  }
  for (int i = 1; i <= pm.nb; ++i) {
    const PlanarJoint& j = pm.joints[i];
    if (j.kind == PlanarJoint::Kind::Fixed) continue;
    const double ti = tau[pm.v_index[i]];
    if (ti == 0.0) continue;
    const PlanarMotion s = sparse_planar_axis(j);  // S τ / |S|^2 in the body's frame
    const PlanarForce f =
        sparse_planar_frame(sm, pd, i).transpose_apply(s * (ti / s.squaredNorm()));
    double* xs = x + sm.pattern.x_offset[i - 1];
    for (int k = 0; k < 3; ++k) xs[k] += f[k];
    if (const int p = pm.parent[i]; p > 0) {
      double* xp = x + sm.pattern.x_offset[p - 1];
      for (int k = 0; k < 3; ++k) xp[k] -= f[k];
    }
  }
}

// Tree joint rows: the complement of the axis s (absolute frame), and a drive's row s / |s|^2.
void sparse_planar_tree_rows(const SparseDynamicsModel& sm, const PlanarModel& pm,
                             const PlanarData& pd, const SparseDynamicsModel::JointNode& j,
                             const double* tree_qdd, SparseDynamicsWork& w) {
  const PlanarJoint& pj = pm.joints[j.body];
  const bool fixed = pj.kind == PlanarJoint::Kind::Fixed;
  const int rows = j.constraint_rows + (j.drive >= 0);
  const PlanarMotion& s = pd.c[j.body];  // zero for a fixed joint
  double t[3][3];
  sparse_planar_complement(s.data(), fixed, t);
  double* rhs = w.x.data() + sm.pattern.x_offset[j.node];
  for (int c = 0; c < j.constraint_rows; ++c) {
    sparse_planar_put(j, rows, c, t[c], w);
    rhs[c] = 0.0;
  }
  if (j.drive >= 0) {
    const PlanarMotion u = s / s.squaredNorm();
    sparse_planar_put(j, rows, j.constraint_rows, u.data(), w);
    rhs[j.constraint_rows] = -tree_qdd[j.drive];
  }
}

// Body b's absolute-frame motion m[b] (b = 0: the base, at rest).
PlanarMotion sparse_planar_world(int b, const std::vector<PlanarMotion>& m) {
  return b == 0 ? PlanarMotion(PlanarMotion::Zero()) : m[b];
}

// A revolute loop joint's in-plane rows T_c^T (Δ_s - Δ_p) = k_c: T_c the force f_c at the
// successor's joint origin o_s, k_c = -f_c . (a_s - a_p + v_s × v_p)(o_s) minus the Baumgarte
// term of δ_c = f_c . (o_s - o_p) and the row's rate f_c . (v_s - v_p)(o_s) (planar Method 2's
// rows, RBDA Table 8.4 and Eq. 8.22).
void sparse_planar_loop_rows(const SparseDynamicsModel& sm, const PlanarData& pd,
                             const PlanarLoop& l, const SparseDynamicsModel::JointNode& j,
                             double alpha, double beta, SparseDynamicsWork& w) {
  double osx = l.sx, osy = l.sy, opx = l.px, opy = l.py;
  if (l.successor > 0) pd.X0[l.successor].point_to_parent(l.sx, l.sy, osx, osy);
  if (l.predecessor > 0) pd.X0[l.predecessor].point_to_parent(l.px, l.py, opx, opy);
  const PlanarMotion vs = sparse_planar_world(l.successor, pd.v);
  const PlanarMotion vp = sparse_planar_world(l.predecessor, pd.v);
  const PlanarMotion dv = vs - vp;
  const PlanarMotion da = sparse_planar_world(l.successor, pd.a) -
                          sparse_planar_world(l.predecessor, pd.a) + cross_motion(vs, vp);
  const double rx = osx - sm.origin.x(), ry = osy - sm.origin.y();  // o_s, absolute frame
  const double vx = dv[1] - dv[0] * ry, vy = dv[2] + dv[0] * rx;    // the motions at o_s
  const double ax = da[1] - da[0] * ry, ay = da[2] + da[0] * rx;
  double* rhs = w.x.data() + sm.pattern.x_offset[j.node];
  for (int c = 0; c < j.constraint_rows; ++c) {
    double fx = l.fx[c], fy = l.fy[c];
    if (l.successor > 0) pd.X0[l.successor].direction_to_parent(l.fx[c], l.fy[c], fx, fy);
    const double delta = fx * (osx - opx) + fy * (osy - opy);
    const double k = -(fx * ax + fy * ay) - baumgarte_term(alpha, beta, fx * vx + fy * vy, delta);
    const double t[3] = {rx * fy - ry * fx, fx, fy};
    sparse_planar_put(j, j.constraint_rows, c, t, w);
    rhs[c] = -k;
  }
}

// q̈_i from S q̈_i = ^iX_0 (Δ_i - Δ_λ(i)): σ Δω for a revolute joint, the slide's component of
// the relative motion in the body's planar frame for a prismatic one.
void sparse_planar_read_back(const SparseDynamicsModel& sm, const PlanarModel& pm,
                             const PlanarData& pd, const double* x, Data& data) {
  for (int i = 1; i <= pm.nb; ++i) {
    const PlanarJoint& j = pm.joints[i];
    if (j.kind == PlanarJoint::Kind::Fixed) continue;
    const int p = pm.parent[i];
    const double* xi = x + sm.pattern.x_offset[i - 1];
    PlanarMotion d(xi[0], xi[1], xi[2]);
    if (p > 0) d -= Eigen::Map<const PlanarMotion>(x + sm.pattern.x_offset[p - 1]);
    double& qdd = data.qdd[pm.v_index[i]];
    if (j.kind == PlanarJoint::Kind::Revolute) {
      qdd = j.sigma * d[0];
    } else {
      const PlanarMotion m = sparse_planar_frame(sm, pd, i).apply(d);
      qdd = (j.ux * m[1] + j.uy * m[2]) / (j.ux * j.ux + j.uy * j.uy);
    }
  }
}
}  // namespace

bool sparse_planar_applies(const SparseDynamicsModel& sm, const PlanarModel& pm,
                           const std::vector<LoopJoint>& loops) {
  if (!sm.planar || sm.d != 3 || sm.loop_drives > 0 || pm.loops.size() != loops.size())
    return false;
  for (const SparseDynamicsModel::JointNode& j : sm.joints) {
    if (j.loop < 0) {
      const bool fixed = pm.joints[j.body].kind == PlanarJoint::Kind::Fixed;
      if (j.constraint_rows != (fixed ? 3 : 2)) return false;
      continue;
    }
    const PlanarLoop& l = pm.loops[j.loop];
    if (l.nrows != j.constraint_rows) return false;
    for (int c = 0; c < l.nrows; ++c)
      if (l.row[c] != loops[j.loop].row + j.cols[c]) return false;
  }
  return true;
}

bool sparse_planar_forward_dynamics(const SparseDynamicsModel& sm, const PlanarModel& pm,
                                    PlanarData& pd, Data& data, const std::vector<LoopJoint>& loops,
                                    const VecX& q, const VecX& qd, const VecX& tau, double alpha,
                                    double beta, const double* tree_qdd, SparseDynamicsWork& w) {
  if (w.factor.values.size() != static_cast<std::size_t>(sm.pattern.values)) w.resize(sm);
  sparse_planar_motion(sm, pm, pd, q, qd);
  w.factor.zero_fill(sm.pattern);  // the assembly overwrites every other block
  sparse_planar_bodies(sm, pm, pd, tau, w);
  for (const SparseDynamicsModel::JointNode& j : sm.joints) {
    if (j.loop < 0)
      sparse_planar_tree_rows(sm, pm, pd, j, tree_qdd, w);
    else
      sparse_planar_loop_rows(sm, pd, pm.loops[j.loop], j, alpha, beta, w);
  }
  if (!sparse_solve_assembled(sm, w)) return false;
  sparse_planar_read_back(sm, pm, pd, w.x.data(), data);
  sparse_read_multipliers(sm, loops, w);
  return true;
}

}  // namespace articula
