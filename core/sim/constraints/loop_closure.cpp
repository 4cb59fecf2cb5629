#include "core/sim/constraints/loop_closure.hpp"

#include <cassert>

#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/mobility.hpp"
#include "core/algorithms/planar_dynamics.hpp"

namespace articula {

namespace {
class LoopClosure final : public ConstraintKind {
 public:
  explicit LoopClosure(const Mechanism& mech)
      : mech_(mech), loops_(mech.compiled.loops), rows_(constraint_rows(loops_)) {
    user_.assign(loops_.size(), -1);
    for (std::size_t j = 0; j < mech.compiled.joint_map.size(); ++j)
      if (mech.compiled.joint_map[j].loop) user_[mech.compiled.joint_map[j].index] = (int)j;
  }
  int rows() const override { return rows_; }
  std::string row_owner(int r) const override { return loop_of_row(loops_, r).name; }
  bool planar_capable() const override { return true; }

  void acceleration_rows(const ConstraintContext& c, MatX& G, VecX& g, int row0) override {
    assert(row0 == 0);  // the loop algorithms write rows l.row of G
    (void)row0;
    if (c.planar)
      planar_loop_constraints_from_kinematics(*c.planar_model, *c.planar, *c.qd, c.alpha, c.beta,
                                              delta_, G, g.data());
    else
      loop_constraints_from_kinematics(mech_.model(), c.data, loops_, *c.qd, c.alpha, c.beta,
                                       delta_, G, g.data());
  }

  void position_rows(const ConstraintContext& c, MatX& J, VecX& e, int row0) override {
    assert(row0 == 0);
    if (c.planar)
      planar_loop_errors_and_jacobian_into(*c.planar_model, *c.planar, delta_, J);
    else
      loop_errors_and_jacobian_into(mech_.model(), c.data, loops_, delta_, J);
    e.segment(row0, rows_) = delta_;
  }
  bool position_errors(const ConstraintContext& c, VecX& e, int row0) override {
    if (c.planar) return false;  // the planar kinematics' errors come with their Jacobian
    loop_position_errors(mech_.model(), c.data, loops_, delta_);
    e.segment(row0, rows_) = delta_;
    return true;
  }

  bool body_level_rows(const ConstraintContext&, BodyLevelRows&) const override {
    return true;  // the sparse model holds the loop joints themselves
  }

  bool operator_capable() const override { return true; }
  void operator_rows(const ConstraintContext& c, OperatorRow* out) const override {
    // Row k of loop joint l is T_k^T (a_s - a_p) in successor coordinates: the force
    // ^sX_0^T T_k on the successor and its opposite on the predecessor (as recover applies).
    VecN d;
    Mat6X T;
    for (const LoopJoint& lj : loops_) {
      LoopMotion m;
      loop_motion(c.data, lj, LoopLevel::Position, m);
      loop_jcalc(lj.joint, m.X_sp, d, T);
      for (int k = 0; k < lj.joint.nc(); ++k) {
        OperatorRow& r = out[lj.row + k];
        r.body[0] = lj.successor;
        r.T[0] = m.Xs.transpose_apply(Force(T.col(k)));
        r.body[1] = lj.predecessor;
        r.T[1] = -r.T[0];
      }
    }
  }

  void recover(const ConstraintContext& c, const double* mu, ConstraintForces& out) const override {
    // Loop joint k transmits f = T λ_k to its successor (successor joint-frame coordinates).
    VecN d;
    Mat6X T;
    for (std::size_t l = 0; l < loops_.size(); ++l) {
      const LoopJoint& lj = loops_[l];
      LoopMotion m;
      loop_motion(c.data, lj, LoopLevel::Position, m);
      loop_jcalc(lj.joint, m.X_sp, d, T);
      const Force f = T * Eigen::Map<const VecX>(mu + lj.row, lj.joint.nc());
      out.joint_wrench[user_[l]] += f;
      const Force f0 = m.Xs.transpose_apply(f);  // base coordinates
      out.body[lj.successor] += f0;
      out.body[lj.predecessor] -= f0;
    }
  }

 private:
  const Mechanism& mech_;
  const std::vector<LoopJoint>& loops_;
  int rows_ = 0;
  std::vector<int> user_;  // per loop joint: its user joint
  VecX delta_;             // δ at the last call (rows)
};
}  // namespace

std::unique_ptr<ConstraintKind> make_loop_closure(const Mechanism& mech,
                                                  const std::vector<DriveBinding>&) {
  if (!mech.has_loops()) return nullptr;
  return std::make_unique<LoopClosure>(mech);
}

}  // namespace articula
