#include "bench/bench_models.hpp"

#include <cmath>
#include <numbers>
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/io/project.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/simulation.hpp"
#include "core/spec/templates.hpp"

namespace articula::bench {

namespace {
constexpr double kPi = std::numbers::pi;

// ^{joint}X_{parent} for a URDF joint origin (xyz, rpy): the joint frame's pose in the parent is
// R = Rz(yaw) Ry(pitch) Rx(roll), p = xyz; rx/ry/rz are coordinate rotations, so E = R^T.
Transform urdf_origin(const Vec3& xyz, double roll, double pitch, double yaw) {
  return {rx(roll) * ry(pitch) * rz(yaw), xyz};
}

RigidBodyInertia urdf_inertia(double mass, const Vec3& com, double ixx, double iyy, double izz) {
  return RigidBodyInertia::from_mass_com(mass, com, Vec3(ixx, iyy, izz).asDiagonal());
}

// Solid aluminium rod along body x: length 0.1 m, radius 0.02 m, 2700 kg/m^3 -> 0.34 kg.
constexpr double kLinkLength = 0.1;
RigidBodyInertia rod_inertia() {
  constexpr double m = 0.34, r = 0.02, L = kLinkLength;
  const double axial = m * r * r / 2, transverse = m * (3 * r * r + L * L) / 12;
  return urdf_inertia(m, Vec3(L / 2, 0, 0), axial, transverse, transverse);
}

// A deterministic pseudo-random joint-axis orientation.
Mat3 random_axes(std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  const double a = angle(rng), b = angle(rng);
  return rx(a) * ry(b);
}
}  // namespace

Model make_iiwa14() {
  // Source: RobotLocomotion/drake, manipulation/models/iiwa_description/urdf/
  // iiwa14_no_collision.urdf (joint origins, link masses, COMs, principal inertias).
  // iiwa_link_0 is welded to the base, so it carries no dynamics and is omitted.
  struct Link {
    Vec3 xyz;
    double roll, pitch, yaw;
    double mass;
    Vec3 com;
    double ixx, iyy, izz;
  };
  const double h = kPi / 2;
  const Link links[7] = {
      {{0, 0, 0.1575}, 0, 0, 0, 5.76, {0, -0.03, 0.12}, 0.033, 0.0333, 0.0123},
      {{0, 0, 0.2025}, h, 0, kPi, 6.35, {0.0003, 0.059, 0.042}, 0.0305, 0.0304, 0.011},
      {{0, 0.2045, 0}, h, 0, kPi, 3.5, {0, 0.03, 0.13}, 0.025, 0.0238, 0.0076},
      {{0, 0, 0.2155}, h, 0, 0, 3.5, {0, 0.067, 0.034}, 0.017, 0.0164, 0.006},
      {{0, 0.1845, 0}, -h, kPi, 0, 3.5, {0.0001, 0.021, 0.076}, 0.01, 0.0087, 0.00449},
      {{0, 0, 0.2155}, h, 0, 0, 1.8, {0, 0.0006, 0.0004}, 0.0049, 0.0047, 0.0036},
      {{0, 0.081, 0}, -h, kPi, 0, 1.2, {0, 0, 0.02}, 0.001, 0.001, 0.001},
  };
  ModelBuilder b;
  b.set_gravity(Vec3(0, 0, -9.81));
  for (int i = 0; i < 7; ++i) {
    const Link& l = links[i];
    b.add_body("iiwa_link_" + std::to_string(i + 1), i, Joint::revolute(),
               urdf_origin(l.xyz, l.roll, l.pitch, l.yaw),
               urdf_inertia(l.mass, l.com, l.ixx, l.iyy, l.izz));
  }
  return b.build();
}

Model make_chain(int n, unsigned seed) {
  std::mt19937 rng(seed);
  ModelBuilder b;
  b.set_gravity(Vec3(0, 0, -9.81));
  for (int i = 1; i <= n; ++i) {
    const Vec3 r = i == 1 ? Vec3::Zero() : Vec3(kLinkLength, 0, 0);  // tip of the parent rod
    b.add_body("link" + std::to_string(i), i - 1, Joint::revolute(), Transform(random_axes(rng), r),
               rod_inertia());
  }
  return b.build();
}

Model make_binary_tree(int nb, unsigned seed) {
  std::mt19937 rng(seed);
  ModelBuilder b;
  b.set_gravity(Vec3(0, 0, -9.81));
  for (int i = 1; i <= nb; ++i) {
    // Siblings sit on either side of the parent rod's tip.
    const Vec3 r = i == 1 ? Vec3::Zero() : Vec3(kLinkLength, i % 2 ? 0.02 : -0.02, 0);
    b.add_body("body" + std::to_string(i), i / 2, Joint::revolute(), Transform(random_axes(rng), r),
               rod_inertia());
  }
  return b.build();
}

std::vector<NamedModel> benchmark_models() {
  std::vector<NamedModel> models;
  models.push_back({"chain7", make_iiwa14()});
  models.push_back({"chain30", make_chain(30)});
  models.push_back({"chain100", make_chain(100)});
  models.push_back({"tree31", make_binary_tree(31)});
  return models;
}

MechanismSpec spec_from_tree(const Model& model, const std::string& name) {
  MechanismSpec spec;
  spec.name = name;
  spec.gravity = model.gravity();
  auto body_name = [&](int i) { return i == 0 ? std::string("ground") : model.body_names[i]; };
  for (int i = 1; i <= model.nb; ++i) {
    const RigidBodyInertia& I = model.inertia[i];
    BodySpec b;
    b.name = model.body_names[i];
    b.mass = I.m;
    b.com = I.com();
    const Mat3 Ic = I.inertia_about_com();
    b.inertia = {Ic(0, 0), Ic(1, 1), Ic(2, 2), Ic(0, 1), Ic(0, 2), Ic(1, 2)};
    spec.bodies.push_back(b);
    JointSpec j;
    j.name = model.joint_names[i];
    j.joint = model.joints[i];
    j.parent = body_name(model.parent[i]);
    j.child = b.name;
    j.parent_frame.position = model.X_tree[i].translation();
    j.parent_frame.orientation = Quat(model.X_tree[i].rotation());
    spec.joints.push_back(j);
  }
  return spec;
}

namespace {
MechanismSpec passive(MechanismSpec spec) {
  for (JointSpec& j : spec.joints) j.drive.reset();
  return spec;
}
BenchMechanism bench_mechanism(const std::string& name, int size, const MechanismSpec& spec) {
  return {name, size, std::make_unique<Mechanism>(prepare(passive(spec)))};
}
}  // namespace

std::vector<BenchMechanism> benchmark_mechanisms(const std::string& samples_dir) {
  std::vector<BenchMechanism> out;
  for (NamedModel& nm : benchmark_models())
    out.push_back(bench_mechanism(nm.name, nm.model.nb, spec_from_tree(nm.model, nm.name)));
  const std::pair<const char*, const char*> samples[] = {{"fourbar", "fourbar.json"},
                                                         {"slidercrank", "slider_crank.json"},
                                                         {"stewart", "stewart_platform.json"}};
  for (const auto& [name, file] : samples) {
    const MechanismSpec spec = load_project(samples_dir + "/" + file).spec;
    out.push_back(bench_mechanism(name, 1, spec));
  }
  for (int k : {5, 20, 80})
    out.push_back(bench_mechanism("ladder" + std::to_string(k), k, make_ladder(k)));
  out.push_back(fourbar_chain_mechanism(20));
  return out;
}

BenchMechanism fourbar_chain_mechanism(int k) {
  return bench_mechanism("fourbar_chain" + std::to_string(k), k, make_fourbar_chain(k));
}

BenchMechanism hanging_ladder_mechanism(int links, int rungs) {
  MechanismSpec spec = make_hanging_ladder(links, rungs);
  const std::string name = spec.name;
  return bench_mechanism(name, 2 * links + rungs, spec);
}

BenchMechanism hanging_net_mechanism(int rails, int links, int rungs) {
  MechanismSpec spec = make_hanging_net(rails, links, rungs);
  const std::string name = spec.name;
  return bench_mechanism(name, rails * links + (rails - 1) * rungs, spec);
}

BenchMechanism geared_mechanism(const std::string& samples_dir) {
  return bench_mechanism("geared", 1, load_project(samples_dir + "/geared_crank_rocker.json").spec);
}

BenchInput make_mechanism_input(const BenchMechanism& bm, unsigned seed) {
  BenchInput in = make_input(bm.model(), seed);
  in.q = bm.mech->q0;
  in.qd = bm.mech->qd0;
  return in;
}

BenchInput make_input(const Model& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  auto random_vec = [&](int n) {
    VecX x(n);
    for (int k = 0; k < n; ++k) x[k] = unit(rng);
    return x;
  };
  BenchInput in;
  in.q = random_configuration(model, rng);
  in.qd = random_vec(model.nv);
  in.qdd = random_vec(model.nv);
  in.tau = random_vec(model.nv);
  in.fd.assign(model.nb + 1, false);
  for (int i = 1; i <= model.nb; i += 2) in.fd[i] = true;
  return in;
}

}  // namespace articula::bench

