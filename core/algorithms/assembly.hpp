#pragma once
// Position and velocity assembly of closed loops: find tree coordinates that close every loop,
// moving as little as possible from the starting (sketched) configuration.
#include <vector>

#include "core/model/data.hpp"
#include "core/model/loop_joint.hpp"

namespace articula {

struct AssemblyResult {
  bool converged = false;
  int iterations = 0;
  double residual = 0.0;  // max |δ| over all rows at the end
  int worst_row = -1;     // row of K with the largest |δ| (-1 when there are no loops)
};

// Levenberg-Marquardt on the loop errors δ(q) with minimum-norm steps
// Δ = -K_f^T (K_f K_f^T + μ I)^-1 δ over the free coordinates (locked_v[k] true = held, e.g. a
// motion-driven joint at its t = 0 value). Steps are applied with integrate() so quaternion
// joints stay unit. Converged when max |δ| <= tolerance.
AssemblyResult assemble(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                        VecX& q, const std::vector<bool>& locked_v, double tolerance = 1e-12,
                        int max_iterations = 200);

// Replace qd by the nearest (least-squares) velocity with K qd = 0, leaving locked coordinates
// unchanged.
void project_velocity(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                      const VecX& q, VecX& qd, const std::vector<bool>& locked_v);

}  // namespace articula
