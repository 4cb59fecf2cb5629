// Simbody 3.7 side of articula-bench: each benchmark model built from mobilizers (the Articula
// spanning tree) and constraints (its loop joints), checked against Articula's mass matrix and
// inverse dynamics, then timed. Compiled WITHOUT NDEBUG: Debian's Simbody is built with its
// assertions on and clients compiled with NDEBUG crash against it (stack-notes).
#include <Simbody.h>
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/peer_model.hpp"

namespace articula::bench {
namespace {

constexpr double kStep = 0.001;

SimTK::Transform transform_of(const PeerPose& p) {
  SimTK::Mat33 R;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) R(r, c) = p.R[3 * r + c];
  return SimTK::Transform(SimTK::Rotation(R, true), SimTK::Vec3(p.p[0], p.p[1], p.p[2]));
}

struct SbCase {
  const PeerModel* pm = nullptr;
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  std::unique_ptr<SimTK::Force::Gravity> gravity;
  std::vector<SimTK::MobilizedBody> mobod;  // per Articula body (0 = ground)
  SimTK::State state;                       // at the benchmark state
};

// Simbody's frames for Articula's joint frames: Pin turns about z as Articula's revolute does;
// Slider moves along x and Universal turns about x then the new y, so their frames are turned
// by A = Ry(-90 deg), which takes x to z and keeps y. Reversed joints turn or move about -z.
SimTK::Transform frame_fix(const PeerBody& b) {
  using SimTK::Rotation;
  switch (b.joint) {
    case PeerJoint::Revolute:
      return b.reversed ? SimTK::Transform(Rotation(SimTK::Pi, SimTK::XAxis)) : SimTK::Transform();
    case PeerJoint::Prismatic:
    case PeerJoint::Universal:
      return SimTK::Transform(Rotation(b.reversed ? SimTK::Pi / 2 : -SimTK::Pi / 2, SimTK::YAxis));
    default:
      return SimTK::Transform();
  }
}

// The mobilizer and its coordinate holding Articula coordinate q (1-DoF joints only).
std::pair<SimTK::MobilizedBodyIndex, SimTK::MobilizerQIndex> coordinate(const SbCase& c, int q) {
  for (std::size_t i = 1; i < c.pm->bodies.size(); ++i)
    if (c.pm->bodies[i].q_index == q)
      return {c.mobod[i].getMobilizedBodyIndex(), SimTK::MobilizerQIndex(0)};
  throw std::invalid_argument("no mobilizer holds coordinate " + std::to_string(q));
}

// A coupling as Simbody's CoordinateCoupler: f(q_a, q_b) = -r q_a + q_b + (r q0_a - q0_b) = 0.
void add_coupler(SbCase& c, const PeerCoupling& k) {
  SimTK::Vector coefficients(3);
  coefficients[0] = -k.ratio;
  coefficients[1] = 1.0;
  coefficients[2] = k.ratio * k.q0_a - k.q0_b;
  const auto [ba, qa] = coordinate(c, k.q_a);
  const auto [bb, qb] = coordinate(c, k.q_b);
  const SimTK::Array_<SimTK::MobilizedBodyIndex> bodies{ba, bb};
  const SimTK::Array_<SimTK::MobilizerQIndex> coords{qa, qb};
  SimTK::Constraint::CoordinateCoupler(c.matter, new SimTK::Function::Linear(coefficients), bodies,
                                       coords);
}

std::unique_ptr<SbCase> build(const PeerModel& pm) {
  auto c = std::make_unique<SbCase>();
  c->pm = &pm;
  c->gravity = std::make_unique<SimTK::Force::Gravity>(
      c->forces, c->matter, SimTK::Vec3(pm.gravity[0], pm.gravity[1], pm.gravity[2]));
  c->mobod.push_back(c->matter.Ground());
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const PeerBody& b = pm.bodies[i];
    const auto& I = b.I_origin;
    const SimTK::MassProperties mp(b.mass, SimTK::Vec3(b.com[0], b.com[1], b.com[2]),
                                   SimTK::Inertia(I[0], I[1], I[2], I[3], I[4], I[5]));
    const SimTK::Body::Rigid body(mp);
    const SimTK::Transform fix = frame_fix(b);
    const SimTK::Transform X_PF = transform_of(b.joint_frame) * fix;
    SimTK::MobilizedBody& parent = c->mobod[b.parent];
    switch (b.joint) {
      case PeerJoint::Revolute:
        c->mobod.push_back(SimTK::MobilizedBody::Pin(parent, X_PF, body, fix));
        break;
      case PeerJoint::Prismatic:
        c->mobod.push_back(SimTK::MobilizedBody::Slider(parent, X_PF, body, fix));
        break;
      case PeerJoint::Universal:
        c->mobod.push_back(SimTK::MobilizedBody::Universal(parent, X_PF, body, fix));
        break;
      case PeerJoint::Spherical:
        c->mobod.push_back(SimTK::MobilizedBody::Ball(parent, X_PF, body, fix));
        break;
      case PeerJoint::Planar:  // the contact models, which go to MuJoCo only
        throw std::invalid_argument("planar joints have no Simbody translation here");
      case PeerJoint::Fixed:
        c->mobod.push_back(SimTK::MobilizedBody::Weld(parent, X_PF, body, fix));
        break;
    }
  }
  for (const PeerLoop& l : pm.loops) {
    SimTK::MobilizedBody& p = c->mobod[l.predecessor];
    SimTK::MobilizedBody& s = c->mobod[l.successor];
    if (l.joint == PeerJoint::Fixed) {
      SimTK::Constraint::Weld(p, transform_of(l.on_predecessor), s, transform_of(l.on_successor));
    } else {  // revolute loops close planar mechanisms: the point constraint is the whole closure
      const auto& a = l.on_predecessor.p;
      const auto& b = l.on_successor.p;
      SimTK::Constraint::Ball(p, SimTK::Vec3(a[0], a[1], a[2]), s, SimTK::Vec3(b[0], b[1], b[2]));
    }
  }
  for (const PeerCoupling& k : pm.couplings) add_coupler(*c, k);
  c->system.realizeTopology();
  c->state = c->system.getDefaultState();
  c->system.realizeModel(c->state);
  return c;
}

