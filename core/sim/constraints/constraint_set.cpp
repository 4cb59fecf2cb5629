#include "core/sim/constraints/constraint_set.hpp"

#include "core/sim/constraints/couplings.hpp"
#include "core/sim/constraints/loop_closure.hpp"
#include "core/sim/constraints/motion_drives.hpp"

namespace articula {

namespace {
using KindFactory = std::unique_ptr<ConstraintKind> (*)(const Mechanism&,
                                                        const std::vector<DriveBinding>&);
// The registered kinds, in row order. Loop closure comes first (its rows are written in place
// at LoopJoint::row); the order of the rest fixes the multipliers' layout (RBDA 8.13's solver
// expects loop rows, tree drives, loop drives).
const KindFactory kKinds[] = {make_loop_closure, make_tree_motion_drives, make_loop_motion_drives,
                              make_couplings};
}  // namespace

ConstraintSet::ConstraintSet(const Mechanism& mech, const std::vector<DriveBinding>& drives)
    : mech_(mech) {
  for (KindFactory make : kKinds) {
    std::unique_ptr<ConstraintKind> kind = make(mech, drives);
    if (!kind) continue;
    Entry e;
    e.row0 = rows_;
    rows_ += kind->rows();
    if (kind->projected()) {
      e.projected0 = projected_rows_;
      projected_rows_ += kind->rows();
    }
    std::vector<int> coords;
    if (kind->prescribes_tree_coordinates(&coords))
      prescribed_.insert(prescribed_.end(), coords.begin(), coords.end());
    e.kind = std::move(kind);
    kinds_.push_back(std::move(e));
  }
}

void ConstraintSet::add(std::unique_ptr<ConstraintKind> kind) {
  if (!kind) return;
  Entry e;
  e.kind = std::move(kind);
  kinds_.push_back(std::move(e));
  restack();
}

void ConstraintSet::restack() {
  rows_ = projected_rows_ = 0;
  for (Entry& e : kinds_) {
    e.row0 = rows_;
    rows_ += e.kind->rows();
    e.projected0 = -1;
    if (e.kind->projected()) {
      e.projected0 = projected_rows_;
      projected_rows_ += e.kind->rows();
    }
  }
}

bool ConstraintSet::tree_only() const {
  for (const Entry& e : kinds_)
    if (!e.kind->prescribes_tree_coordinates(nullptr)) return false;
  return true;
}

bool ConstraintSet::planar_capable() const {
  for (const Entry& e : kinds_)
    if (!e.kind->planar_capable()) return false;
  return true;
}

std::string ConstraintSet::row_owner(int r) const {
  for (const Entry& e : kinds_)
    if (r >= e.row0 && r < e.row0 + e.kind->rows()) return e.kind->row_owner(r - e.row0);
  return "?";
}

int ConstraintSet::projected_row(int r) const {
  for (const Entry& e : kinds_)
    if (r >= e.row0 && r < e.row0 + e.kind->rows())
      return e.projected0 >= 0 ? e.projected0 + r - e.row0 : -1;
  return -1;
}

std::vector<int> ConstraintSet::prescribing_rows() const {
  std::vector<int> out;
  for (const Entry& e : kinds_)
    if (e.kind->prescribes_tree_coordinates(nullptr))
      for (int r = 0; r < e.kind->rows(); ++r) out.push_back(e.row0 + r);
  return out;
}

void ConstraintSet::acceleration(const ConstraintContext& c) {
  G_.setZero(rows_, mech_.model().nv);
  g_.resize(rows_);
  for (const Entry& e : kinds_) e.kind->acceleration_rows(c, G_, g_, e.row0);
}

void ConstraintSet::position(const ConstraintContext& c, MatX& J, VecX& e) {
  J.setZero(projected_rows_, mech_.model().nv);
  e.resize(projected_rows_);
  for (const Entry& k : kinds_)
    if (k.projected0 >= 0) k.kind->position_rows(c, J, e, k.projected0);
}

void ConstraintSet::position_errors(const ConstraintContext& c, VecX& e) {
  e.resize(projected_rows_);
  for (const Entry& k : kinds_)
    if (k.projected0 >= 0 && !k.kind->position_errors(c, e, k.projected0))
      return position(c, J_scratch_, e);
}

void ConstraintSet::velocity_targets(const ConstraintContext& c, VecX& y) const {
  y.setZero(projected_rows_);
  for (const Entry& k : kinds_)
    if (k.projected0 >= 0) k.kind->velocity_targets(c, y, k.projected0);
}

bool ConstraintSet::body_level(const ConstraintContext& c, BodyLevelRows& out) const {
  for (const Entry& e : kinds_)
    if (!e.kind->body_level_rows(c, out)) return false;
  return true;
}

bool ConstraintSet::body_level_capable() const {
  for (const Entry& e : kinds_)
    if (!e.kind->body_level_capable()) return false;
  return true;
}

bool ConstraintSet::operator_capable() const {
  for (const Entry& e : kinds_)
    if (!e.kind->operator_capable()) return false;
  return true;
}

void ConstraintSet::operator_rows(const ConstraintContext& c, std::vector<OperatorRow>& out) const {
  out.assign(rows_, OperatorRow{});
  for (const Entry& e : kinds_) e.kind->operator_rows(c, out.data() + e.row0);
}

double ConstraintSet::power(const ConstraintContext& c, const VecX& mu) const {
  double p = 0.0;
  for (const Entry& e : kinds_) p += e.kind->power(c, mu.data() + e.row0);
  return p;
}

void ConstraintSet::recover(const ConstraintContext& c, const VecX& mu,
                            ConstraintForces& out) const {
  const std::size_t nj = mech_.spec.joints.size();
  out.body.assign(mech_.model().nb + 1, Force::Zero());
  out.joint_wrench.assign(nj, Force::Zero());
  out.joint_tau.resize(nj);
  for (std::size_t j = 0; j < nj; ++j)
    out.joint_tau[j] = VecN::Zero(mech_.spec.joints[j].joint.nv());
  out.coupling_tau.assign(mech_.couplings.size(), 0.0);
  out.tree_tau = VecX::Zero(mech_.model().nv);
  for (const Entry& e : kinds_) e.kind->recover(c, mu.data() + e.row0, out);
}

}  // namespace articula
