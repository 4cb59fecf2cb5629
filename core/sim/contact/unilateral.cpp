#include "core/sim/contact/unilateral.hpp"

#include "core/algorithms/jacobian.hpp"
#include "core/algorithms/kinematics.hpp"
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

// φ = n·(c - s) - r with n, s the surface's normal and point nearest the centre c. Its rate is
// n·w, w the velocity of c over the surface's material point there; its q̈-free second
// derivative adds to the plane's terms the curvature's: κ (t·w)² / (1 + κ d), d = n·(c - s).
void contact_gap(const Mechanism& mech, const Data& data, const Unilateral& u, GapState& out,
                 RowRef J, bool want_J, bool rates) {
  const ContactHit h = contact_hit(data, u);
  out.phi = h.distance - (u.slot() ? 0.0 : u.radius);  // a slot holds the pin on its centre line
  // The surface body's material point at the sphere centre, in its frame.
  const Transform& Xs = data.X0[u.surface];
  const Vec3 c_s = u.surface == 0 ? h.centre : Vec3(Xs.E * (h.centre - Xs.r));
  const Vec3& n = h.normal;
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
  if (h.curvature != 0.0) {
    const double tw = h.tangent.dot(w);
    out.bias += h.curvature * tw * tw / (1 + h.curvature * h.distance);
  }
}

// The touching point x = c - r n of a contact or slide, in world coordinates and in the frames of
// its two bodies (the material points there), and the hit it was found from.
struct Touch {
  Vec3 x, x_body, x_surface, n;
  ContactHit hit;
};
Touch touch_point(const Data& data, const Unilateral& u) {
  Touch t;
  t.hit = contact_hit(data, u);
  t.n = t.hit.normal;
  t.x = t.hit.centre - u.touch_radius() * t.n;
  t.x_body = u.body == 0 ? t.x : Vec3(data.X0[u.body].E * (t.x - data.X0[u.body].r));
  t.x_surface = u.surface == 0 ? t.x : Vec3(data.X0[u.surface].E * (t.x - data.X0[u.surface].r));
  return t;
}

// κ of a slide on a cam. The touch's normal n and tangent t turn with the surface and with the
// profile as the touch moves along it at σ = t·(v_c - v_S(c)) / (1 + k d) (k the curvature, d
// the centre's distance from the profile; the centre is the profile point plus d n):
// ṅ = ω_S × n + k σ t, ṫ = ω_S × t - k σ n, and x = c - r n moves at ẋ = v_c - r ṅ, so
//   κ = ṫ·u + t·[a_B(x) + ω_B × (ẋ - v_B(x)) - a_S(x) - ω_S × (ẋ - v_S(x))]
// (the plane's expression in slide_gap where k = 0).
double cam_slide_bias(const Data& data, const Unilateral& u, const ContactHit& h, const Vec3& t,
                      const Vec3& n, const PointMotion& b, const PointMotion& s,
                      const PointMotion& c) {
  const Transform& Xs = data.X0[u.surface];
  const Vec3 c_s = u.surface == 0 ? h.centre : Vec3(Xs.E * (h.centre - Xs.r));
  const PointMotion sc = point_motion(data, u.surface, c_s, true);
  const double sigma = t.dot(c.v - sc.v) / (1 + h.curvature * h.distance);
  const Vec3 ndot = s.w.cross(n) + h.curvature * sigma * t;
  const Vec3 tdot = s.w.cross(t) - h.curvature * sigma * n;
  const Vec3 xdot = c.v - u.touch_radius() * ndot;
  return tdot.dot(b.v - s.v) + t.dot(b.a + b.w.cross(xdot - b.v) - s.a - s.w.cross(xdot - s.v));
}

