#include "core/sim/constraints/loop_joint_force.hpp"

#include "core/algorithms/loop_geometry.hpp"

namespace articula {

void add_loop_joint_force(const ConstraintContext& c, int loop, int user_joint, double tau,
                          ConstraintForces& out) {
  const LoopJoint& l = c.mech.compiled.loops[loop];
  LoopMotion m;
  loop_motion(c.data, l, LoopLevel::Position, m);
  LoopCoordinate lc;
  loop_coordinate(l, m, LoopLevel::Position, lc);
  const Force f = lc.P * tau;  // S^T f = τ
  out.joint_wrench[user_joint] += f;
  const Force f0 = m.Xs.transpose_apply(f);
  out.body[l.successor] += f0;
  out.body[l.predecessor] -= f0;
}

}  // namespace articula
