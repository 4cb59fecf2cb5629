#pragma once
// Shared test fixtures: random trees with every joint type, serial chains, RBDA's examples.
#include <random>
#include <string>
#include <vector>

#include "core/model/model.hpp"
#include "core/sim/mechanism.hpp"
#include "core/spec/mechanism_spec.hpp"

namespace articula::test {

// A random rigid-body inertia with mass in [0.5, 2], a centre of mass within 0.3 of the origin and
// principal moments that satisfy the triangle inequality.
RigidBodyInertia random_inertia(std::mt19937& rng);
// A random placement: uniformly random rotation, translation within [-0.5, 0.5]^3.
Transform random_transform(std::mt19937& rng);
Joint random_joint(std::mt19937& rng, bool allow_fixed = true);

// nb bodies; body i's parent is uniform in [0, i-1] (so the tree branches), every joint type
// appears, gravity is random.
Model random_tree(int nb, std::mt19937& rng, bool allow_fixed = true);
// A free-floating random tree: body 1 is attached to the base by a free joint.
Model random_floating_tree(int nb, std::mt19937& rng);
// Planar revolute chain of n links of length 1, mass 1, centre of mass at mid-length and
// rotational inertia 1/12 (RBDA Fig. 10.3), in the x-y plane.
Model planar_chain(int n);

VecX random_vector(int n, std::mt19937& rng);

// Path of a file in samples/ of the source tree.
std::string sample_path(const std::string& file);
// The project files in samples/ (file names, sorted).
std::vector<std::string> sample_files();
// samples/<file> loaded and prepared (throws what load_project and prepare throw).
Mechanism sample_mechanism(const std::string& file);
// A file's bytes as a string (empty when it cannot be read).
std::string file_contents(const std::string& path);

}  // namespace articula::test
