#include "core/sim/constraints/couplings.hpp"

#include <cmath>
#include <numbers>

#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/sim/constraints/loop_joint_force.hpp"

namespace articula {

namespace {
// One side of a coupling at the present state: coordinate (continuous across turns), rate, the
// bias of its acceleration, and how its q̇ reads off the tree's q̇.
struct SideState {
  double q = 0.0, qd = 0.0, bias = 0.0;
  Force P = Force::Zero();  // loop joints: q̇ = P^T v_J
};

class Couplings final : public ConstraintKind {
 public:
  explicit Couplings(const Mechanism& mech) : mech_(mech) {
    for (const CouplingBinding& c : mech.couplings) last_.push_back({c.a.q0, c.b.q0});
  }
  int rows() const override { return static_cast<int>(mech_.couplings.size()); }
  std::string row_owner(int r) const override {
    return mech_.spec.couplings[mech_.couplings[r].index].name;
  }
  // Rows on tree coordinates need no kinematics, so they work with the planar solve too.
  bool planar_capable() const override {
    for (const CouplingBinding& c : mech_.couplings)
      if (c.a.loop >= 0 || c.b.loop >= 0) return false;
    return true;
  }

  void acceleration_rows(const ConstraintContext& c, MatX& G, VecX& g, int row0) override {
    for (int r = 0; r < rows(); ++r) {  // q̈_B - ratio q̈_A = 0, stabilised (Eq. 8.22)
      const CouplingBinding& cb = mech_.couplings[r];
      const SideState a = side(c, cb.a, r, 0, LoopLevel::Bias);
      const SideState b = side(c, cb.b, r, 1, LoopLevel::Bias);
      add_row(c, cb.b, b, 1.0, G.row(row0 + r));
      add_row(c, cb.a, a, -cb.ratio, G.row(row0 + r));
      const double e = (b.q - cb.b.q0) - cb.ratio * (a.q - cb.a.q0);
      const double rate = b.qd - cb.ratio * a.qd;
      g[row0 + r] = -(b.bias - cb.ratio * a.bias) - baumgarte_term(c.alpha, c.beta, rate, e);
    }
  }
  void position_rows(const ConstraintContext& c, MatX& J, VecX& e, int row0) override {
    for (int r = 0; r < rows(); ++r) {
      const CouplingBinding& cb = mech_.couplings[r];
      const SideState a = side(c, cb.a, r, 0, LoopLevel::Position);
      const SideState b = side(c, cb.b, r, 1, LoopLevel::Position);
      add_row(c, cb.b, b, 1.0, J.row(row0 + r));
      add_row(c, cb.a, a, -cb.ratio, J.row(row0 + r));
      e[row0 + r] = (b.q - cb.b.q0) - cb.ratio * (a.q - cb.a.q0);
    }
  }
  bool body_level_capable() const override { return false; }
  bool body_level_rows(const ConstraintContext&, BodyLevelRows&) const override { return false; }

  bool operator_capable() const override { return true; }
  void operator_rows(const ConstraintContext& c, OperatorRow* out) const override {
    for (int r = 0; r < rows(); ++r) {  // the dual of recover: side B weight 1, side A -ratio
      const CouplingBinding& cb = mech_.couplings[r];
      int bodies = 0, coords = 0;
      operator_side(c, cb.b, 1.0, out[r], bodies, coords);
      operator_side(c, cb.a, -cb.ratio, out[r], bodies, coords);
    }
  }

  void recover(const ConstraintContext& c, const double* mu, ConstraintForces& out) const override {
    for (int r = 0; r < rows(); ++r) {
      const CouplingBinding& cb = mech_.couplings[r];
      out.coupling_tau[r] += mu[r];
      side_force(c, cb.b, mu[r], out);
      side_force(c, cb.a, -cb.ratio * mu[r], out);
    }
  }

 private:
  SideState side(const ConstraintContext& c, const CouplingBinding::Side& s, int r, int k,
                 LoopLevel level) const {
    SideState out;
    if (s.loop < 0) {
      out.q = (*c.q)[s.q];
      out.qd = (*c.qd)[s.v];
      return out;
    }
    LoopMotion m;
    loop_motion(c.data, mech_.compiled.loops[s.loop], level, m);
    LoopCoordinate lc;
    loop_coordinate(mech_.compiled.loops[s.loop], m, level, lc);
    out.q = lc.q, out.qd = lc.qd, out.bias = lc.bias, out.P = lc.P;
    if (mech_.compiled.loops[s.loop].joint.type != JointType::Prismatic) {
      // A loop joint's angle comes back in (-π, π]: continue from the last value, so a gear
      // turning many times keeps its count (steps turn far less than π between calls).
      double& last = last_[r][k];
      out.q = last + std::remainder(out.q - last, 2 * std::numbers::pi);
      last = out.q;
    }
    return out;
  }
  void add_row(const ConstraintContext& c, const CouplingBinding::Side& s, const SideState& st,
               double w, Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row) const {
    if (s.loop < 0) {
      row[s.v] += w;
      return;
    }
    Eigen::RowVectorXd tmp(row.size());
    relative_velocity_row(mech_.model(), c.data, mech_.compiled.loops[s.loop], st.P, tmp);
    row += w * tmp;
  }
  // One side's share of a body-level row: a coordinate on a tree joint, the wrench P w across a
  // loop joint (as add_loop_joint_force applies it).
  void operator_side(const ConstraintContext& c, const CouplingBinding::Side& s, double w,
                     OperatorRow& row, int& bodies, int& coords) const {
    if (s.loop < 0) {
      row.coord[coords] = s.v;
      row.c[coords++] = w;
      return;
    }
    const LoopJoint& l = mech_.compiled.loops[s.loop];
    LoopMotion m;
    loop_motion(c.data, l, LoopLevel::Position, m);
    LoopCoordinate lc;
    loop_coordinate(l, m, LoopLevel::Position, lc);
    const Force f0 = m.Xs.transpose_apply(Force(lc.P * w));
    row.body[bodies] = l.successor;
    row.T[bodies++] = f0;
    row.body[bodies] = l.predecessor;
    row.T[bodies++] = -f0;
  }
  // τ on one side: on a tree joint a generalized force (which the RNEA τ of a driven joint
  // includes, so joint outputs take it out); on a loop joint the wrench across it.
  void side_force(const ConstraintContext& c, const CouplingBinding::Side& s, double tau,
                  ConstraintForces& out) const {
    if (s.loop < 0) {
      out.tree_tau[s.v] += tau;
      return;
    }
    add_loop_joint_force(c, s.loop, s.user_joint, tau, out);
  }
  const Mechanism& mech_;
  mutable std::vector<std::array<double, 2>> last_;  // continuous angles of loop-joint sides
};
}  // namespace

std::unique_ptr<ConstraintKind> make_couplings(const Mechanism& mech,
                                               const std::vector<DriveBinding>&) {
  if (mech.couplings.empty()) return nullptr;
  return std::make_unique<Couplings>(mech);
}

}  // namespace articula