namespace articula::bench {

namespace {
PeerPose peer_pose(const Transform& X) {  // X = ^{frame} X_{outer}
  PeerPose p;
  const Mat3 R = X.rotation();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) p.R[3 * r + c] = R(r, c);
  for (int k = 0; k < 3; ++k) p.p[k] = X.translation()[k];
  return p;
}
PeerJoint peer_joint(const Joint& j, const std::string& where) {
  switch (j.type) {
    case JointType::Revolute:
      return PeerJoint::Revolute;
    case JointType::Prismatic:
      return PeerJoint::Prismatic;
    case JointType::Universal:
      return PeerJoint::Universal;
    case JointType::Spherical:
      return PeerJoint::Spherical;
    case JointType::Fixed:
      return PeerJoint::Fixed;
    case JointType::Planar:
      return PeerJoint::Planar;
    default:
      break;
  }
  throw std::invalid_argument(where + ": joint type " + std::string(joint_type_name(j.type)) +
                              " has no peer-engine translation");
}
std::vector<double> copy(const VecX& x) {
  return {x.data(), x.data() + x.size()};
}
}  // namespace

PeerModel peer_model(const BenchMechanism& bm, const BenchInput& in) {
  const Model& m = bm.model();
  PeerModel pm;
  pm.name = bm.name;
  pm.size = bm.size;
  pm.nq = m.nq;
  pm.nv = m.nv;
  for (int k = 0; k < 3; ++k) pm.gravity[k] = m.gravity()[k];
  pm.bodies.resize(m.nb + 1);
  for (int i = 1; i <= m.nb; ++i) {
    PeerBody& b = pm.bodies[i];
    const Joint& j = m.joints[i];
    b.name = "b" + std::to_string(i);
    b.parent = m.parent[i];
    b.joint = peer_joint(j, bm.name + " body " + m.body_names[i]);
    b.reversed = j.reversed;
    if (j.reversed && b.joint != PeerJoint::Revolute && b.joint != PeerJoint::Prismatic)
      throw std::invalid_argument(bm.name + ": reversed multi-DoF joint has no peer translation");
    b.joint_frame = peer_pose(m.X_tree[i]);
    const RigidBodyInertia& I = m.inertia[i];
    b.mass = I.m;
    const Vec3 c = I.com();
    const Mat3 Ic = I.inertia_about_com();
    for (int k = 0; k < 3; ++k) b.com[k] = c[k];
    b.I_com = {Ic(0, 0), Ic(1, 1), Ic(2, 2), Ic(0, 1), Ic(0, 2), Ic(1, 2)};
    b.I_origin = {I.Ibar(0, 0), I.Ibar(1, 1), I.Ibar(2, 2),
                  I.Ibar(0, 1), I.Ibar(0, 2), I.Ibar(1, 2)};
    b.q_index = m.q_index[i];
    b.v_index = m.v_index[i];
  }
  for (const LoopJoint& l : bm.loops())
    pm.loops.push_back({peer_joint(l.joint, bm.name + " loop " + l.name), l.predecessor,
                        l.successor, peer_pose(l.X_P), peer_pose(l.X_S)});
  pm.q = copy(in.q);
  pm.qd = copy(in.qd);
  pm.qdd = copy(in.qdd);
  pm.tau = copy(in.tau);
  Data d(m);
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> H = crba(m, d, in.q);
  pm.H.assign(H.data(), H.data() + H.size());
  pm.tau_rnea = copy(rnea(m, d, in.q, in.qd, in.qdd));
  for (const CouplingBinding& c : bm.mech->couplings) {
    if (c.a.q < 0 || c.b.q < 0)
      throw std::invalid_argument(bm.name + ": a coupling on a loop joint has no peer translation");
    pm.couplings.push_back({c.a.q, c.b.q, c.ratio, c.a.q0, c.b.q0});
  }
  return pm;
}

PeerModel gate_model(const BenchMechanism& bm, const BenchInput& in, double t_end) {
  PeerModel pm = peer_model(bm, in);
  pm.gate_only = true;
  pm.t_end = t_end;
  Simulation sim(*bm.mech);
  const double h = 1e-4;
  const int steps = static_cast<int>(std::lround(t_end / h));
  for (int k = 0; k < steps; ++k) sim.step(h, Integrator::RK4);
  pm.q_end = copy(sim.q());
  return pm;
}

}  // namespace articula::bench
