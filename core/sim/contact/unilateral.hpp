#pragma once
// Unilateral constraints (RBDA 11.1-11.2): joint limits on 1-DoF joints (tree or loop) and
// sphere-on-plane contacts (contract-additions-2 §2). Each is a gap φ(q) >= 0 whose rate is
// linear in the velocities, φ̇ = J q̇, φ̈ = J q̈ + κ(q, q̇). A unilateral is open (φ > 0, no force)
// or closed (φ = 0, a force λ >= 0 along J^T); the contact stepper decides which
// (core/sim/contact/contact_stepper.hpp).
#include <memory>
#include <string>
#include <vector>

#include "core/sim/contact/cam_profile.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

struct Unilateral {
  // Friction: a 1-DoF tree joint's Coulomb friction, closed while it sticks (q̇ = 0, the row's
  // force |λ| <= bound), open while it slips (the force -bound·slip is applied).
  // Slide: Coulomb friction of a contact along one tangent of its surface (one per planar
  // contact, two per spatial one), after its contact: closed while the contact point sticks
  // (tangential velocity 0, |λ_t| <= μ λ_n, bound = μ), open while it slips (the force
  // -μ λ_n ŝ is applied, ŝ the slip direction) or while its contact is open.
  // Slot: a pin (the sphere) in a straight slot as wide as the pin (the Geneva drive): engaged
  // while the pin is in, a two-sided row holding it on the slot's centre line; the pin engages
  // and leaves at the mouth (events), where it is not held.
  enum class Kind { LowerLimit, UpperLimit, Contact, Friction, Slide, Slot };
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
  // Cams: the profile, its centre (plane_point) and the cam plane's axes (surface model frame).
  std::shared_ptr<const CamProfile> cam;
  Vec3 cam_x = Vec3::UnitX(), cam_y = Vec3::UnitY();
  // Slots: plane_point is the mouth, normal the slot's lateral direction, tangent the way in
  // (surface model frame), bound its length.
  double viscous = 0.0;  // friction: viscous coefficient
  // Slides: the contact's item, the other tangent's item in 3D (-1 in a plane), and the unit
  // tangent in the surface body's model frame (body, surface, point, normal, radius copied; a
  // slot's one slide is along the slot).
  int normal_item = -1, partner = -1;
  Vec3 tangent = Vec3::UnitX();
  // A slot's slide: which wall the pin presses, +1 where the slot's force λ_n on the pin is
  // along +n (touching at c - r n), -1 where it is along -n (at c + r n); 0 for other items.
  // The friction is μ |λ_n| = μ side λ_n; the simulation flips it as λ_n changes sign.
  int side = 0;
  // The touching point's offset from the centre along -n: the radius, on the pressed wall's side.
  double touch_radius() const { return side < 0 ? -radius : radius; }
  bool friction() const { return kind == Kind::Friction; }
  bool slide() const { return kind == Kind::Slide; }
  bool slot() const { return kind == Kind::Slot; }
  bool has_gap() const { return kind != Kind::Friction && kind != Kind::Slide; }
  // Limits and contacts: a force λ >= 0 while closed, decided by the complementarity problem.
  bool complementary() const { return has_gap() && kind != Kind::Slot; }
  // The first tangent of a contact (its pair is judged on it).
  bool primary() const { return slide() && (partner < 0 || partner > normal_item + 1); }
};

// Limits first (file order of the joints, lower before upper), then contacts (file order, each
// followed by its slides when μ > 0), then joint friction (file order).
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

// Where a contact's sphere meets its surface (world, needs data.X0): the sphere centre, the
// surface's outward normal, point and tangent (in the cam plane) nearest to the centre, the
// surface's curvature there (0 for a plane, signed for a cam: > 0 convex) and the centre's
// signed distance n·(centre - point).
struct ContactHit {
  Vec3 centre, normal, point, tangent;
  double curvature = 0.0, distance = 0.0;
};
ContactHit contact_hit(const Data& data, const Unilateral& u);
// The world position of a contact's sphere centre and the world normal (needs data.X0).
void contact_frame(const Data& data, const Unilateral& u, Vec3& centre, Vec3& normal);
// A slot's pin: how deep it is in (along the way in from the mouth, m) and how far off the
// centre line (the row's φ) (needs data.X0).
struct SlotPosition {
  double depth = 0.0, offset = 0.0, mouth_distance = 0.0;
};
SlotPosition slot_position(const Data& data, const Unilateral& u);
// A slide's world tangent (needs data.X0).
Vec3 slide_tangent(const Data& data, const Unilateral& u);
// The world wrench (about the origin) of a force f (world) acting on u's body at its touching
// point; the surface body takes the opposite.
Force contact_wrench(const Data& data, const Unilateral& u, const Vec3& f);

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
  std::vector<double> slip;   // per friction item: ±1 while slipping that way, 0 while stuck;
                              // per slide: the slip direction's component along its tangent
                              // (a unit vector over the pair in 3D), 0 while stuck
  std::vector<int> rows;      // the closed items in row order (update_rows keeps it): a slide
                              // holds only while its contact is closed
  bool holds(int k) const {
    return closed[k] && (!items[k].slide() || closed[items[k].normal_item]);
  }
  void set_closed(int k, bool c) { closed[k] = c, update_rows(); }
  void update_rows();
  bool empty() const { return items.empty(); }
};

}  // namespace articula
