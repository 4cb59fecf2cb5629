#pragma once
// Unilateral constraints (RBDA 11.1-11.2): joint limits on 1-DoF joints (tree or loop) and
// sphere-on-plane contacts (contract-additions-2 §2). Each is a gap φ(q) >= 0 whose rate is
// linear in the velocities, φ̇ = J q̇, φ̈ = J q̈ + κ(q, q̇). A unilateral is open (φ > 0, no force)
// or closed (φ = 0, a force λ >= 0 along J^T); the contact stepper decides which
// (core/sim/contact/contact_stepper.hpp).
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"

namespace articula {

struct Unilateral {
  // Friction: a 1-DoF tree joint's Coulomb friction, closed while it sticks (q̇ = 0, the row's
  // force |λ| <= bound), open while it slips (the force -bound·slip is applied).
  enum class Kind { LowerLimit, UpperLimit, Contact, Friction };
  Kind kind = Kind::Contact;
  std::string name;  // the joint's or the contact's name (events and diagnoses)
  double restitution = 0.0;
  // Limits and friction: the joint, its bound (friction: the Coulomb force), and its coordinate
  // (tree: q, v) or loop joint index.
  int user_joint = -1;
  double bound = 0.0;
  int q = -1, v = -1, loop = -1;
  // Contacts: spec.contacts index; model bodies; sphere centre (body model frame), plane point
  // and unit normal (surface model frame); radius.
  int contact = -1;
  int body = 0, surface = 0;
  Vec3 point = Vec3::Zero(), plane_point = Vec3::Zero(), normal = Vec3::UnitY();
  double radius = 0.0;
  double viscous = 0.0;  // friction: viscous coefficient
  bool friction() const { return kind == Kind::Friction; }
};

// Limits first (file order of the joints, lower before upper), then contacts (file order), then
// joint friction (file order).
std::vector<Unilateral> bind_unilaterals(const Mechanism& mech);

using RowRef = Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;

// One unilateral at a state.
struct GapState {
  double phi = 0.0;   // gap φ (m or rad)
  double rate = 0.0;  // φ̇ (with rates)
  double bias = 0.0;  // κ = φ̈ - J q̈ (with rates)
};

// φ and, when J is given, the row J (nv). Needs data.X0 and data.jc at q (forward_kinematics).
// With qd: φ̇ and κ too, which need data.v and data.a from forward_kinematics_bias(q, q̇).
// An empty J is not written.
void unilateral_gap(const Mechanism& mech, const Data& data, const Unilateral& u, const VecX& q,
                    const VecX* qd, GapState& out, RowRef J);
// φ only (no Jacobian); needs data.X0 at q.
double unilateral_phi(const Mechanism& mech, const Data& data, const Unilateral& u, const VecX& q);

// The world position of a contact's sphere centre and the world normal (needs data.X0).
void contact_frame(const Data& data, const Unilateral& u, Vec3& centre, Vec3& normal);

}  // namespace articula

namespace articula {

// Which unilaterals are closed, and their forces: shared by the constraint kind that turns the
// closed ones into rows (constraints/unilateral_rows) and the contact stepper that opens and
// closes them.
struct UnilateralState {
  std::vector<Unilateral> items;
  std::vector<char> closed;   // per item
  std::vector<double> force;  // per item: λ >= 0 at the last recovery (0 when open; friction:
                              // the stuck force, or -bound·slip - viscous·q̇ while slipping)
  std::vector<double> slip;   // per friction item: ±1 while slipping that way, 0 while stuck
  std::vector<int> rows;      // the closed items in row order (update_rows keeps it)
  void set_closed(int k, bool c) { closed[k] = c, update_rows(); }
  void update_rows();
  bool empty() const { return items.empty(); }
};

}  // namespace articula
