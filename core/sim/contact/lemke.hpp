#pragma once
// Lemke's complementary pivoting for the linear complementarity problem w = M z + q, w >= 0,
// z >= 0, wᵀz = 0 (Cottle, Pang & Stone, The Linear Complementarity Problem, §4.4). Unlike
// principal pivoting (Murty), which needs every principal minor of M nonzero, it solves every
// feasible LCP with M positive semidefinite: the contact-space matrix of an impact when more
// contacts touch than the mechanism has motions to separate them (three feet of a planar walker
// on the ground: rank 2), where principal pivoting meets a singular subproblem.
#include "core/spatial/types.hpp"

namespace articula {

struct LcpSolution {
  VecX z;               // (n), >= 0
  int pivots = 0;       // complementary pivots taken
  bool solved = false;  // false: ray termination (infeasible) or the pivot limit
};

// M (n x n), q (n). Entries of a pivot column below tol · max(1, |M|∞) are taken as zero.
LcpSolution solve_lcp_lemke(const MatX& M, const VecX& q, double tol = 1e-12);

}  // namespace articula