// Rotation of a ball joint's M frame in its F frame, from the quaternion [w x y z].
SimTK::Mat33 ball_rotation(const double* q) {
  return SimTK::Rotation(SimTK::Quaternion(q[0], q[1], q[2], q[3])).asMat33();
}

// Sets q, u from Articula's coordinates. Ball joints: u = R_FM ω_M (Articula's ω is in M).
void set_state(SbCase& c, const std::vector<double>& q, const std::vector<double>& qd) {
  const PeerModel& pm = *c.pm;
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const PeerBody& b = pm.bodies[i];
    const SimTK::MobilizedBody& mb = c.mobod[i];
    const int nq = mb.getNumQ(c.state), nu = mb.getNumU(c.state);
    const int q0 = mb.getFirstQIndex(c.state), u0 = mb.getFirstUIndex(c.state);
    for (int k = 0; k < nq; ++k) c.state.updQ()[q0 + k] = q[b.q_index + k];
    if (b.joint == PeerJoint::Spherical) {
      const SimTK::Vec3 u = ball_rotation(&q[b.q_index]) *
                            SimTK::Vec3(qd[b.v_index], qd[b.v_index + 1], qd[b.v_index + 2]);
      for (int k = 0; k < 3; ++k) c.state.updU()[u0 + k] = u[k];
    } else {
      for (int k = 0; k < nu; ++k) c.state.updU()[u0 + k] = qd[b.v_index + k];
    }
  }
}

