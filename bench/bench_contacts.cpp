// Contact benchmarks (issue 16): one simulated second of the Strandbeest walker and the cam
// follower from their assembled states, drives kept, RK4 at 1 ms with events located, as
// articula/sim1s_rk4/<model>; counters loop_error (largest over the run), penetration (deepest
// sphere below its surface, m) and, for the walker, walked (the chassis' advance, m). The
// walker's peer model (planar chassis, loops, feet on the ground, the crank's servo) goes to
// MuJoCo (peer_mujoco.cpp).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "bench/bench_models.hpp"
#include "core/io/project.hpp"
#include "core/sim/simulation.hpp"

namespace articula::bench {

std::vector<BenchMechanism> contact_mechanisms(const std::string& samples_dir) {
  std::vector<BenchMechanism> out;
  const std::pair<const char*, const char*> samples[] = {{"walker", "strandbeest_walker.json"},
                                                         {"cam_follower", "cam_follower.json"}};
  for (const auto& [name, file] : samples)
    out.push_back(
        {name, 1,
         std::make_unique<Mechanism>(prepare(load_project(samples_dir + "/" + file).spec))});
  return out;
}

namespace {
// The user joint whose motion drive the MuJoCo servo follows: the mechanism's only one.
int motion_driven_joint(const Mechanism& mech) {
  int found = -1;
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j) {
    const auto& d = mech.spec.joints[j].drive;
    if (!d || d->kind != DriveSpec::Kind::Motion) continue;
    if (found >= 0 || mech.compiled.joint_map[j].loop)
      throw std::invalid_argument("one motion-driven tree joint expected");
    found = static_cast<int>(j);
  }
  return found;
}
}  // namespace

PeerModel contact_peer_model(const BenchMechanism& bm, const BenchInput& in) {
  const Mechanism& mech = *bm.mech;
  PeerModel pm = peer_model(bm, in);
  for (const Unilateral& u : bind_unilaterals(mech)) {
    if (u.kind != Unilateral::Kind::Contact || u.cam || u.slot()) continue;
    if (u.surface != 0) throw std::invalid_argument(bm.name + ": contacts on the ground only");
    if (u.plane_point.norm() > 0) throw std::invalid_argument(bm.name + ": ground through 0");
    pm.contacts.push_back({u.body,
                           {u.point.x(), u.point.y(), u.point.z()},
                           u.radius,
                           mech.spec.contacts[u.contact].friction});
    pm.ground_normal = {u.normal.x(), u.normal.y(), u.normal.z()};
  }
  const int motor = motion_driven_joint(mech);
  if (motor < 0) throw std::invalid_argument(bm.name + ": no motion drive");
  pm.motor_q = mech.compiled.q_index(motor);
  pm.motor_speed = mech.qd0[mech.compiled.v_index(motor)];  // a constant-rate law
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j)
    if (mech.spec.joints[j].joint.type == JointType::Planar && !mech.compiled.joint_map[j].loop)
      pm.forward_q = mech.compiled.q_index(static_cast<int>(j)) + 1;  // [θ, x, y]: x
  return pm;
}

namespace {
void run_contact_sim(benchmark::State& s, const BenchMechanism& bm) {
  double loop = 0, depth = 0, walked = 0;
  int forward_q = -1;
  for (std::size_t j = 0; j < bm.mech->spec.joints.size(); ++j)
    if (bm.mech->spec.joints[j].joint.type == JointType::Planar)
      forward_q = bm.mech->compiled.q_index(static_cast<int>(j)) + 1;
  try {
    for (auto _ : s) {
      s.PauseTiming();
      Simulation sim(*bm.mech);
      loop = depth = 0;
      s.ResumeTiming();
      for (int k = 1; k <= 1000; ++k) {
        sim.step(1e-3, Integrator::RK4);
        if (k % 10) continue;
        s.PauseTiming();  // every 10 ms, outside the timing: loop error and gaps
        sim.evaluate();
        loop = std::max(loop, sim.loop_error());
        for (double g : sim.gaps()) depth = std::max(depth, -g);
        s.ResumeTiming();
      }
      if (forward_q >= 0) walked = sim.q()[forward_q] - bm.mech->q0[forward_q];
    }
  } catch (const std::exception& e) {
    s.SkipWithError(e.what());
    return;
  }
  s.counters["loop_error"] = loop;
  s.counters["penetration"] = depth;
  if (forward_q >= 0) s.counters["walked"] = walked;
}
}  // namespace

void register_contact_benchmarks(const std::vector<BenchMechanism>& models) {
  for (const BenchMechanism& bm : models) {
    const BenchMechanism* p = &bm;
    benchmark::RegisterBenchmark(("articula/sim1s_rk4/" + bm.name).c_str(),
                                 [p](benchmark::State& s) { run_contact_sim(s, *p); })
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace articula::bench
