#include "core/sim/constraints/motion_drives.hpp"

#include <cmath>
#include <numbers>

#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/sim/diagnostics.hpp"

namespace articula {

namespace {
class TreeMotionDrives final : public ConstraintKind {
 public:
  TreeMotionDrives(const Mechanism& mech, std::vector<int> drive, std::vector<int> v)
      : mech_(mech), drive_(std::move(drive)), v_(std::move(v)) {}
  int rows() const override { return static_cast<int>(v_.size()); }
  std::string row_owner(int r) const override {
    return mech_.spec.joints[mech_.drives[drive_[r]].user_joint].name;
  }
  bool projected() const override { return false; }  // imposed exactly after each step
  bool planar_capable() const override { return true; }
  bool prescribes_tree_coordinates(std::vector<int>* coordinates) const override {
    if (coordinates) *coordinates = v_;
    return true;
  }

  void acceleration_rows(const ConstraintContext& c, MatX& G, VecX& g, int row0) override {
    for (int r = 0; r < rows(); ++r) {  // q̈_i = q̈_d(t), the exact second derivative
      G(row0 + r, v_[r]) = 1.0;
      g[row0 + r] = prescribed(c, r);
    }
  }
  void position_rows(const ConstraintContext&, MatX&, VecX&, int) override {}
  bool body_level_rows(const ConstraintContext& c, BodyLevelRows& out) const override {
    out.tree_qdd.resize(v_.size());
    for (int r = 0; r < rows(); ++r) out.tree_qdd[r] = prescribed(c, r);
    return true;
  }
  bool operator_capable() const override { return true; }
  void operator_rows(const ConstraintContext&, OperatorRow* out) const override {
    for (int r = 0; r < rows(); ++r) out[r].coord[0] = v_[r], out[r].c[0] = 1.0;
  }
  double power(const ConstraintContext& c, const double* mu) const override {
    double p = 0.0;
    for (int r = 0; r < rows(); ++r) p += mu[r] * (*c.qd)[v_[r]];
    return p;
  }
  // The actuator force of a tree drive is the inverse-dynamics τ of its joint (RNEA): nothing
  // to add here.
  void recover(const ConstraintContext&, const double*, ConstraintForces&) const override {}

 private:
  double prescribed(const ConstraintContext& c, int r) const {
    const DriveBinding& d = c.drives[drive_[r]];
    const double a = d.eval(c.t).d2;
    if (!std::isfinite(a)) throw_bad_drive(mech_, d, c.t, "acceleration");
    return a;
  }
  const Mechanism& mech_;
  std::vector<int> drive_, v_;  // per row: drive index, velocity coordinate
};

class LoopMotionDrives final : public ConstraintKind {
 public:
  LoopMotionDrives(const Mechanism& mech, std::vector<int> drive)
      : mech_(mech), drive_(std::move(drive)), at_(drive_.size()) {
    for (int d : drive_) loop_.push_back(mech.compiled.joint_map[mech.drives[d].user_joint].index);
  }
  int rows() const override { return static_cast<int>(drive_.size()); }
  std::string row_owner(int r) const override {
    return mech_.spec.joints[mech_.drives[drive_[r]].user_joint].name;
  }

