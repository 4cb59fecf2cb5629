#pragma once
// RBDA 8.13's sparse-matrix method (sparse_dynamics.hpp) for planar mechanisms from planar
// kinematics (planar_dynamics.hpp: an angle and a point per body, 3-vectors, RBDA 2.16) instead
// of spatial forward kinematics: the same matrix and right-hand side of Eq. 8.64 on (ω_z, v_x,
// v_y), to round-off, with the bodies' blocks X0^T I X0 from planar inertias (Eq. 2.78), the
// tree joints' axes and the loop joints' in-plane rows from planar frames, and the loop rows'
// bias and Baumgarte terms as planar Method 2 forms them. The factorisation is shared.
#include <vector>

#include "core/algorithms/planar_dynamics.hpp"
#include "core/algorithms/sparse_dynamics.hpp"

namespace articula {

// Whether sparse_planar_forward_dynamics applies to this sparse model and planar model of one
// mechanism: planar sparse coordinates, no loop-joint motion drives, and each loop node's rows
// those of the planar loop (the same rows of K, in the same order).
bool sparse_planar_applies(const SparseDynamicsModel& sm, const PlanarModel& pm,
                           const std::vector<LoopJoint>& loops);

// sparse_forward_dynamics_from_kinematics's q̈ (data.qdd) and multipliers (w.mu) at (q, q̇) from
// planar kinematics computed here into pd (its Xup and X0 as planar_kinematics forms them; v, a
// and c hold each body's velocity, bias acceleration and joint axis in the absolute frame, not
// in the body's); no spatial kinematics is computed or read, so data holds only q̈ afterwards.
// tree_qdd: q̈_d of each tree motion drive. No external forces. False when a pivot fails (the caller
// falls back to Method 2).
bool sparse_planar_forward_dynamics(const SparseDynamicsModel& sm, const PlanarModel& pm,
                                    PlanarData& pd, Data& data, const std::vector<LoopJoint>& loops,
                                    const VecX& q, const VecX& qd, const VecX& tau, double alpha,
                                    double beta, const double* tree_qdd, SparseDynamicsWork& w);

// Writes column c of a joint's coupling block with one body (d x m, or m x d when transposed).
inline void sparse_put_column(double* block, bool transposed, int d, int m, int c,
                              const double* col, double sign) {
  if (transposed)
    for (int r = 0; r < d; ++r) block[c + r * m] = sign * col[r];
  else
    for (int r = 0; r < d; ++r) block[r + c * d] = sign * col[r];
}

// Two unit vectors orthogonal to the joint axis s (ω_z, v_x, v_y): t0 = s × e_k with e_k its
// smallest axis, t1 = s × t0 (|t1| = |s| |t0|, as s ⊥ t0), normalised by independent square
// roots; all three axes for a fixed joint (s = 0). (Unnormalised, of order |s|, they cost the
// 1000-body ladder digits: 1e-11 relative in q̈.)
inline void sparse_planar_complement(const double* s, bool fixed, double (&t)[3][3]) {
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) t[a][b] = a == b ? 1.0 : 0.0;
  if (fixed) return;
  const double a0 = std::abs(s[0]), a1 = std::abs(s[1]), a2 = std::abs(s[2]);
  double* u = t[0];  // s × e_k
  if (a0 <= a1 && a0 <= a2)
    u[0] = 0.0, u[1] = s[2], u[2] = -s[1];
  else if (a1 <= a2)
    u[0] = -s[2], u[1] = 0.0, u[2] = s[0];
  else
    u[0] = s[1], u[1] = -s[0], u[2] = 0.0;
  const double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  const double ss = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
  const double i0 = 1.0 / std::sqrt(uu), i1 = 1.0 / std::sqrt(uu * ss);
  t[1][0] = (s[1] * u[2] - s[2] * u[1]) * i1;
  t[1][1] = (s[2] * u[0] - s[0] * u[2]) * i1;
  t[1][2] = (s[0] * u[1] - s[1] * u[0]) * i1;
  for (int a = 0; a < 3; ++a) u[a] *= i0;
}

}  // namespace articula
