#pragma once
// Benchmark models and inputs, shared by the Articula benchmarks and the peer-engine benchmarks.
// Everything here is deterministic: the same seed gives the same model and the same state.
#include <string>
#include <vector>

#include "core/model/model.hpp"

namespace articula::bench {

// KUKA LBR iiwa 14: 7 revolute joints, Drake's iiwa14_no_collision.urdf parameters.
Model make_iiwa14();
// n revolute links: solid aluminium rods 0.1 m long (0.34 kg), pseudo-random joint axes.
Model make_chain(int n, unsigned seed = 42);
// nb revolute bodies in a binary tree: parent(i) = i / 2 (body 1 on the base).
Model make_binary_tree(int nb, unsigned seed = 43);

struct NamedModel {
  std::string name;
  Model model;
};
// chain7 (iiwa14), chain30, chain100, tree31 in that order.
std::vector<NamedModel> benchmark_models();

// Inputs of one benchmark call: q random (random_configuration), qd, qdd, tau uniform in
// [-1, 1], and fd (NB+1 entries) with the odd-numbered joints forward-dynamics (half of them).
struct BenchInput {
  VecX q, qd, qdd, tau;
  std::vector<bool> fd;
};
BenchInput make_input(const Model& model, unsigned seed = 7);

}  // namespace articula::bench
