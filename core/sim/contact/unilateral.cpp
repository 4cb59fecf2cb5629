#include "core/sim/contact/unilateral.hpp"

#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"

namespace articula {

namespace {
// A point given in user-body coordinates, in the model body's frame.
Vec3 model_point(const Mechanism& mech, int model_body, const Vec3& p_user) {
  if (model_body == 0) return p_user;                     // ground: world coordinates
  const Transform& X = mech.compiled.X_body[model_body];  // ^{model}X_{user}
  return X.E * (p_user - X.r);
}
Vec3 model_direction(const Mechanism& mech, int model_body, const Vec3& d_user) {
  if (model_body == 0) return d_user;
  return mech.compiled.X_body[model_body].E * d_user;
}
int model_body_of(const Mechanism& mech, const std::string& name) {
  const int b = mech.spec.body_index(name);
  return b < 0 ? 0 : mech.compiled.model_body[b];
}

void bind_limit(const Mechanism& mech, int j, std::vector<Unilateral>& out) {
  const JointSpec& js = mech.spec.joints[j];
  Unilateral u;
  u.name = js.name;
  u.user_joint = j;
  u.restitution = js.limits->restitution;
  const JointMapping& jm = mech.compiled.joint_map[j];
  if (jm.loop) {
    u.loop = jm.index;
  } else {
    u.q = mech.compiled.q_index(j);
    u.v = mech.compiled.v_index(j);
  }
  if (js.limits->lower) {
    u.kind = Unilateral::Kind::LowerLimit, u.bound = *js.limits->lower;
    out.push_back(u);
  }
  if (js.limits->upper) {
    u.kind = Unilateral::Kind::UpperLimit, u.bound = *js.limits->upper;
    out.push_back(u);
  }
}

// World position, velocity and velocity-product acceleration (q̈ = 0) of a point fixed on a
// model body (p in its frame): x, ẋ = E^T (v_o + ω × p), ẍ = E^T (a_o + α × p + ω × (v_o + ω × p)).
struct PointMotion {
  Vec3 x = Vec3::Zero(), v = Vec3::Zero(), a = Vec3::Zero(), w = Vec3::Zero();  // w: ω, world
};
PointMotion point_motion(const Data& data, int body, const Vec3& p, bool rates) {
  PointMotion m;
  if (body == 0) {
    m.x = p;
    return m;
  }
  const Transform& X = data.X0[body];
  m.x = X.r + X.E.transpose() * p;
  if (!rates) return m;
  const Vec3 om = data.v[body].head<3>(), vo = data.v[body].tail<3>();
  const Vec3 al = data.a[body].head<3>(), ao = data.a[body].tail<3>();
  const Vec3 vp = vo + om.cross(p);
  m.v = X.E.transpose() * vp;
  m.a = X.E.transpose() * (ao + al.cross(p) + om.cross(vp));
  m.w = X.E.transpose() * om;
  return m;
}

void contact_gap(const Mechanism& mech, const Data& data, const Unilateral& u, GapState& out,
                 RowRef J, bool want_J, bool rates) {
  Vec3 c, n;
  contact_frame(data, u, c, n);
  const Vec3 s = point_motion(data, u.surface, u.plane_point, false).x;
  out.phi = n.dot(c - s) - u.radius;
  // The surface body's material point at the sphere centre, in its frame.
  const Transform& Xs = data.X0[u.surface];
  const Vec3 c_s = u.surface == 0 ? c : Vec3(Xs.E * (c - Xs.r));
  if (want_J) {
    const Model& model = mech.model();
    MatX Jp;
    J.setZero();
    if (u.body != 0) point_jacobian(model, data, u.body, u.point, Jp), J += n.transpose() * Jp;
    if (u.surface != 0) point_jacobian(model, data, u.surface, c_s, Jp), J -= n.transpose() * Jp;
  }
  if (!rates) return;
  const PointMotion p = point_motion(data, u.body, u.point, true);
  const PointMotion m = point_motion(data, u.surface, c_s, true);
  const Vec3 w = p.v - m.v;  // sliding plus approach velocity of the centre over the surface
  out.rate = n.dot(w);
  out.bias = n.dot(p.a - m.a) + 2 * m.w.cross(n).dot(w);  // n rotates with the surface
}

void bind_contact(const Mechanism& mech, int k, std::vector<Unilateral>& out);
void bind_friction(const Mechanism& mech, int j, std::vector<Unilateral>& out);

void limit_gap(const Mechanism& mech, const Data& data, const Unilateral& u, const VecX& q,
               const VecX* qd, GapState& out, RowRef J, bool want_J) {
  const bool rates = qd != nullptr;
  const double sign = u.kind == Unilateral::Kind::UpperLimit ? -1.0 : 1.0;  // φ = ±(q - bound)
  if (u.loop < 0) {
    out.phi = u.friction() ? 0.0 : sign * (q[u.q] - u.bound);  // friction: a rate row only
    if (want_J) J.setZero(), J[u.v] = sign;
    if (rates) out.rate = sign * (*qd)[u.v];  // κ = 0
    return;
  }
  const LoopJoint& l = mech.compiled.loops[u.loop];
  LoopMotion m;
  loop_motion(data, l, rates ? LoopLevel::Bias : LoopLevel::Position, m);
  LoopCoordinate lc;
  loop_coordinate(l, m, rates ? LoopLevel::Bias : LoopLevel::Position, lc);
  out.phi = sign * (lc.q - u.bound);
  if (want_J) {
    relative_velocity_row(mech.model(), data, l, lc.P, J);
    J *= sign;
  }
  if (rates) out.rate = sign * lc.qd, out.bias = sign * lc.bias;
}
}  // namespace

std::vector<Unilateral> bind_unilaterals(const Mechanism& mech) {
  std::vector<Unilateral> out;
  for (int j = 0; j < static_cast<int>(mech.spec.joints.size()); ++j)
    if (mech.spec.joints[j].limits) bind_limit(mech, j, out);
  for (int k = 0; k < static_cast<int>(mech.spec.contacts.size()); ++k) bind_contact(mech, k, out);
  for (int j = 0; j < static_cast<int>(mech.spec.joints.size()); ++j)
    if (const auto& f = mech.spec.joints[j].friction; f && (f->coulomb > 0 || f->viscous > 0))
      bind_friction(mech, j, out);
  return out;
}

namespace {
void bind_contact(const Mechanism& mech, int k, std::vector<Unilateral>& out) {
  {
    const ContactSpec& c = mech.spec.contacts[k];
    Unilateral u;
    u.kind = Unilateral::Kind::Contact;
    u.name = c.name;
    u.contact = k;
    u.restitution = c.restitution;
    u.body = model_body_of(mech, c.body);
    u.surface = model_body_of(mech, c.surface_body);
    u.point = model_point(mech, u.body, c.point);
    u.plane_point = model_point(mech, u.surface, c.surface_point);
    u.normal = model_direction(mech, u.surface, c.surface_normal).normalized();
    u.radius = c.radius;
    out.push_back(u);
  }
}

void bind_friction(const Mechanism& mech, int j, std::vector<Unilateral>& out) {
  const JointSpec& js = mech.spec.joints[j];
  Unilateral u;
  u.kind = Unilateral::Kind::Friction;
  u.name = js.name;
  u.user_joint = j;
  u.bound = js.friction->coulomb;
  u.viscous = js.friction->viscous;
  const JointMapping& jm = mech.compiled.joint_map[j];
  if (jm.loop)
    u.loop = jm.index;  // not simulated yet: the Simulation refuses it
  else
    u.q = mech.compiled.q_index(j), u.v = mech.compiled.v_index(j);
  out.push_back(u);
}
}  // namespace

void contact_frame(const Data& data, const Unilateral& u, Vec3& centre, Vec3& normal) {
  centre = point_motion(data, u.body, u.point, false).x;
  normal = u.surface == 0 ? u.normal : Vec3(data.X0[u.surface].E.transpose() * u.normal);
}

void unilateral_gap(const Mechanism& mech, const Data& data, const Unilateral& u, const VecX& q,
                    const VecX* qd, GapState& out, RowRef J) {
  out = GapState{};
  const bool want_J = J.size() > 0;
  if (u.kind == Unilateral::Kind::Contact)
    contact_gap(mech, data, u, out, J, want_J, qd != nullptr);
  else
    limit_gap(mech, data, u, q, qd, out, J, want_J);
}

double unilateral_phi(const Mechanism& mech, const Data& data, const Unilateral& u, const VecX& q) {
  GapState g;
  Eigen::RowVectorXd none;
  unilateral_gap(mech, data, u, q, nullptr, g, none);
  return g.phi;
}

}  // namespace articula

namespace articula {

void UnilateralState::update_rows() {
  rows.clear();
  for (int i = 0; i < static_cast<int>(items.size()); ++i)
    if (closed[i]) rows.push_back(i);
}

}  // namespace articula