  void acceleration_rows(const ConstraintContext& c, MatX& G, VecX& g, int row0) override {
    for (int r = 0; r < rows(); ++r) {  // P^T a_rel = q̈_d, stabilised like the loops
      terms(c, r, LoopLevel::Bias);
      relative_velocity_row(mech_.model(), c.data, loop(r), at_[r].P, G.row(row0 + r));
      g[row0 + r] = rhs(c, r);
    }
  }
  void position_rows(const ConstraintContext& c, MatX& J, VecX& e, int row0) override {
    for (int r = 0; r < rows(); ++r) {
      terms(c, r, LoopLevel::Position);
      relative_velocity_row(mech_.model(), c.data, loop(r), at_[r].P, J.row(row0 + r));
      e[row0 + r] = error(c, r);
    }
  }
  bool position_errors(const ConstraintContext& c, VecX& e, int row0) override {
    for (int r = 0; r < rows(); ++r) {
      terms(c, r, LoopLevel::Position);
      e[row0 + r] = error(c, r);
    }
    return true;
  }
  void velocity_targets(const ConstraintContext& c, VecX& y, int row0) const override {
    for (int r = 0; r < rows(); ++r) y[row0 + r] = c.drives[drive_[r]].eval(c.t).d1;
  }
  bool body_level_rows(const ConstraintContext& c, BodyLevelRows& out) const override {
    out.loop_P.resize(drive_.size());
    out.loop_g.resize(drive_.size());
    for (int r = 0; r < rows(); ++r) {
      terms(c, r, LoopLevel::Bias);
      out.loop_P[r] = at_[r].P;
      out.loop_g[r] = rhs(c, r);
    }
    return true;
  }
  bool operator_capable() const override { return true; }
  void operator_rows(const ConstraintContext& c, OperatorRow* out) const override {
    for (int r = 0; r < rows(); ++r) {  // P^T v_rel: the wrench P across the joint (recover)
      const LoopJoint& l = loop(r);
      LoopMotion m;
      loop_motion(c.data, l, LoopLevel::Position, m);
      LoopCoordinate lc;
      loop_coordinate(l, m, LoopLevel::Position, lc);
      out[r].body[0] = l.successor;
      out[r].T[0] = m.Xs.transpose_apply(lc.P);
      out[r].body[1] = l.predecessor;
      out[r].T[1] = -out[r].T[0];
    }
  }
  double power(const ConstraintContext&, const double* mu) const override {
    double p = 0.0;  // q̇_l at the last acceleration-level call (the same stage)
    for (int r = 0; r < rows(); ++r) p += mu[r] * at_[r].qd;
    return p;
  }
  void recover(const ConstraintContext& c, const double* mu, ConstraintForces& out) const override {
    for (int r = 0; r < rows(); ++r) {  // the actuator wrench P μ across the joint
      const LoopJoint& l = loop(r);
      LoopMotion m;
      loop_motion(c.data, l, LoopLevel::Position, m);
      LoopCoordinate lc;
      loop_coordinate(l, m, LoopLevel::Position, lc);
      const Force f = lc.P * mu[r];
      const int j = mech_.drives[drive_[r]].user_joint;
      out.joint_wrench[j] += f;
      out.joint_tau[j][0] += mu[r];
      const Force f0 = m.Xs.transpose_apply(f);
      out.body[l.successor] += f0;
      out.body[l.predecessor] -= f0;
    }
  }

 private:
  const LoopJoint& loop(int r) const { return mech_.compiled.loops[loop_[r]]; }
  void terms(const ConstraintContext& c, int r, LoopLevel level) const {
    LoopMotion m;
    loop_motion(c.data, loop(r), level, m);
    loop_coordinate(loop(r), m, level, at_[r]);
  }
  double error(const ConstraintContext& c, int r) const {
    const double e = at_[r].q - c.drives[drive_[r]].eval(c.t).value;
    const bool angle = loop(r).joint.type == JointType::Revolute;
    return angle ? std::remainder(e, 2 * std::numbers::pi) : e;  // angles wrap
  }
  double rhs(const ConstraintContext& c, int r) const {  // Method 2's g of the row
    const TimeJet j = c.drives[drive_[r]].eval(c.t);
    return j.d2 - at_[r].bias - baumgarte_term(c.alpha, c.beta, at_[r].qd - j.d1, error(c, r));
  }
  const Mechanism& mech_;
  std::vector<int> drive_, loop_;           // per row: drive index, loop joint index
  mutable std::vector<LoopCoordinate> at_;  // per row, at the last call
};

void motion_drives(const std::vector<DriveBinding>& drives, bool on_loops, std::vector<int>& out) {
  for (std::size_t i = 0; i < drives.size(); ++i)
    if (drives[i].kind == DriveSpec::Kind::Motion && (drives[i].v < 0) == on_loops)
      out.push_back(static_cast<int>(i));
}
}  // namespace

std::unique_ptr<ConstraintKind> make_tree_motion_drives(const Mechanism& mech,
                                                        const std::vector<DriveBinding>& drives) {
  std::vector<int> d, v;
  motion_drives(drives, false, d);
  for (int i : d) v.push_back(drives[i].v);
  if (d.empty()) return nullptr;
  return std::make_unique<TreeMotionDrives>(mech, d, v);
}

std::unique_ptr<ConstraintKind> make_loop_motion_drives(const Mechanism& mech,
                                                        const std::vector<DriveBinding>& drives) {
  std::vector<int> d;
  motion_drives(drives, true, d);
  if (d.empty()) return nullptr;
  return std::make_unique<LoopMotionDrives>(mech, d);
}

void impose_tree_motion_drives(const Mechanism& mech, const std::vector<DriveBinding>& drives,
                               double t, VecX& q, VecX& qd) {
  for (const DriveBinding& d : drives) {
    if (d.kind != DriveSpec::Kind::Motion || d.q < 0) continue;  // loop joints: projection
    const TimeJet j = d.eval(t);
    if (!std::isfinite(j.value) || !std::isfinite(j.d1))
      throw_bad_drive(mech, d, t, std::isfinite(j.value) ? "velocity" : "position");
    q[d.q] = j.value;
    qd[d.v] = j.d1;
  }
}

}  // namespace articula