// Articula velocity index -> (Simbody u index, ball rotation) for comparing matrices.
SimTK::Matrix velocity_map(SbCase& c) {
  const PeerModel& pm = *c.pm;
  SimTK::Matrix P(pm.nv, pm.nv, 0.0);  // u = P v
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const PeerBody& b = pm.bodies[i];
    const int nu = c.mobod[i].getNumU(c.state), u0 = c.mobod[i].getFirstUIndex(c.state);
    if (b.joint == PeerJoint::Spherical) {
      const SimTK::Mat33 R = ball_rotation(&pm.q[b.q_index]);
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) P(u0 + r, b.v_index + k) = R(r, k);
    } else {
      for (int k = 0; k < nu; ++k) P(u0 + k, b.v_index + k) = 1.0;
    }
  }
  return P;
}

void inverse_dynamics(SbCase& c, const SimTK::Vector& udot, SimTK::Vector& tau) {
  c.system.realize(c.state, SimTK::Stage::Velocity);
  const SimTK::Vector none(c.state.getNU(), 0.0);
  c.matter.calcResidualForceIgnoringConstraints(c.state, none, c.gravity->getBodyForces(c.state),
                                                udot, tau);
}

double check(SbCase& c) {
  const PeerModel& pm = *c.pm;
  set_state(c, pm.q, pm.qd);
  const SimTK::Matrix P = velocity_map(c);
  c.system.realize(c.state, SimTK::Stage::Position);
  SimTK::Matrix M;
  c.matter.calcM(c.state, M);
  SimTK::Matrix H(pm.nv, pm.nv), qdd(pm.nv, 1);
  for (int r = 0; r < pm.nv; ++r) {
    qdd(r, 0) = pm.qdd[r];
    for (int k = 0; k < pm.nv; ++k) H(r, k) = pm.H[r * pm.nv + k];
  }
  const SimTK::Matrix H_sb = P * H * P.transpose();
  double err = 0, scale = 1e-300;
  for (double h : pm.H) scale = std::max(scale, std::abs(h));
  for (int r = 0; r < pm.nv; ++r)
    for (int k = 0; k < pm.nv; ++k) err = std::max(err, std::abs(M(r, k) - H_sb(r, k)) / scale);
  const SimTK::Matrix udot = P * qdd;
  SimTK::Vector tau;
  inverse_dynamics(c, udot.col(0), tau);
  double tscale = 1.0;
  for (double t : pm.tau_rnea) tscale = std::max(tscale, std::abs(t));
  SimTK::Matrix tau_a(pm.nv, 1);
  for (int k = 0; k < pm.nv; ++k) tau_a(k, 0) = pm.tau_rnea[k];
  const SimTK::Matrix tau_sb = P * tau_a;  // generalized forces: u = P v with P orthogonal
  for (int k = 0; k < pm.nv; ++k) err = std::max(err, std::abs(tau[k] - tau_sb(k, 0)) / tscale);
  for (int k = 0; k < c.state.getNQErr(); ++k) err = std::max(err, std::abs(c.state.getQErr()[k]));
  return err;
}

double loop_error(const SimTK::MultibodySystem& system, const SimTK::State& s) {
  system.realize(s, SimTK::Stage::Position);
  double e = 0;
  for (int k = 0; k < s.getNQErr(); ++k) e = std::max(e, std::abs(s.getQErr()[k]));
  return e;
}

// The gate's trajectory check: the passive motion for t_end seconds, by an error-controlled
// integrator far tighter than the 1e-9 asked, against Articula's q_end (largest |Δq|, rad or m).
double trajectory_error(SbCase& c) {
  const PeerModel& pm = *c.pm;
  set_state(c, pm.q, pm.qd);
  SimTK::RungeKuttaMersonIntegrator integ(c.system);
  integ.setAccuracy(1e-13);
  integ.setConstraintTolerance(1e-13);
  SimTK::TimeStepper ts(c.system, integ);
  ts.initialize(c.state);
  ts.stepTo(pm.t_end);
  const SimTK::State& s = integ.getState();
  double err = 0;
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const int nq = c.mobod[i].getNumQ(s), q0 = c.mobod[i].getFirstQIndex(s);
    for (int k = 0; k < nq; ++k)
      err = std::max(err, std::abs(s.getQ()[q0 + k] - pm.q_end[pm.bodies[i].q_index + k]));
  }
  return err;
}

