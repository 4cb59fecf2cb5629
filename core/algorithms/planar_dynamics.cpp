#include "core/algorithms/planar_dynamics.hpp"

#include <cmath>

#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/ltdl.hpp"
#include "core/model/joint.hpp"
#include "core/spatial/trig.hpp"

namespace articula {

namespace {
constexpr double kPlaneTolerance = 1e-9;  // the tolerance of Mechanism's planarity check

// World-to-planar-frame rotation for a body whose frame has world-to-body rotation E0: z is the
// world z axis, x a body axis lying in the plane (z when the joint slides in the plane, else x;
// a tilted welded body takes the projection of its x axis).
Mat3 planar_frame(const Mat3& E0) {
  Vec3 b = std::abs(E0(2, 2)) < 0.5 ? Vec3(E0.row(2)) : Vec3(E0.row(0));
  b.z() = 0.0;
  if (b.norm() < 0.5) b = E0.row(1), b.z() = 0.0;
  b.normalize();
  Mat3 E;
  E.row(0) = b;
  E.row(1) = Vec3(-b.y(), b.x(), 0.0);
  E.row(2) = Vec3::UnitZ();
  return E;
}

// A spatial transform between two planar frames as a planar one, or false when it turns out
// of the plane.
bool to_planar(const Transform& X, PlanarTransform& out) {
  if (std::abs(X.E(2, 2) - 1.0) > kPlaneTolerance) return false;
  out.c = X.E(0, 0), out.s = X.E(0, 1), out.x = X.r.x(), out.y = X.r.y();
  return true;
}

bool planar_joint(const Joint& joint, const Mat3& R, const Transform& M, PlanarJoint& out) {
  if (!to_planar(M, out.M)) return false;
  // The joint axis in the body's planar frame. A reversed joint (RBDA Table 4.2) has
  // X_J(q)^-1 = X_J(-q) for these types: the same motion with the axis negated.
  const Vec3 z = joint.reversed ? Vec3(-R.col(2)) : Vec3(R.col(2));
  switch (joint.type) {
    case JointType::Revolute:
      out.kind = PlanarJoint::Kind::Revolute;
      out.sigma = z.z() > 0 ? 1.0 : -1.0;
      return std::abs(std::abs(z.z()) - 1.0) <= kPlaneTolerance;
    case JointType::Prismatic:
      out.kind = PlanarJoint::Kind::Prismatic;
      out.ux = z.x(), out.uy = z.y();
      return std::abs(z.z()) <= kPlaneTolerance;
    case JointType::Fixed:
      out.kind = PlanarJoint::Kind::Fixed;
      return true;
    default:
      return false;
  }
}

PlanarInertia planar_inertia(const RigidBodyInertia& I, const Mat3& R) {
  const Vec3 h = R * I.h;
  return {I.m, h.x(), h.y(), (R * I.Ibar * R.transpose())(2, 2)};
}

// The in-plane rows of a revolute loop joint: linear columns of T whose direction lies in the
// plane. False when a row the mechanism did not mark as zero is anything else.
bool planar_loop(const LoopJoint& l, const std::vector<Mat3>& R, PlanarLoop& out) {
  if (l.joint.type != JointType::Revolute) return false;
  out.predecessor = l.predecessor, out.successor = l.successor;
  const Vec3 p = R[l.predecessor] * l.X_P.r, s = R[l.successor] * l.X_S.r;
  out.px = p.x(), out.py = p.y(), out.sx = s.x(), out.sy = s.y();
  const int axis[5] = {0, 1, 3, 4, 5};  // T's columns for a revolute loop joint (loop_jcalc)
  for (int c = 0; c < 5; ++c) {
    if (l.zero_rows >> c & 1u) continue;
    if (axis[c] < 3 || out.nrows == 2) return false;
    const Vec3 f =
        R[l.successor] * l.X_S.E.row(axis[c] - 3).transpose();  // T_c in the planar frame
    if (std::abs(f.z()) > kPlaneTolerance) return false;
    out.row[out.nrows] = l.row + c;
    out.fx[out.nrows] = f.x(), out.fy[out.nrows] = f.y();
    ++out.nrows;
  }
  return true;
}
}  // namespace

PlanarData::PlanarData(const PlanarModel& m)
    : Xup(m.nb + 1),
      X0(m.nb + 1),
      v(m.nb + 1, PlanarMotion::Zero()),
      c(m.nb + 1, PlanarMotion::Zero()),
      a(m.nb + 1, PlanarMotion::Zero()),
      ag(m.nb + 1, PlanarMotion::Zero()),
      f(m.nb + 1, PlanarForce::Zero()),
      IC(m.nb + 1) {}

std::shared_ptr<const PlanarModel> make_planar_model(const Model& model, const Data& data,
                                                     const std::vector<LoopJoint>& loops) {
  auto pm = std::make_shared<PlanarModel>();
  pm->nb = model.nb, pm->nv = model.nv, pm->rows = constraint_rows(loops);
  pm->parent = model.parent, pm->q_index = model.q_index, pm->v_index = model.v_index;
  pm->joints.resize(model.nb + 1);
  pm->inertia.resize(model.nb + 1);
  // R[i]: body i's coordinates to its planar frame's (constant: the body only turns about z).
  std::vector<Mat3> R(model.nb + 1, Mat3::Identity());
  for (int i = 1; i <= model.nb; ++i) R[i] = planar_frame(data.X0[i].E) * data.X0[i].E.transpose();
  for (int i = 1; i <= model.nb; ++i) {
    // Xup = X_J X_T, so in planar frames (R_i X_J R_i^T)(R_i X_T R_p^T): the joint motion about
    // or along R_i's image of z, after M = R_i X_T R_p^T.
    const Transform M =
        Transform::rot(R[i]) * model.X_tree[i] * Transform::rot(R[model.parent[i]].transpose());
    if (!planar_joint(model.joints[i], R[i], M, pm->joints[i])) return nullptr;
    pm->inertia[i] = planar_inertia(model.inertia[i], R[i]);
  }
  const Vec3 g = model.gravity();
  pm->gx = g.x(), pm->gy = g.y();
  for (const LoopJoint& l : loops) {
    PlanarLoop pl;
    if (!planar_loop(l, R, pl)) return nullptr;
    pm->loops.push_back(pl);
  }
  return pm;
}

void planar_kinematics(const PlanarModel& pm, PlanarData& pd, const VecX& q, const VecX* qd) {
  for (int i = 1; i <= pm.nb; ++i) {
    const PlanarJoint& j = pm.joints[i];
    const int p = pm.parent[i];
    PlanarTransform XJ;  // RBDA Eq. 2.77: a turn about the origin, or a shift
    PlanarMotion vJ = PlanarMotion::Zero();
    if (j.kind == PlanarJoint::Kind::Revolute) {
      sin_cos(j.sigma * q[pm.q_index[i]], XJ.s, XJ.c);
      if (qd) vJ[0] = j.sigma * (*qd)[pm.v_index[i]];
    } else if (j.kind == PlanarJoint::Kind::Prismatic) {
      const double x = q[pm.q_index[i]];
      XJ.x = x * j.ux, XJ.y = x * j.uy;
      if (qd) vJ[1] = j.ux * (*qd)[pm.v_index[i]], vJ[2] = j.uy * (*qd)[pm.v_index[i]];
    }
    pd.Xup[i] = XJ * j.M;
    pd.X0[i] = p > 0 ? pd.Xup[i] * pd.X0[p] : pd.Xup[i];
    if (!qd) continue;
    const bool has_parent = p > 0;
    pd.v[i] = (has_parent ? pd.Xup[i].apply(pd.v[p]) : PlanarMotion::Zero()) + vJ;
    pd.c[i] = cross_motion(pd.v[i], vJ);  // c_J = 0 for these joints
    pd.a[i] = (has_parent ? pd.Xup[i].apply(pd.a[p]) : PlanarMotion::Zero()) + pd.c[i];
  }
}

namespace {
// World position of a point, and world direction of a vector, given in body b's planar frame
// (b = 0: the world itself).
void world_point(const PlanarData& pd, int b, double x, double y, double& ox, double& oy) {
  if (b == 0)
    ox = x, oy = y;
  else
    pd.X0[b].point_to_parent(x, y, ox, oy);
}
void world_direction(const PlanarData& pd, int b, double x, double y, double& ox, double& oy) {
  if (b == 0)
    ox = x, oy = y;
  else
    pd.X0[b].direction_to_parent(x, y, ox, oy);
}

// A loop joint's frame origins and in-plane row directions in world coordinates.
struct LoopGeometry {
  double osx, osy, opx, opy;
  double fx[2], fy[2];
};
void loop_geometry(const PlanarData& pd, const PlanarLoop& l, LoopGeometry& g) {
  world_point(pd, l.successor, l.sx, l.sy, g.osx, g.osy);
  world_point(pd, l.predecessor, l.px, l.py, g.opx, g.opy);
  for (int c = 0; c < l.nrows; ++c)
    world_direction(pd, l.successor, l.fx[c], l.fy[c], g.fx[c], g.fy[c]);
}

// Rows of K: T_c . (v_s - v_p) at the successor origin, column by column along both paths
// (RBDA Table 8.4). A revolute column turns about its body's origin r_i, a prismatic one slides.
void jacobian_rows(const PlanarModel& pm, const PlanarData& pd, const PlanarLoop& l,
                   const LoopGeometry& g, MatX& K) {
  auto add_path = [&](int body, double sign) {
    for (int i = body; i > 0; i = pm.parent[i]) {
      const PlanarJoint& j = pm.joints[i];
      double vx, vy;
      if (j.kind == PlanarJoint::Kind::Revolute) {
        const double w = sign * j.sigma;
        vx = -w * (g.osy - pd.X0[i].y), vy = w * (g.osx - pd.X0[i].x);
      } else if (j.kind == PlanarJoint::Kind::Prismatic) {
        world_direction(pd, i, sign * j.ux, sign * j.uy, vx, vy);
      } else {
        continue;
      }
      const int col = pm.v_index[i];
      for (int c = 0; c < l.nrows; ++c) K(l.row[c], col) += g.fx[c] * vx + g.fy[c] * vy;
    }
  };
  add_path(l.successor, 1.0);
  add_path(l.predecessor, -1.0);
}

// δ_c = T_c . (o_s - o_p): the in-plane part of E r (loop_jcalc), with T_c in the plane.
void error_rows(const PlanarLoop& l, const LoopGeometry& g, VecX& delta) {
  for (int c = 0; c < l.nrows; ++c)
    delta[l.row[c]] = g.fx[c] * (g.osx - g.opx) + g.fy[c] * (g.osy - g.opy);
}

// k_c = -T_c . (a_s - a_p + v_s × v_p) at the successor origin (bias accelerations, q̈ = 0).
void bias_rows(const PlanarData& pd, const PlanarLoop& l, const LoopGeometry& g, double* k) {
  auto world = [&](int b, const std::vector<PlanarMotion>& m) {
    return b == 0 ? PlanarMotion(PlanarMotion::Zero()) : pd.X0[b].inverse_apply(m[b]);
  };
  const PlanarMotion vs = world(l.successor, pd.v), vp = world(l.predecessor, pd.v);
  const PlanarMotion rel =
      world(l.successor, pd.a) - world(l.predecessor, pd.a) + cross_motion(vs, vp);
  const double lx = rel[1] - rel[0] * g.osy, ly = rel[2] + rel[0] * g.osx;  // at o_s
  for (int c = 0; c < l.nrows; ++c) k[l.row[c]] = -(g.fx[c] * lx + g.fy[c] * ly);
}
}  // namespace

void planar_loop_errors_and_jacobian(const PlanarModel& pm, const PlanarData& pd, VecX& delta,
                                     MatX& K) {
  K.setZero(pm.rows, pm.nv);
  planar_loop_errors_and_jacobian_into(pm, pd, delta, K);
}

void planar_loop_errors_and_jacobian_into(const PlanarModel& pm, const PlanarData& pd, VecX& delta,
                                          MatX& K) {
  delta.setZero(pm.rows);
  LoopGeometry g;
  for (const PlanarLoop& l : pm.loops) {
    loop_geometry(pd, l, g);
    error_rows(l, g, delta);
    jacobian_rows(pm, pd, l, g, K);
  }
}

void planar_loop_constraints(const PlanarModel& pm, PlanarData& pd, const VecX& q, const VecX& qd,
                             double alpha, double beta, VecX& delta, MatX& K, VecX& k) {
  planar_kinematics(pm, pd, q, &qd);
  K.setZero(pm.rows, pm.nv);
  k.resize(pm.rows);
  planar_loop_constraints_from_kinematics(pm, pd, qd, alpha, beta, delta, K, k.data());
}

void planar_loop_constraints_from_kinematics(const PlanarModel& pm, const PlanarData& pd,
                                             const VecX& qd, double alpha, double beta, VecX& delta,
                                             MatX& K, double* k) {
  delta.setZero(pm.rows);
  for (int r = 0; r < pm.rows; ++r) k[r] = 0.0;
  LoopGeometry g;
  for (const PlanarLoop& l : pm.loops) {
    loop_geometry(pd, l, g);
    error_rows(l, g, delta);
    jacobian_rows(pm, pd, l, g, K);
    bias_rows(pd, l, g, k);
    for (int c = 0; c < l.nrows; ++c) {  // Eq. 8.22
      const int r = l.row[c];
      double Kqd = 0.0;
      for (int j = 0; j < pm.nv; ++j) Kqd += K(r, j) * qd[j];
      k[r] -= baumgarte_term(alpha, beta, Kqd, delta[r]);
    }
  }
}

namespace {
// Motion subspace column of body i's joint in its planar frame (fixed joints have none).
PlanarMotion subspace(const PlanarJoint& j) {
  if (j.kind == PlanarJoint::Kind::Revolute) return {j.sigma, 0.0, 0.0};
  return {0.0, j.ux, j.uy};
}
}  // namespace

void planar_crba(const PlanarModel& pm, PlanarData& pd, MatX& H) {  // RBDA Table 6.2
  reserve_mass_matrix(H, pm.nv);
  for (int i = 0; i <= pm.nb; ++i) pd.IC[i] = pm.inertia[i];
  for (int i = pm.nb; i >= 1; --i) {
    const int p = pm.parent[i];
    if (p > 0) pd.IC[p] += transpose_apply(pd.Xup[i], pd.IC[i]);
    if (pm.joints[i].kind == PlanarJoint::Kind::Fixed) continue;
    const int vi = pm.v_index[i];
    PlanarForce F = pd.IC[i] * subspace(pm.joints[i]);
    H(vi, vi) = F.dot(subspace(pm.joints[i]));
    for (int j = i; pm.parent[j] > 0;) {
      F = pd.Xup[j].transpose_apply(F);
      j = pm.parent[j];
      if (pm.joints[j].kind == PlanarJoint::Kind::Fixed) continue;
      const int vj = pm.v_index[j];
      H(vi, vj) = H(vj, vi) = F.dot(subspace(pm.joints[j]));
    }
  }
}

void planar_bias_forces(const PlanarModel& pm, PlanarData& pd, VecX& C) {  // RBDA Table 5.1
  const PlanarMotion a0(0.0, -pm.gx, -pm.gy);  // gravity as a fictitious base acceleration
  for (int i = 1; i <= pm.nb; ++i) {
    const int p = pm.parent[i];
    pd.ag[i] = pd.Xup[i].apply(p > 0 ? pd.ag[p] : a0) + pd.c[i];
    const PlanarInertia& I = pm.inertia[i];
    pd.f[i] = I * pd.ag[i] + cross_force(pd.v[i], I * pd.v[i]);
  }
  for (int i = pm.nb; i >= 1; --i) {
    if (pm.joints[i].kind != PlanarJoint::Kind::Fixed)
      C[pm.v_index[i]] = pd.f[i].dot(subspace(pm.joints[i]));
    const int p = pm.parent[i];
    if (p > 0) pd.f[p] += pd.Xup[i].transpose_apply(pd.f[i]);
  }
}

bool planar_closed_loop_forward_dynamics(const Model& model, const PlanarModel& pm, PlanarData& pd,
                                         Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                                         double alpha, double beta, ClosedLoopWork& w) {
  planar_loop_constraints(pm, pd, q, qd, alpha, beta, w.delta, w.K, w.k);
  planar_crba(pm, pd, data.H);
  planar_bias_forces(pm, pd, data.C);
  if (!ltdl_factor(model, data)) return false;
  constrained_forward_dynamics(model, data, w.K, w.k, tau, w.cd);
  return true;
}

}  // namespace articula
