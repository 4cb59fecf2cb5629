// MuJoCo 2.2 side of articula-bench: each benchmark model written as MJCF (or as a flat URDF when
// the tree is too deep for MuJoCo's XML reader), loaded, checked against Articula's mass matrix
// and inverse dynamics, then timed. Loop joints become `connect` equality constraints.
#include <benchmark/benchmark.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/peer_model.hpp"

namespace articula::bench {
namespace {

constexpr double kStep = 0.001;
// The walker's crank servo (N m/rad, N m s/rad): it lags the law by at most 5.4e-3 rad over the
// first second (measured: the drive_error counter), stable at 1 ms with RK4.
constexpr double kMotorKp = 2e4, kMotorKv = 200;

// Quaternion [w x y z] of a rotation matrix (row-major).
std::array<double, 4> quat_of(const std::array<double, 9>& R) {
  double q[4];
  mju_mat2Quat(q, R.data());
  return {q[0], q[1], q[2], q[3]};
}

std::string vec(const double* x, int n) {
  std::ostringstream os;
  os.precision(17);
  for (int k = 0; k < n; ++k) os << (k ? " " : "") << x[k];
  return os.str();
}

int depth(const PeerModel& pm, int i) {
  int d = 0;
  for (; i > 0; i = pm.bodies[i].parent) ++d;
  return d;
}

void write_joint(std::ostream& os, const PeerBody& b, const std::string& name) {
  const char* axis = b.reversed ? "0 0 -1" : "0 0 1";
  switch (b.joint) {
    case PeerJoint::Revolute:
      os << "<joint name='" << name << "' type='hinge' axis='" << axis << "'/>";
      break;
    case PeerJoint::Prismatic:
      os << "<joint name='" << name << "' type='slide' axis='" << axis << "'/>";
      break;
    case PeerJoint::Universal:  // Articula: rotate about z, then about the new y
      os << "<joint type='hinge' axis='0 0 1'/><joint type='hinge' axis='0 1 0'/>";
      break;
    case PeerJoint::Spherical:
      os << "<joint type='ball'/>";
      break;
    case PeerJoint::Planar:  // MuJoCo applies a body's joints in order: θ, then x, y rotated
      os << "<joint type='hinge' axis='0 0 1'/><joint type='slide' axis='1 0 0'/>"
         << "<joint type='slide' axis='0 1 0'/>";
      break;
    case PeerJoint::Fixed:
      break;
  }
}

// The contact spheres on body i: colliding with the ground plane only (contype 1, conaffinity
// 0 against the plane's 0 and 1), massless (inertiafromgeom is false).
void write_contacts(std::ostream& os, const PeerModel& pm, int i) {
  for (const PeerContact& c : pm.contacts)
    if (c.body == i)
      os << "<geom type='sphere' size='" << c.radius << "' pos='" << vec(c.centre.data(), 3)
         << "' friction='" << c.friction << " 0.005 0.0001' contype='1' conaffinity='0'/>";
}

void write_body(std::ostream& os, const PeerModel& pm,
                const std::vector<std::vector<int>>& children, int i) {
  const PeerBody& b = pm.bodies[i];
  const auto q = quat_of(b.joint_frame.R);
  os << "<body name='" << b.name << "' pos='" << vec(b.joint_frame.p.data(), 3) << "' quat='"
     << vec(q.data(), 4) << "'>";
  os << "<inertial pos='" << vec(b.com.data(), 3) << "' mass='" << vec(&b.mass, 1)
     << "' fullinertia='" << b.I_com[0] << " " << b.I_com[1] << " " << b.I_com[2] << " "
     << b.I_com[3] << " " << b.I_com[4] << " " << b.I_com[5] << "'/>";
  write_joint(os, b, b.q_index == pm.motor_q ? "motor" : "j" + std::to_string(i));
  write_contacts(os, pm, i);
  os << "\n";
  for (int c : children[i]) write_body(os, pm, children, c);
  os << "</body>\n";
}

std::string mjcf(const PeerModel& pm) {
  std::vector<std::vector<int>> children(pm.bodies.size());
  for (std::size_t i = 1; i < pm.bodies.size(); ++i)
    children[pm.bodies[i].parent].push_back(static_cast<int>(i));
  std::ostringstream os;
  os.precision(17);
  os << "<mujoco model='" << pm.name << "'>\n<compiler angle='radian' inertiafromgeom='false'/>\n"
     << "<size njmax='4000' nconmax='" << 10 + 2 * pm.contacts.size() << "'/>\n<worldbody>\n";
  if (!pm.contacts.empty()) {  // the ground: z of the plane geom along ground_normal
    double q[4];
    mju_quatZ2Vec(q, pm.ground_normal.data());
    os << "<geom type='plane' size='0 0 1' quat='" << vec(q, 4) << "' friction='"
       << pm.contacts[0].friction << " 0.005 0.0001' contype='0' conaffinity='1'/>\n";
  }
  for (int c : children[0]) write_body(os, pm, children, c);
  os << "</worldbody>\n";
  if (pm.motor_q >= 0)  // a stiff servo on the driven joint: ctrl = its law's angle and rate
    os << "<actuator><position joint='motor' kp='" << kMotorKp << "'/><velocity joint='motor' kv='"
       << kMotorKv << "'/></actuator>\n";
  os << "<equality>\n";
  // Anchors on body 2 are rewritten after loading (MuJoCo computes them at qpos0).
  for (const PeerLoop& l : pm.loops) {
    const std::string b1 = l.predecessor ? pm.bodies[l.predecessor].name : "world";
    const std::string b2 = l.successor ? pm.bodies[l.successor].name : "world";
    os << "<connect body1='" << b1 << "' body2='" << b2 << "' anchor='"
       << vec(l.on_predecessor.p.data(), 3) << "' solref='" << 2 * kStep << " 1'/>\n";
  }
  os << "</equality>\n</mujoco>\n";
  return os.str();
}

// A flat URDF (links and joints side by side) for chains deeper than MuJoCo's XML nesting limit.
std::string urdf(const PeerModel& pm) {
  std::ostringstream os;
  os.precision(17);
  os << "<robot name='" << pm.name << "'>\n<link name='ground'/>\n";
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const PeerBody& b = pm.bodies[i];
    os << "<link name='" << b.name << "'><inertial><origin xyz='" << vec(b.com.data(), 3)
       << "' rpy='0 0 0'/><mass value='" << b.mass << "'/><inertia ixx='" << b.I_com[0] << "' iyy='"
       << b.I_com[1] << "' izz='" << b.I_com[2] << "' ixy='" << b.I_com[3] << "' ixz='"
       << b.I_com[4] << "' iyz='" << b.I_com[5] << "'/></inertial></link>\n";
    const auto& R = b.joint_frame.R;  // URDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll)
    const double pitch = std::asin(std::clamp(-R[6], -1.0, 1.0));
    const double roll = std::atan2(R[7], R[8]), yaw = std::atan2(R[3], R[0]);
    const char* type = b.joint == PeerJoint::Revolute    ? "continuous"
                       : b.joint == PeerJoint::Prismatic ? "prismatic"
                                                         : "fixed";
    os << "<joint name='j" << i << "' type='" << type << "'><parent link='"
       << (b.parent ? pm.bodies[b.parent].name : std::string("ground")) << "'/><child link='"
       << b.name << "'/><origin xyz='" << vec(b.joint_frame.p.data(), 3) << "' rpy='" << roll << " "
       << pitch << " " << yaw << "'/><axis xyz='0 0 " << (b.reversed ? -1 : 1) << "'/>"
       << (b.joint == PeerJoint::Prismatic
               ? "<limit lower='-1e3' upper='1e3' effort='0' velocity='0'/>"
               : "")
       << "</joint>\n";
  }
  os << "</robot>\n";
  return os.str();
}

// A loaded model with the map from Articula coordinates to MuJoCo's.
struct MjCase {
  const PeerModel* pm = nullptr;
  mjModel* m = nullptr;
  std::vector<int> qadr, dadr;  // per Articula body: first qpos / dof of its joint (-1: none)
  ~MjCase() {
    if (m) mj_deleteModel(m);
  }
};

void set_state(const MjCase& c, mjData* d, const std::vector<double>& q,
               const std::vector<double>& qd) {
  for (std::size_t i = 1; i < c.pm->bodies.size(); ++i) {
    const PeerBody& b = c.pm->bodies[i];
    if (c.qadr[i] < 0) continue;
    const int nq = b.joint == PeerJoint::Spherical   ? 4
                   : b.joint == PeerJoint::Universal ? 2
                   : b.joint == PeerJoint::Planar    ? 3
                                                     : 1;
    const int nv = b.joint == PeerJoint::Spherical ? 3 : nq;
    for (int k = 0; k < nq; ++k) d->qpos[c.qadr[i] + k] = q[b.q_index + k];
    for (int k = 0; k < nv; ++k) d->qvel[c.dadr[i] + k] = qd[b.v_index + k];
  }
}

// Articula's velocity index -> MuJoCo dof.
std::vector<int> dof_map(const MjCase& c) {
  std::vector<int> map(c.pm->nv, -1);
  for (std::size_t i = 1; i < c.pm->bodies.size(); ++i) {
    const PeerBody& b = c.pm->bodies[i];
    const int nv = b.joint == PeerJoint::Spherical || b.joint == PeerJoint::Planar ? 3
                   : b.joint == PeerJoint::Universal                               ? 2
                   : b.joint == PeerJoint::Fixed                                   ? 0
                                                                                   : 1;
    for (int k = 0; k < nv; ++k) map[b.v_index + k] = c.dadr[i] + k;
  }
  return map;
}

std::unique_ptr<MjCase> load(const PeerModel& pm, std::string& why) {
  const bool flat = pm.loops.empty() &&
                    std::all_of(pm.bodies.begin() + 1, pm.bodies.end(), [](const PeerBody& b) {
                      return b.joint == PeerJoint::Revolute || b.joint == PeerJoint::Prismatic;
                    });
  int max_depth = 0;
  for (std::size_t i = 1; i < pm.bodies.size(); ++i)
    max_depth = std::max(max_depth, depth(pm, static_cast<int>(i)));
  const bool use_urdf = flat && max_depth > 50;
  const auto path = std::filesystem::temp_directory_path() /
                    ("articula-bench-" + pm.name + (use_urdf ? ".urdf" : ".xml"));
  std::ofstream(path) << (use_urdf ? urdf(pm) : mjcf(pm));
  char error[1000] = "";
  auto c = std::make_unique<MjCase>();
  c->pm = &pm;
  c->m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
  std::filesystem::remove(path);
  if (!c->m) {
    why = error;
    return nullptr;
  }
  mjModel* m = c->m;
  for (int k = 0; k < 3; ++k) m->opt.gravity[k] = pm.gravity[k];
  m->opt.timestep = kStep;
  if (pm.contacts.empty()) m->opt.disableflags |= mjDSBL_CONTACT;
  c->qadr.assign(pm.bodies.size(), -1);
  c->dadr.assign(pm.bodies.size(), -1);
  for (std::size_t i = 1; i < pm.bodies.size(); ++i) {
    const int id = mj_name2id(m, mjOBJ_BODY, pm.bodies[i].name.c_str());
    if (id < 0 || (pm.bodies[i].joint != PeerJoint::Fixed && m->body_jntnum[id] == 0)) {
      why = "body " + pm.bodies[i].name + " missing";
      return nullptr;
    }
    if (m->body_jntnum[id] == 0) continue;
    c->qadr[i] = m->jnt_qposadr[m->body_jntadr[id]];
    c->dadr[i] = m->jnt_dofadr[m->body_jntadr[id]];
  }
  // connect: anchor on body 2 = the loop frame's origin in the successor body (eq_data[3..5]).
  for (std::size_t e = 0; e < pm.loops.size(); ++e)
    for (int k = 0; k < 3; ++k) m->eq_data[mjNEQDATA * e + 3 + k] = pm.loops[e].on_successor.p[k];
  return c;
}

// Mass matrix, inverse dynamics and loop closure at the benchmark state, relative errors.
double check(const MjCase& c) {
  const PeerModel& pm = *c.pm;
  mjData* d = mj_makeData(c.m);
  set_state(c, d, pm.q, pm.qd);
  const std::vector<int> map = dof_map(c);
  mj_forward(c.m, d);
  for (int k = 0; k < pm.nv; ++k) d->qacc[map[k]] = pm.qdd[k];
  std::vector<double> M(c.m->nv * c.m->nv), rne(c.m->nv);
  mj_fullM(c.m, M.data(), d->qM);
  mj_rne(c.m, d, 1, rne.data());  // M q̈ + bias (gravity included)
  double err = 0, scale = 1e-300;
  for (double h : pm.H) scale = std::max(scale, std::abs(h));
  for (int r = 0; r < pm.nv; ++r)
    for (int k = 0; k < pm.nv; ++k)
      err = std::max(err, std::abs(M[map[r] * c.m->nv + map[k]] - pm.H[r * pm.nv + k]) / scale);
  double tscale = 1.0;
  for (double t : pm.tau_rnea) tscale = std::max(tscale, std::abs(t));
  for (int k = 0; k < pm.nv; ++k)
    err = std::max(err, std::abs(rne[map[k]] - pm.tau_rnea[k]) / tscale);
  for (int r = 0; r < d->nefc; ++r) err = std::max(err, std::abs(d->efc_pos[r]));  // loops closed
  mj_deleteData(d);
  return err;
}

double loop_error(const mjModel* m, mjData* d) {
  mj_forward(m, d);
  double e = 0;
  for (int r = 0; r < d->nefc; ++r) e = std::max(e, std::abs(d->efc_pos[r]));
  return e;
}

void run(benchmark::State& s, const MjCase& c, const std::string& op) {
  const PeerModel& pm = *c.pm;
  const mjModel* m = c.m;
  mjData* d = mj_makeData(m);
  const std::vector<int> map = dof_map(c);
  set_state(c, d, pm.q, pm.qd);
  for (int k = 0; k < pm.nv; ++k) {
    d->qacc[map[k]] = pm.qdd[k];
    d->qfrc_applied[map[k]] = pm.tau[k];
  }
  std::vector<double> out(m->nv);
  if (op == "rnea") {  // what an RNEA computes from (q, q̇, q̈): kinematics, then the recursion
    for (auto _ : s) {
      mj_kinematics(m, d);
      mj_comPos(m, d);
      mj_comVel(m, d);
      mj_rne(m, d, 1, out.data());
      benchmark::DoNotOptimize(out.data());
    }
  } else if (op == "crba") {
    for (auto _ : s) {
      mj_kinematics(m, d);
      mj_comPos(m, d);
      mj_crb(m, d);
      benchmark::DoNotOptimize(d->qM);
    }
  } else if (op == "forward") {
    for (auto _ : s) {
      mj_forward(m, d);
      benchmark::DoNotOptimize(d->qacc);
    }
  } else if (op == "inverse") {
    for (auto _ : s) {
      mj_inverse(m, d);
      benchmark::DoNotOptimize(d->qfrc_inverse);
    }
  } else {  // sim1s_rk4, sim1s_euler: one simulated second from the benchmark state
    mjModel* mm = mj_copyModel(nullptr, m);
    mm->opt.integrator = op == "sim1s_rk4" ? mjINT_RK4 : mjINT_EULER;
    double err = 0;
    for (auto _ : s) {
      mj_resetData(mm, d);
      set_state(c, d, pm.q, pm.qd);
      for (int k = 0; k < 1000; ++k) mj_step(mm, d);
      benchmark::DoNotOptimize(d->qpos);
      s.PauseTiming();
      err = pm.loops.empty() ? 0.0 : loop_error(mm, d);
      s.ResumeTiming();
    }
    s.counters["loop_error"] = err;
    mj_deleteModel(mm);
  }
  mj_deleteData(d);
}

// MuJoCo's qpos index of Articula coordinate q: a 1-DoF or planar joint's (-1 otherwise).
int qpos_of(const MjCase& c, int q) {
  for (std::size_t i = 1; i < c.pm->bodies.size(); ++i) {
    const PeerBody& b = c.pm->bodies[i];
    const int nq = b.joint == PeerJoint::Planar ? 3 : 1;
    if (b.joint != PeerJoint::Universal && b.joint != PeerJoint::Spherical && c.qadr[i] >= 0 &&
        q >= b.q_index && q < b.q_index + nq)
      return c.qadr[i] + q - b.q_index;
  }
  return -1;
}

// One simulated second with contacts from the assembled state, the crank servoed to its law
// (its target at each step's midpoint); counters as articula/sim1s_rk4 on contact models:
// loop_error and penetration, largest over the run (the connect rows' |efc_pos|, m; the
// deepest sphere, m), walked (m), and drive_error, how far the servo let the crank lag (rad).
void run_contacts(benchmark::State& s, const MjCase& c) {
  const PeerModel& pm = *c.pm;
  mjModel* mm = mj_copyModel(nullptr, c.m);
  mm->opt.integrator = mjINT_RK4;
  mjData* d = mj_makeData(mm);
  const int motor = qpos_of(c, pm.motor_q), fwd = qpos_of(c, pm.forward_q);
  const double q0 = pm.q[pm.motor_q];
  double loop = 0, depth = 0, drive = 0, walked = 0;
  for (auto _ : s) {
    mj_resetData(mm, d);
    set_state(c, d, pm.q, pm.qd);
    loop = depth = drive = 0;
    for (int k = 0; k < 1000; ++k) {
      d->ctrl[0] = q0 + pm.motor_speed * (d->time + 0.5 * kStep);
      d->ctrl[1] = pm.motor_speed;
      mj_step(mm, d);
      for (int r = 0; r < d->nefc; ++r)
        if (d->efc_type[r] == mjCNSTR_EQUALITY) loop = std::max(loop, std::abs(d->efc_pos[r]));
      for (int i = 0; i < d->ncon; ++i) depth = std::max(depth, -d->contact[i].dist);
      drive = std::max(drive, std::abs(d->qpos[motor] - q0 - pm.motor_speed * d->time));
    }
    walked = fwd >= 0 ? d->qpos[fwd] - pm.q[pm.forward_q] : 0.0;
  }
  s.counters["loop_error"] = loop;
  s.counters["penetration"] = depth;
  s.counters["drive_error"] = drive;
  if (fwd >= 0) s.counters["walked"] = walked;
  mj_deleteData(d);
  mj_deleteModel(mm);
}

// The model loaded into MuJoCo and checked against Articula's mass matrix and inverse dynamics
// (1e-9 relative, a planar chassis included) before anything is timed; null with the reason on
// stderr.
std::unique_ptr<MjCase> load_checked(const PeerModel& pm) {
  std::string why;
  auto c = load(pm, why);
  if (!c) {
    std::fprintf(stderr, "articula-bench: MuJoCo cannot load %s: %s\n", pm.name.c_str(),
                 why.c_str());
    return nullptr;
  }
  const double err = check(*c);
  if (!(err < 1e-9)) {
    std::fprintf(stderr,
                 "articula-bench: MuJoCo's %s differs from Articula's (relative error %g)\n",
                 pm.name.c_str(), err);
    return nullptr;
  }
  return c;
}

}  // namespace