void run(benchmark::State& bs, SbCase& c, const std::string& op) {
  const PeerModel& pm = *c.pm;
  set_state(c, pm.q, pm.qd);
  SimTK::State& s = c.state;
  if (op == "forward") {  // touch q so nothing cached survives, then realize accelerations
    for (auto _ : bs) {
      s.updQ();
      c.system.realize(s, SimTK::Stage::Acceleration);
      benchmark::DoNotOptimize(s.getUDot()[0]);
    }
  } else if (op == "crba") {
    SimTK::Matrix M;
    for (auto _ : bs) {
      s.updQ();
      c.system.realize(s, SimTK::Stage::Position);
      c.matter.calcM(s, M);
      benchmark::DoNotOptimize(M(0, 0));
    }
  } else if (op == "rnea" || op == "inverse") {
    SimTK::Vector udot(pm.nv), tau;
    for (int k = 0; k < pm.nv; ++k) udot[k] = pm.qdd[k];
    for (auto _ : bs) {
      s.updQ();
      inverse_dynamics(c, udot, tau);
      benchmark::DoNotOptimize(tau[0]);
    }
  } else {  // sim1s_rk4 (Runge-Kutta-Merson, fixed step: Simbody has no classical RK4) /
            // sim1s_euler
    const SimTK::State start = s;
    std::unique_ptr<SimTK::Integrator> integ;
    if (op == "sim1s_rk4")
      integ = std::make_unique<SimTK::RungeKuttaMersonIntegrator>(c.system);
    else
      integ = std::make_unique<SimTK::ExplicitEulerIntegrator>(c.system);
    integ->setFixedStepSize(kStep);
    integ->setConstraintTolerance(1e-10);  // loops held as tightly as Articula holds them
    double err = 0;
    for (auto _ : bs) {
      SimTK::TimeStepper ts(c.system, *integ);
      ts.initialize(start);
      ts.stepTo(1.0);
      benchmark::DoNotOptimize(integ->getState().getQ()[0]);
      bs.PauseTiming();
      err = pm.loops.empty() ? 0.0 : loop_error(c.system, integ->getState());
      bs.ResumeTiming();
    }
    bs.counters["loop_error"] = err;
    s = start;
  }
}

}  // namespace

bool register_simbody(const std::vector<PeerModel>& models) {
  static std::vector<std::unique_ptr<SbCase>> cases, gates;
  for (const PeerModel& pm : models) {
    std::unique_ptr<SbCase> c;
    double err = 0;
    try {
      c = build(pm);
      err = check(*c);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "articula-bench: Simbody cannot build %s: %s\n", pm.name.c_str(),
                   e.what());
      return false;
    }
    if (!(err < 1e-9)) {
      std::fprintf(stderr,
                   "articula-bench: Simbody's %s differs from Articula's (relative error %g)\n",
                   pm.name.c_str(), err);
      return false;
    }
    if (pm.gate_only) {
      const double traj = trajectory_error(*c);
      std::fprintf(stderr,
                   "articula-bench: gate: Simbody's %s (%zu CoordinateCoupler) after %g s: "
                   "max |dq| = %.2g\n",
                   pm.name.c_str(), pm.couplings.size(), pm.t_end, traj);
      if (!(traj < 1e-9)) return false;
      gates.push_back(std::move(c));
      continue;
    }
    cases.push_back(std::move(c));
  }
  const std::vector<std::string> ops = {"rnea",    "crba",      "forward",
                                        "inverse", "sim1s_rk4", "sim1s_euler"};
  for (const std::string& op : ops)
    for (const auto& c : cases) {
      if (op.rfind("sim1s", 0) == 0 && !c->pm->simulate) continue;
      if ((op == "rnea" || op == "crba" || op == "inverse") && !c->pm->loops.empty())
        continue;  // trees only
      SbCase* cp = c.get();
      benchmark::RegisterBenchmark(("simbody/" + op + "/" + c->pm->name).c_str(),
                                   [cp, op](benchmark::State& s) { run(s, *cp, op); });
    }
  return true;
}

}  // namespace articula::bench