// A slide: the tangential velocity of the body's material point at the touching point over the
// surface's, along the tangent t (fixed in the surface): w = t·(v_B(x) - v_S(x)). No position
// level (rolling is not integrable): φ = 0. Its rate's derivative, with x = c - r n moving and t
// turning with the surface (ṫ = ω_S × t, ẋ = v_c - r ω_S × n), has the q̈-free part
//   κ = (ω_S × t)·u + t·[a_B(x) + r ω_B × ((ω_B - ω_S) × n) - a_S(x) - ω_S × (ẋ - v_S(x))]
// where u = v_B(x) - v_S(x) and a_B(x), a_S(x) are material accelerations at q̈ = 0. On a cam
// (cam_slide_bias) t is the profile's tangent at the touch, which also turns as the touch moves.
void slide_gap(const Mechanism& mech, const Data& data, const Unilateral& u, GapState& out,
               RowRef J, bool want_J, bool rates) {
  const Touch p = touch_point(data, u);
  const Vec3 t = u.cam ? p.hit.tangent : slide_tangent(data, u);  // a cam's: the profile's
  if (want_J) {
    MatX Jp;
    J.setZero();
    if (u.body != 0)
      point_jacobian(mech.model(), data, u.body, p.x_body, Jp), J += t.transpose() * Jp;
    if (u.surface != 0)
      point_jacobian(mech.model(), data, u.surface, p.x_surface, Jp), J -= t.transpose() * Jp;
  }
  if (!rates) return;
  const PointMotion b = point_motion(data, u.body, p.x_body, true);
  const PointMotion s = point_motion(data, u.surface, p.x_surface, true);
  const PointMotion c = point_motion(data, u.body, u.point, true);
  const Vec3 w = b.v - s.v;
  out.rate = t.dot(w);
  if (u.cam) {
    out.bias = cam_slide_bias(data, u, p.hit, t, p.n, b, s, c);
    return;
  }
  const double r = u.touch_radius();
  const Vec3 xdot = c.v - r * s.w.cross(p.n);
  out.bias = s.w.cross(t).dot(w) +
             t.dot(b.a + r * b.w.cross((b.w - s.w).cross(p.n)) - s.a - s.w.cross(xdot - s.v));
}

void bind_contact(const Mechanism& mech, int k, std::vector<Unilateral>& out);
void bind_slides(const Mechanism& mech, const Data& data0, std::vector<Unilateral>& out);
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
  out.phi = u.friction() ? 0.0 : sign * (lc.q - u.bound);  // friction: a rate row only
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
  if (!mech.spec.contacts.empty()) {  // a Data of the whole mechanism only when it has contacts
    Data data0(mech.model());         // the tangents are chosen at the assembled pose
    forward_kinematics(mech.model(), data0, mech.q0);
    for (int k = 0; k < static_cast<int>(mech.spec.contacts.size()); ++k) {
      bind_contact(mech, k, out);
      if (mech.spec.contacts[k].friction > 0) bind_slides(mech, data0, out);
    }
  }
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
    if (c.surface_type == "slot") {  // the lateral direction: the body's z × the way in
      u.kind = Unilateral::Kind::Slot;
      u.tangent = model_direction(mech, u.surface, c.slot_direction).normalized();
      u.normal =
          model_direction(mech, u.surface, Vec3::UnitZ().cross(c.slot_direction)).normalized();
      u.bound = c.slot_length;
    }
    if (c.surface_type == "cam") {  // the file was checked on load: this cannot throw there
      u.cam = std::make_shared<const CamProfile>(CamProfile::from_json(c.profile, "profile"));
      u.cam_x = model_direction(mech, u.surface, Vec3::UnitX());
      u.cam_y = model_direction(mech, u.surface, Vec3::UnitY());
      u.normal = model_direction(mech, u.surface, Vec3::UnitZ());  // the cam's axis
    }
    u.radius = c.radius;
    out.push_back(u);
  }
}

