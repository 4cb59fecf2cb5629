#include "core/sim/constraints/unilateral_rows.hpp"

#include "core/algorithms/loop_geometry.hpp"
#include "core/sim/constraints/loop_joint_force.hpp"

namespace articula {

namespace {
class UnilateralRows final : public ConstraintKind {
 public:
  UnilateralRows(const Mechanism& mech, UnilateralState& state) : mech_(mech), s_(state) {}
  int rows() const override { return static_cast<int>(s_.rows.size()); }
  std::string row_owner(int r) const override { return s_.items[s_.rows[r]].name; }

  void acceleration_rows(const ConstraintContext& c, MatX& G, VecX& g, int row0) override {
    GapState gs;
    for (int r = 0; r < rows(); ++r) {  // φ̈ = J q̈ + κ = 0, stabilised like the loops
      unilateral_gap(mech_, c.data, s_.items[s_.rows[r]], *c.q, c.qd, gs, G.row(row0 + r));
      g[row0 + r] = -gs.bias - baumgarte_term(c.alpha, c.beta, gs.rate, gs.phi);
    }
  }
  void position_rows(const ConstraintContext& c, MatX& J, VecX& e, int row0) override {
    GapState gs;
    for (int r = 0; r < rows(); ++r) {
      unilateral_gap(mech_, c.data, s_.items[s_.rows[r]], *c.q, nullptr, gs, J.row(row0 + r));
      e[row0 + r] = gs.phi;
    }
  }
  bool body_level_capable() const override { return false; }
  bool body_level_rows(const ConstraintContext&, BodyLevelRows&) const override { return false; }

  void recover(const ConstraintContext& c, const double* mu, ConstraintForces& out) const override {
    for (std::size_t k = 0; k < s_.items.size(); ++k) {  // slipping friction: set by the solve
      const Unilateral& u = s_.items[k];
      if (u.slide() && !s_.holds(k) && s_.holds(u.normal_item))
        contact_force(c, u, s_.force[k], out);  // slipping: -μ λ_n ŝ along this tangent
      else if (!u.friction() || s_.closed[k])
        s_.force[k] = 0.0;
    }
    for (int r = 0; r < rows(); ++r) {
      const Unilateral& u = s_.items[s_.rows[r]];
      s_.force[s_.rows[r]] = mu[r];
      if (u.kind == Unilateral::Kind::Contact || u.slide() || u.slot())
        contact_force(c, u, mu[r], out);
      else
        limit_force(c, u, u.kind == Unilateral::Kind::UpperLimit ? -mu[r] : mu[r], out);
    }
  }

 private:
  // The stop acts across the joint: a generalized force on a tree joint, the wrench P τ across
  // a loop joint.
  void limit_force(const ConstraintContext& c, const Unilateral& u, double tau,
                   ConstraintForces& out) const {
    if (u.loop < 0) {
      out.tree_tau[u.v] += tau;
      return;
    }
    add_loop_joint_force(c, u.loop, u.user_joint, tau, out);
  }
  // λ n (a slide: λ t) at the touching point of the sphere, on the body; the opposite on the
  // surface body.
  void contact_force(const ConstraintContext& c, const Unilateral& u, double lambda,
                     ConstraintForces& out) const {
    Vec3 centre, n;
    contact_frame(c.data, u, centre, n);
    const Force w = contact_wrench(c.data, u, lambda * (u.slide() ? slide_tangent(c.data, u) : n));
    out.body[u.body] += w;
    out.body[u.surface] -= w;
  }
  const Mechanism& mech_;
  UnilateralState& s_;
};
}  // namespace

std::unique_ptr<ConstraintKind> make_unilateral_rows(const Mechanism& mech,
                                                     UnilateralState& state) {
  if (state.empty()) return nullptr;
  return std::make_unique<UnilateralRows>(mech, state);
}

}  // namespace articula
