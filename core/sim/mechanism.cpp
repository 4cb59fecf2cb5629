#include "core/sim/mechanism.hpp"

#include <cmath>
#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/planar_dynamics.hpp"
#include "core/sim/constraints/couplings.hpp"
#include "core/sim/loop_method.hpp"

namespace articula {

namespace {
void bind_drives_and_springs(Mechanism& m) {
  const Model& model = m.compiled.model;
  m.locked_v.assign(model.nv, false);
  for (std::size_t j = 0; j < m.spec.joints.size(); ++j) {
    const JointSpec& js = m.spec.joints[j];
    const JointMapping& map = m.compiled.joint_map[j];
    const int q = map.loop ? -1 : model.q_index[map.index];
    const int v = map.loop ? -1 : model.v_index[map.index];
    if (js.drive) {
      DriveBinding d{static_cast<int>(j), js.drive->kind, {}, {}, q, v};
      if (!js.drive->law.is_null())
        d.law = MotionLaw::from_json(js.drive->law);
      else
        d.expression = Expression::parse(js.drive->expression);
      m.drives.push_back(std::move(d));
      if (js.drive->kind == DriveSpec::Kind::Motion && v >= 0) m.locked_v[v] = true;
    }
    if (js.spring)
      m.springs.push_back(
          {static_cast<int>(j), js.spring->stiffness, js.spring->rest, js.spring->damping, q, v});
  }
}

void bind_forces(Mechanism& m) {
  const CompiledMechanism& c = m.compiled;
  auto body = [&](const std::string& name) {
    return name == "ground" ? 0 : c.model_body[m.spec.body_index(name)];
  };
  auto point = [&](int b, const Vec3& p) {  // user body coordinates to model body frame
    return Vec3(c.X_body[b].E * (p - c.X_body[b].r));
  };
  for (std::size_t i = 0; i < m.spec.forces.size(); ++i) {
    const ForceSpec& f = m.spec.forces[i];
    ForceBinding fb{static_cast<int>(i), body(f.body1), body(f.body2), {}, {},
                    f.stiffness,         f.rest_length, f.damping};
    fb.point1 = point(fb.body1, f.point1);
    fb.point2 = point(fb.body2, f.point2);
    m.forces.push_back(fb);
  }
}

double characteristic_length(const CompiledMechanism& c) {
  double L = 0.0;
  for (int i = 1; i <= c.model.nb; ++i) L = std::max(L, c.model.X_tree[i].r.norm());
  for (const LoopJoint& l : c.loops) L = std::max({L, l.X_P.r.norm(), l.X_S.r.norm()});
  return L > 0.0 ? L : 1.0;
}

// Whether a joint about/along world axis z fits a planar mechanism in the x-y plane.
bool planar_joint(const Joint& joint, const Vec3& z) {
  switch (joint.type) {
    case JointType::Revolute:
    case JointType::Planar:
      return std::abs(std::abs(z.z()) - 1.0) <= 1e-9;
    case JointType::Prismatic:
      return std::abs(z.z()) <= 1e-9;
    case JointType::Fixed:
      return true;
    default:
      return false;
  }
}

// Planar when every revolute axis is along world z and every prismatic axis lies in the x-y plane.
bool is_planar(const Model& model, const Data& data, const std::vector<LoopJoint>& loops) {
  for (int i = 1; i <= model.nb; ++i)  // a model body's frame is its joint's successor frame
    if (!planar_joint(model.joints[i], data.X0[i].E.row(2).transpose())) return false;
  for (const LoopJoint& l : loops) {
    const Transform Xs = l.successor == 0 ? l.X_S : l.X_S * data.X0[l.successor];
    if (!planar_joint(l.joint, Xs.E.row(2).transpose())) return false;
  }
  return true;
}

// In a planar mechanism, a loop joint's constraint row whose force direction T_c (in world
// orientation) has no in-plane part (moment about z, force along x or y) is zero in every
// configuration: the motion stays in the plane and the successor frame only turns about z. The
// loop Jacobian and bias then skip those rows (RBDA 8.3: they are the out-of-plane rows).
void mark_out_of_plane_rows(const Data& data, std::vector<LoopJoint>& loops) {
  VecN delta;
  Mat6X T;
  for (LoopJoint& l : loops) {
    loop_jcalc(l.joint, loop_transform(data, l), delta, T);
    const Transform Xs = l.successor == 0 ? l.X_S : l.X_S * data.X0[l.successor];
    for (int c = 0; c < T.cols(); ++c) {
      const Vec3 n = Xs.E.transpose() * T.col(c).head<3>();
      const Vec3 f = Xs.E.transpose() * T.col(c).tail<3>();
      if (std::abs(n.z()) + std::abs(f.x()) + std::abs(f.y()) <= 1e-12) l.zero_rows |= 1u << c;
    }
  }
}

void bind_couplings(Mechanism& m) {
  const CompiledMechanism& c = m.compiled;
  for (std::size_t i = 0; i < m.spec.couplings.size(); ++i) {
    const CouplingSpec& cs = m.spec.couplings[i];
    CouplingBinding cb;
    cb.index = static_cast<int>(i);
    cb.ratio = cs.ratio;
    for (int k = 0; k < 2; ++k) {
      CouplingBinding::Side& s = k == 0 ? cb.a : cb.b;
      s.user_joint = m.spec.joint_index(cs.joints[k]);
      if (s.user_joint < 0 || m.spec.joints[s.user_joint].joint.nv() != 1)
        throw std::invalid_argument("coupling '" + cs.name + "': joint '" + cs.joints[k] +
                                    "' is not a 1-DoF joint of the mechanism");
      const JointMapping& map = c.joint_map[s.user_joint];
      if (map.loop) {
        s.loop = map.index;
      } else {
        s.q = c.model.q_index[map.index];
        s.v = c.model.v_index[map.index];
      }
    }
    m.couplings.push_back(cb);
  }
}

// Each side's coordinate in the assembled state: the couplings hold relative to it.
void coupling_references(Mechanism& m, const Data& data) {
  for (CouplingBinding& cb : m.couplings)
    for (CouplingBinding::Side* s : {&cb.a, &cb.b}) {
      if (s->loop < 0) {
        s->q0 = m.q0[s->q];
        continue;
      }
      LoopMotion lm;
      loop_motion(data, m.compiled.loops[s->loop], LoopLevel::Position, lm);
      LoopCoordinate lc;
      loop_coordinate(m.compiled.loops[s->loop], lm, LoopLevel::Position, lc);
      s->q0 = lc.q;
    }
}

// A coupling that adds no rank is implied by (or contradicts) the loops and the couplings
// before it; one that takes the last degree of freedom locks the mechanism. Both are errors.
void check_couplings(const Mechanism& m, const MatX& J, int loop_rows) {
  if (m.couplings.empty()) return;
  const MobilityReport loops_only =
      mobility(m.model(), m.compiled.loops, J.topRows(loop_rows), m.length_scale);
  int rank = loops_only.rank;
  for (std::size_t i = 0; i < m.couplings.size(); ++i) {
    const std::string& name = m.spec.couplings[m.couplings[i].index].name;
    const MobilityReport r =
        mobility(m.model(), m.compiled.loops, J.topRows(loop_rows + static_cast<long>(i) + 1),
                 m.length_scale);
    if (r.rank <= rank)
      throw SetupError("the coupling '" + name +
                       "' over-determines the mechanism: its relation between the joints is "
                       "already imposed (or contradicted) by the loops and the couplings before "
                       "it; remove it or change its ratio");
    rank = r.rank;
    if (r.mobility == 0 && loops_only.mobility > 0)
      throw SetupError("the coupling '" + name +
                       "' over-determines the mechanism: with it the "
                       "mechanism has no degree of freedom left (mobility " +
                       std::to_string(loops_only.mobility) + " without couplings)");
  }
}

std::string describe_failure(const Mechanism& m) {
  std::ostringstream os;
  const LoopJoint& l = loop_of_row(m.compiled.loops, m.assembly.worst_row);
  os << "cannot close the loop at joint '" << l.name << "': residual " << m.assembly.residual
     << " after " << m.assembly.iterations
     << " iterations (check link lengths: the loop may be too long or too short to close)";
  return os.str();
}
}  // namespace

// K with the couplings' rows below it, at the state in data (positions).
MatX loop_and_coupling_jacobian(const Mechanism& m, Data& data, const MatX& K) {
  MatX J = MatX::Zero(K.rows() + static_cast<long>(m.couplings.size()), m.model().nv);
  J.topRows(K.rows()) = K;
  if (m.couplings.empty()) return J;
  const std::unique_ptr<ConstraintKind> kind = make_couplings(m, m.drives);
  ConstraintContext ctx{m, m.drives, data};
  ctx.q = &m.q0;
  ctx.qd = &m.qd0;
  VecX e = VecX::Zero(J.rows());
  kind->position_rows(ctx, J, e, static_cast<int>(K.rows()));
  return J;
}

std::vector<std::pair<std::string, int>> Mechanism::redundant_joints() const {
  std::vector<std::pair<std::string, int>> out;
  const int loop_rows = constraint_rows(compiled.loops);
  for (int r : mobility.redundant_rows) {
    const std::string& name = r < loop_rows ? loop_of_row(compiled.loops, r).name
                                            : spec.couplings[couplings[r - loop_rows].index].name;
    if (out.empty() || out.back().first != name) out.emplace_back(name, 0);
    ++out.back().second;
  }
  return out;
}

Mechanism prepare(const MechanismSpec& spec) {
  Mechanism m;
  m.spec = spec;
  m.compiled = compile(spec);
  bind_drives_and_springs(m);
  bind_forces(m);
  bind_couplings(m);
  const Model& model = m.compiled.model;
  initial_guess(spec, m.compiled, m.q0, m.qd0);
  for (const DriveBinding& d : m.drives) {  // motion drives start where their law says
    if (d.kind != DriveSpec::Kind::Motion || d.q < 0) continue;
    const TimeJet j = d.eval(0.0);
    if (!std::isfinite(j.value) || !std::isfinite(j.d1))
      throw SetupError("the motion drive on joint '" + spec.joints[d.user_joint].name +
                       "' is not defined at t = 0 (q = " + std::to_string(j.value) + ", velocity " +
                       std::to_string(j.d1) + ")");
    m.q0[d.q] = j.value;
    m.qd0[d.v] = j.d1;
  }
  Data data(model);
  const auto& loops = m.compiled.loops;
  forward_kinematics(model, data, m.q0);
  for (int i = 1; i <= model.nb; ++i)
    m.position_scale = std::max(m.position_scale, data.X0[i].r.norm());
  m.assembly = assemble(model, data, loops, m.q0, m.locked_v, m.closure_tolerance(1e-12));
  m.length_scale = characteristic_length(m.compiled);
  if (!m.assembly.converged) throw SetupError(describe_failure(m));
  project_velocity(model, data, loops, m.q0, m.qd0, m.locked_v);
  forward_kinematics(model, data, m.q0);
  MatX K;
  loop_jacobian(model, data, loops, K);
  coupling_references(m, data);
  const MatX J = loop_and_coupling_jacobian(m, data, K);
  check_couplings(m, J, static_cast<int>(K.rows()));
  m.mobility = mobility(model, loops, J, m.length_scale);
  m.planar = is_planar(model, data, loops);
  // A coupling is a higher pair: one freedom less (Grübler's j2 term).
  m.gruebler = gruebler_count(model, loops, m.planar) - static_cast<int>(m.couplings.size());
  if (m.planar) mark_out_of_plane_rows(data, m.compiled.loops);
  if (m.planar && m.has_loops())
    m.planar_dynamics = make_planar_model(model, data, m.compiled.loops);
  m.sparse = select_loop_method(m);
  return m;
}

}  // namespace articula