// One tangent in a plane (ẑ × n: the motion stays in the x-y plane), two orthonormal ones in 3D,
// fixed in the surface body.
void bind_slides(const Mechanism& mech, const Data& data0, std::vector<Unilateral>& out) {
  const int normal = static_cast<int>(out.size()) - 1;
  Unilateral u = out.back();
  u.kind = Unilateral::Kind::Slide;
  u.normal_item = normal;
  u.bound = mech.spec.contacts[u.contact].friction;
  u.restitution = 0.0;
  if (out.back().slot()) u.side = 1;  // along the slot (tangent: its way in); see side
  if (u.cam || u.side != 0) {         // one tangent: the profile's at the touch, or the slot's
    out.push_back(u);
    return;
  }
  const Mat3 E = u.surface == 0 ? Mat3::Identity() : data0.X0[u.surface].E;  // world->surface
  const Vec3 n = E.transpose() * u.normal;
  const bool in_plane = mech.planar && std::abs(n.z()) < 1e-12;
  Vec3 t1 = in_plane ? Vec3(Vec3::UnitZ().cross(n)) : n.unitOrthogonal();
  t1.normalize();
  u.tangent = E * t1;
  if (in_plane) {
    out.push_back(u);
    return;
  }
  u.partner = normal + 2;
  out.push_back(u);
  u.partner = normal + 1;
  u.tangent = E * n.cross(t1);
  out.push_back(u);
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
    u.loop = jm.index;  // its rate and row from the loop joint's relative motion
  else
    u.q = mech.compiled.q_index(j), u.v = mech.compiled.v_index(j);
  out.push_back(u);
}
}  // namespace

ContactHit contact_hit(const Data& data, const Unilateral& u) {
  ContactHit h;
  h.centre = point_motion(data, u.body, u.point, false).x;
  const Transform& Xs = data.X0[u.surface];
  auto world_dir = [&](const Vec3& d) { return u.surface == 0 ? d : Vec3(Xs.E.transpose() * d); };
  auto world_point = [&](const Vec3& p) {
    return u.surface == 0 ? p : Vec3(Xs.r + Xs.E.transpose() * p);
  };
  if (!u.cam) {
    h.normal = world_dir(u.normal);
    h.point = world_point(u.plane_point);
    h.distance = h.normal.dot(h.centre - h.point);
    return h;
  }
  const Vec3 c_s = u.surface == 0 ? h.centre : Vec3(Xs.E * (h.centre - Xs.r));
  const Vec3 d = c_s - u.plane_point;
  const Eigen::Vector2d c2(d.dot(u.cam_x), d.dot(u.cam_y));
  const double theta = u.cam->nearest(c2);
  const CamProfile::Point P = u.cam->at(theta);
  const Eigen::Vector2d t2 = P.dp.normalized(),
                        n2(t2.y(), -t2.x());  // outward: θ runs anticlockwise
  h.normal = world_dir(n2.x() * u.cam_x + n2.y() * u.cam_y);
  h.tangent = world_dir(t2.x() * u.cam_x + t2.y() * u.cam_y);
  h.point = world_point(u.plane_point + P.p.x() * u.cam_x + P.p.y() * u.cam_y);
  h.curvature = u.cam->curvature(theta);
  h.distance = h.normal.dot(h.centre - h.point);
  return h;
}

void contact_frame(const Data& data, const Unilateral& u, Vec3& centre, Vec3& normal) {
  const ContactHit h = contact_hit(data, u);
  centre = h.centre, normal = h.normal;
}

SlotPosition slot_position(const Data& data, const Unilateral& u) {
  const ContactHit h = contact_hit(data, u);  // the centre line as a plane through the mouth
  const Vec3 d = slide_tangent(data, u), rel = h.centre - h.point;
  return {d.dot(rel), h.distance, rel.norm()};
}

Vec3 slide_tangent(const Data& data, const Unilateral& u) {
  if (u.slide() && u.cam) return contact_hit(data, u).tangent;  // the profile's, at the touch
  return u.surface == 0 ? u.tangent : Vec3(data.X0[u.surface].E.transpose() * u.tangent);
}

Force contact_wrench(const Data& data, const Unilateral& u, const Vec3& f) {
  Vec3 centre, n;
  contact_frame(data, u, centre, n);
  const Vec3 x = centre - u.touch_radius() * n;
  Force w;
  w << x.cross(f), f;
  return w;
}

void unilateral_gap(const Mechanism& mech, const Data& data, const Unilateral& u, const VecX& q,
                    const VecX* qd, GapState& out, RowRef J) {
  out = GapState{};
  const bool want_J = J.size() > 0;
  if (u.slide())
    slide_gap(mech, data, u, out, J, want_J, qd != nullptr);
  else if (u.kind == Unilateral::Kind::Contact || u.slot())
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
    if (holds(i)) rows.push_back(i);
}

}  // namespace articula
