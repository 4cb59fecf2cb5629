#pragma once
// Benchmark models and inputs, shared by the Articula benchmarks and the peer-engine benchmarks.
// Everything here is deterministic: the same seed gives the same model and the same state.
#include <memory>
#include <string>
#include <vector>

#include "bench/peer_model.hpp"
#include "core/model/model.hpp"
#include "core/sim/mechanism.hpp"

namespace articula::bench {

// KUKA LBR iiwa 14: 7 revolute joints, Drake's iiwa14_no_collision.urdf parameters.
Model make_iiwa14();
// n revolute links: solid aluminium rods 0.1 m long (0.34 kg), pseudo-random joint axes.
Model make_chain(int n, unsigned seed = 42);
// nb revolute bodies in a binary tree: parent(i) = i / 2 (body 1 on the base).
Model make_binary_tree(int nb, unsigned seed = 43);

// The project-file form of a tree model: one body per model body (frame = joint successor
// frame), joint frames from X_T, so prepare() compiles it back into the same model.
MechanismSpec spec_from_tree(const Model& model, const std::string& name);

struct NamedModel {
  std::string name;
  Model model;
};
// chain7 (iiwa14), chain30, chain100, tree31 in that order.
std::vector<NamedModel> benchmark_models();

// A benchmark mechanism: spanning tree plus loop joints, at an assembled state, drives removed
// (forward dynamics of the passive mechanism under gravity).
struct BenchMechanism {
  std::string name;
  int size = 0;  // links of a chain or tree, loops of a ladder (the x axis of the report's plot)
  std::unique_ptr<Mechanism> mech;  // stable address: simulations keep a reference
  const Model& model() const { return mech->model(); }
  const std::vector<LoopJoint>& loops() const { return mech->compiled.loops; }
};
// chain7, chain30, chain100, tree31, fourbar, slidercrank, stewart, ladder5, ladder20, ladder80,
// fourbar_chain20 (fourbar_chain_mechanism(20)).
// samples_dir holds fourbar.json, slider_crank.json and stewart_platform.json.
std::vector<BenchMechanism> benchmark_mechanisms(const std::string& samples_dir);

// make_fourbar_chain(k) as a benchmark mechanism (fourbar_chain<k>): the solver comparison's
// larger chain, kept out of benchmark_mechanisms (Method 2 takes seconds per simulated second).
BenchMechanism fourbar_chain_mechanism(int k);

// make_hanging_ladder(links, rungs) as a benchmark mechanism (hanging_ladder<bodies>, size =
// bodies): issue 17's scale family, also kept out of benchmark_mechanisms.
BenchMechanism hanging_ladder_mechanism(int links, int rungs);
BenchMechanism hanging_net_mechanism(int rails, int links, int rungs);

// The peer gate's geared mechanism: samples/geared_crank_rocker.json without its drive.
BenchMechanism geared_mechanism(const std::string& samples_dir);

// Inputs of one benchmark call: q random (random_configuration), qd, qdd, tau uniform in
// [-1, 1], and fd (NB+1 entries) with the odd-numbered joints forward-dynamics (half of them).
struct BenchInput {
  VecX q, qd, qdd, tau;
  std::vector<bool> fd;
};
BenchInput make_input(const Model& model, unsigned seed = 7);
// The same for a mechanism with loops: q and qd are the assembled state (consistent with the
// loops), qdd and tau random as above.
BenchInput make_mechanism_input(const BenchMechanism& bm, unsigned seed = 7);

// The plain-data form for the peer engines, with Articula's H and inverse dynamics at `in`.
PeerModel peer_model(const BenchMechanism& bm, const BenchInput& in);
// A gate-only peer model: peer_model plus Articula's passive motion from the assembled state for
// t_end seconds (RK4, 1e-4 s steps), which the peers must reproduce.
PeerModel gate_model(const BenchMechanism& bm, const BenchInput& in, double t_end);

// Contact benchmarks (bench_contacts.cpp): the samples with their drives, walker
// (strandbeest_walker.json) and cam_follower (cam_follower.json).
std::vector<BenchMechanism> contact_mechanisms(const std::string& samples_dir);
// peer_model plus the feet on the ground and the motion-driven crank (the walker; throws for
// contacts other than spheres on the ground plane).
PeerModel contact_peer_model(const BenchMechanism& bm, const BenchInput& in);
void register_contact_benchmarks(const std::vector<BenchMechanism>& models);

}  // namespace articula::bench