bool register_mujoco_contacts(const std::vector<PeerModel>& models) {
  static std::vector<std::unique_ptr<MjCase>> cases;
  for (const PeerModel& pm : models) {
    auto c = load_checked(pm);
    if (!c) return false;
    const MjCase* cp = c.get();
    benchmark::RegisterBenchmark(("mujoco/sim1s_rk4/" + pm.name).c_str(), [cp](
                                                                              benchmark::State& s) {
      run_contacts(s, *cp);
    })->Unit(benchmark::kMillisecond);
    cases.push_back(std::move(c));
  }
  return true;
}

bool register_mujoco(const std::vector<PeerModel>& models) {
  static std::vector<std::unique_ptr<MjCase>> kept;  // alive until the benchmarks have run
  std::vector<std::unique_ptr<MjCase>> cases;        // this call's (it may be called again)
  for (const PeerModel& pm : models) {
    if (pm.gate_only) continue;  // the coupling gate is Simbody's (CoordinateCoupler)
    auto c = load_checked(pm);
    if (!c) return false;
    cases.push_back(std::move(c));
  }
  std::vector<std::string> ops = {"rnea", "crba", "forward", "inverse", "sim1s_rk4", "sim1s_euler"};
  for (const std::string& op : ops)
    for (const auto& c : cases) {
      if (op.rfind("sim1s", 0) == 0 && !c->pm->simulate) continue;
      if ((op == "rnea" || op == "crba" || op == "inverse") && !c->pm->loops.empty())
        continue;  // trees only
      const MjCase* cp = c.get();
      benchmark::RegisterBenchmark(("mujoco/" + op + "/" + c->pm->name).c_str(),
                                   [cp, op](benchmark::State& s) { run(s, *cp, op); });
    }
  for (auto& c : cases) kept.push_back(std::move(c));
  return true;
}

}  // namespace articula::bench
