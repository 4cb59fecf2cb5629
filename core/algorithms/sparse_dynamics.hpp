#pragma once
// Forward dynamics of a closed-loop mechanism by the sparse-matrix method (RBDA 8.13): the
// equations of motion of the individual bodies and joints, Eq. 8.64, in base coordinates,
//   [ I    -PT ] [ Δ ]   [ r  ]
//   [ -T^TP^T 0 ] [ λ ] = [ -g ],
// factored by the block-sparse L S L^T of sparse_ldlt.hpp, in O(n) for mechanisms such as the
// ladder of Fig. 8.4 whose joint-space inertia matrix is dense whatever spanning tree is chosen.
// The unknowns are Δ_i = a_i - a^vp_i, the part of body i's acceleration due to q̈ (a^vp: the
// velocity-product acceleration of the spanning tree's kinematics, q̈ = 0), so the joint rows
// are exactly the rows of Method 2 (RBDA 8.5): T^T (Δ_s - Δ_p) = 0 for a tree joint,
// = k (Table 8.4 with the Baumgarte terms of Eq. 8.22) for a loop joint, and a motion drive adds
// the row q̈ = q̈_d (its multiplier is the actuator force). r_i is the body's applied force minus
// its RNEA force I a^vp + v × I v (gravity, external forces, joint forces τ). Tree accelerations
// are read back from S q̈_i = ^iX_0 (Δ_i - Δ_λ(i)). Planar mechanisms use 3 coordinates per body
// (ω_z, v_x, v_y) and 2 rows per revolute or prismatic joint, which keeps their matrix
// nonsingular (the out-of-plane rows of a planar loop are redundant in 3-D).
#include <array>
#include <memory>
#include <vector>

#include "core/algorithms/rnea.hpp"
#include "core/algorithms/sparse_ldlt.hpp"
#include "core/model/loop_joint.hpp"

namespace articula {

struct SparseDynamicsModel {
  bool planar = false;
  int d = 6;                   // coordinates per body: 3 when planar, else 6
  std::array<int, 6> sel{};    // spatial components kept: {2, 3, 4} (ω_z, v_x, v_y) or 0..5
  Vec3 origin = Vec3::Zero();  // of the absolute frame: the bodies' mean position at prepare
  // Planar: bodies' right-hand sides and 1-DoF tree joints' rows from the plane's components
  // only (false: the same through spatial 6-vectors, which the tests compare against).
  bool planar_assembly = true;
  struct JointNode {
    int body = 0;               // tree joint: its model body i; 0 for a loop joint
    int loop = -1;              // loop joint: its index in the loop list
    int s = 0, p = 0;           // successor and predecessor model bodies (0: base)
    int constraint_rows = 0;    // rows that constrain the relative motion
    int drive = -1;             // its motion drive: index among the tree (or loop) drives
    std::array<int, 6> cols{};  // loop joints: the columns of loop_jcalc's T kept
    // Spatial tree joints whose S is constant in the successor frame (revolute, prismatic,
    // spherical, ...): T in successor coordinates, computed once.
    bool constant_T = false;
    Mat6X T_local;
    int node = -1;                     // its node in the pattern (bodies are nodes 0..NB-1)
    int s_offset = -1, p_offset = -1;  // storage of its coupling blocks with s and p
    bool s_transposed = false, p_transposed = false;
  };
  std::vector<JointNode> joints;
  int loop_rows = 0;  // Method 2's rows of K (loop_constraints)
  int tree_drives = 0, loop_drives = 0;
  SparseLdltPattern pattern;
  // Per node: its pivot's scale at the assembled state (prepare's trial factorisation); later
  // pivots below 1e-10 of it fail, and the caller falls back to Method 2.
  std::vector<double> pivot_reference;
  double flops = 0.0;  // predicted operations per call (factor, solve, assembly)
};

// The workspace of one mechanism's sparse solves: no allocation per call once built.
struct SparseDynamicsWork {
  SparseLdltFactor factor;
  VecX x;   // right-hand side, then solution: Δ of every body, then λ of every joint node
  VecX mu;  // multipliers in Method 2's layout: loop rows, tree drives, loop drives
  void resize(const SparseDynamicsModel& sm);
};

// Builds the body/joint graph, its elimination order and fill. driven_bodies: the model body of
// each tree motion drive (in drive order); driven_loops: the loop of each loop-joint motion
// drive. data: forward kinematics at an assembled state (for the planar column choice). Returns
// false when the method does not apply: a massless body, a multi-DoF motion drive, a planar
// loop joint whose in-plane constraint rows are not a subset of its rows, no admissible
// elimination order, or a factorisation that fails at that state (a singular matrix: redundant
// loops in the formulation chosen, a locked set of drives).
bool prepare_sparse_dynamics(const Model& model, const Data& data,
                             const std::vector<LoopJoint>& loops,
                             const std::vector<int>& driven_bodies,
                             const std::vector<int>& driven_loops, bool planar,
                             SparseDynamicsModel& out);

// Drive inputs: q̈_d of each tree motion drive; for each loop-joint motion drive its row vector P
// (loop successor coordinates) and right-hand side g of Method 2's row (Simulation's LoopDrive).
struct SparseDriveInput {
  const double* tree_qdd = nullptr;
  const Force* loop_P = nullptr;
  const double* loop_g = nullptr;
};

// A row P with P^T S = 1 for a motion drive on 1-DoF loop joint l at its present coordinates
// (data: forward kinematics), loop successor coordinates.
Force loop_drive_row(const LoopJoint& l, const Data& data);

// Writes data.qdd and work.mu. Needs forward_kinematics_bias(q, qd) in data. alpha, beta:
// Baumgarte gains of the loop rows. Returns false when a pivot fails (a singular configuration):
// the caller falls back to Method 2.
bool sparse_forward_dynamics_from_kinematics(const Model& model, const SparseDynamicsModel& sm,
                                             Data& data, const std::vector<LoopJoint>& loops,
                                             const VecX& tau, double alpha, double beta,
                                             const SparseDriveInput& drives,
                                             SparseDynamicsWork& work,
                                             const ExternalForces* f_ext = nullptr);
// The steps after the assembly, shared with the planar kinematics' path
// (sparse_planar_kinematics.hpp): factor and solve the assembled matrix in w (the first call
// calibrates the pivot scales; false on a failed pivot), and the multipliers from the solution in
// Method 2's layout (loop rows, tree drives, loop drives).
bool sparse_solve_assembled(const SparseDynamicsModel& sm, SparseDynamicsWork& w);
void sparse_read_multipliers(const SparseDynamicsModel& sm, const std::vector<LoopJoint>& loops,
                             SparseDynamicsWork& w);
// The same from (q, q̇) for a mechanism without motion drives.
bool sparse_forward_dynamics(const Model& model, const SparseDynamicsModel& sm, Data& data,
                             const std::vector<LoopJoint>& loops, const VecX& q, const VecX& qd,
                             const VecX& tau, double alpha, double beta, SparseDynamicsWork& work,
                             const ExternalForces* f_ext = nullptr);

// Predicted cost of one Method 2 call (RBDA 8.5) on this tree, in machine instructions: rows of
// G, of which solved_rows reach the m x m solve (a planar loop's in-plane rows): CRBA, the
// branch-sparse factor of H, K, H^-1 G^T, G H^-1 G^T and its factor.
double method2_cost(const Model& model, int rows, int solved_rows);

}  // namespace articula
