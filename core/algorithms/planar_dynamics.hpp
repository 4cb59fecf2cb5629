#pragma once
// Closed-loop dynamics of planar mechanisms in planar vectors (RBDA 2.16): the same δ, K, k
// (RBDA Table 8.4), H (Table 6.2) and C (Table 5.1) as the spatial algorithms, row for row and
// entry for entry, from 3-vectors instead of 6-vectors. Each body gets a planar frame fixed to
// it whose z axis is the world z axis; its pose is an angle and a point of the plane.
//
// Supported: tree joints revolute, prismatic and fixed (either polarity), revolute loop joints;
// make_planar_model returns null for anything else (the spatial algorithms then apply).
#include <memory>
#include <vector>

#include "core/algorithms/closed_loop_dynamics.hpp"
#include "core/model/data.hpp"
#include "core/model/loop_joint.hpp"
#include "core/spatial/planar.hpp"

namespace articula {

struct PlanarJoint {
  enum class Kind { Revolute, Prismatic, Fixed } kind = Kind::Fixed;
  double sigma = 1.0;         // revolute: +1 when the joint axis is world +z, -1 for -z
  double ux = 0.0, uy = 0.0;  // prismatic: the sliding direction in the body's planar frame
  PlanarTransform M;          // planar frame of the parent to that of the body at q = 0
};

// One in-plane row of a revolute loop joint: the force direction (fx, fy) of T's column, in the
// successor's planar frame. The loop joint's other rows are zero (Mechanism marks them).
struct PlanarLoop {
  int predecessor = 0, successor = 0;
  double px = 0, py = 0;  // joint origin in the predecessor's planar frame
  double sx = 0, sy = 0;  // joint origin in the successor's planar frame
  int nrows = 0;
  int row[2] = {0, 0};  // rows of K and k
  double fx[2] = {0, 0}, fy[2] = {0, 0};
};

struct PlanarModel {
  int nb = 0, nv = 0, rows = 0;  // bodies, tree freedoms, constraint rows (spatial layout)
  std::vector<int> parent, q_index, v_index;
  std::vector<PlanarJoint> joints;     // (nb + 1)
  std::vector<PlanarInertia> inertia;  // in each body's planar frame (nb + 1)
  double gx = 0.0, gy = 0.0;           // gravity in the plane
  std::vector<PlanarLoop> loops;
};

struct PlanarData {
  explicit PlanarData(const PlanarModel& model);
  std::vector<PlanarTransform> Xup, X0;  // parent to body, world to body (planar frames)
  std::vector<PlanarMotion> v, c, a;     // velocity, velocity product, bias acceleration (q̈ = 0)
  std::vector<PlanarMotion> ag;          // bias acceleration with gravity (for C)
  std::vector<PlanarForce> f;
  std::vector<PlanarInertia> IC;
};

// Built from the spatial model at an assembled configuration (data: forward kinematics there)
// of a mechanism that is planar in the world x-y plane, with its out-of-plane loop rows marked.
std::shared_ptr<const PlanarModel> make_planar_model(const Model& model, const Data& data,
                                                     const std::vector<LoopJoint>& loops);

// Poses; with qd also velocities and bias accelerations.
void planar_kinematics(const PlanarModel& pm, PlanarData& pd, const VecX& q, const VecX* qd);
// After planar_kinematics: δ and K in the spatial row layout (out-of-plane rows zero).
void planar_loop_errors_and_jacobian(const PlanarModel& pm, const PlanarData& pd, VecX& delta,
                                     MatX& K);
// The same into the first pm.rows rows of K (sized (>= rows) x nv and zeroed by the caller).
void planar_loop_errors_and_jacobian_into(const PlanarModel& pm, const PlanarData& pd, VecX& delta,
                                          MatX& K);
// Kinematics at (q, q̇), then δ, K and k with Baumgarte terms (RBDA Eq. 8.22).
void planar_loop_constraints(const PlanarModel& pm, PlanarData& pd, const VecX& q, const VecX& qd,
                             double alpha, double beta, VecX& delta, MatX& K, VecX& k);
// After planar_kinematics with velocities: δ, K and k into the first pm.rows rows of K (sized
// and zeroed by the caller) and k[0 .. rows).
void planar_loop_constraints_from_kinematics(const PlanarModel& pm, const PlanarData& pd,
                                             const VecX& qd, double alpha, double beta, VecX& delta,
                                             MatX& K, double* k);
// After planar_kinematics: H's branch entries (RBDA Table 6.2), as crba writes them.
void planar_crba(const PlanarModel& pm, PlanarData& pd, MatX& H);
// After planar_kinematics with velocities: C = RNEA(q, q̇, 0) with gravity (RBDA Table 5.1).
void planar_bias_forces(const PlanarModel& pm, PlanarData& pd, VecX& C);

// closed_loop_forward_dynamics on the planar model: the same result, data.qdd.
bool planar_closed_loop_forward_dynamics(const Model& model, const PlanarModel& pm, PlanarData& pd,
                                         Data& data, const VecX& q, const VecX& qd, const VecX& tau,
                                         double alpha, double beta, ClosedLoopWork& work);

}  // namespace articula
