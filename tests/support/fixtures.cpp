#include "tests/support/fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/io/project.hpp"
#include "core/spatial/lie.hpp"

namespace articula::test {

std::vector<std::string> sample_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(sample_path("")))
    if (e.path().extension() == ".json") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string sample_path(const std::string& file) {
  return std::string(ARTICULA_SOURCE_DIR) + "/samples/" + file;
}

Mechanism sample_mechanism(const std::string& file) {
  return prepare(load_project(sample_path(file)).spec);
}

std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

VecX random_vector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x(n);
  for (int i = 0; i < n; ++i) x[i] = u(rng);
  return x;
}

static Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
}

RigidBodyInertia random_inertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double m = 0.5 + 1.5 * u(rng);
  // Principal moments from a solid with random semi-axes: always physically valid.
  const Vec3 ax(0.05 + 0.3 * u(rng), 0.05 + 0.3 * u(rng), 0.05 + 0.3 * u(rng));
  const Vec3 p(m / 5 * (ax.y() * ax.y() + ax.z() * ax.z()),
               m / 5 * (ax.x() * ax.x() + ax.z() * ax.z()),
               m / 5 * (ax.x() * ax.x() + ax.y() * ax.y()));
  const Mat3 R = random_rotation(rng);
  const Mat3 Ic = R * p.asDiagonal() * R.transpose();
  const Vec3 c = 0.3 * random_vector(3, rng);
  return RigidBodyInertia::from_mass_com(m, c, Ic);
}

Transform random_transform(std::mt19937& rng) {
  return Transform::from_pose(random_rotation(rng), 0.5 * random_vector(3, rng));
}

Joint random_joint(std::mt19937& rng, bool allow_fixed) {
  std::uniform_int_distribution<int> pick(0, allow_fixed ? 8 : 7);
  const JointType types[] = {JointType::Revolute,    JointType::Prismatic, JointType::Helical,
                             JointType::Cylindrical, JointType::Universal, JointType::Spherical,
                             JointType::Planar,      JointType::Free,      JointType::Fixed};
  Joint j{types[pick(rng)]};
  if (j.type == JointType::Helical)
    j.pitch = 0.05 + 0.1 * std::uniform_real_distribution<>(0, 1)(rng);
  j.reversed = rng() % 2;  // opposite-polarity tree joints (RBDA Table 4.2) appear too
  return j;
}

Model random_tree(int nb, std::mt19937& rng, bool allow_fixed) {
  ModelBuilder b;
  b.set_gravity(9.81 * random_vector(3, rng).normalized());
  for (int i = 1; i <= nb; ++i) {
    const int parent = std::uniform_int_distribution<int>(0, i - 1)(rng);
    // The first nine bodies cycle through every joint type so each tree has all of them.
    Joint j = random_joint(rng, allow_fixed);
    if (i <= 9) {
      const JointType all[] = {JointType::Revolute,    JointType::Prismatic, JointType::Helical,
                               JointType::Cylindrical, JointType::Universal, JointType::Spherical,
                               JointType::Planar,      JointType::Free,      JointType::Fixed};
      j = Joint{all[i - 1], 0.07, i % 2 == 0};
      if (!allow_fixed && j.type == JointType::Fixed) j = Joint::revolute();
    }
    b.add_body("b" + std::to_string(i), parent, j, random_transform(rng), random_inertia(rng));
  }
  return b.build();
}

Model random_floating_tree(int nb, std::mt19937& rng) {
  ModelBuilder b;
  b.set_gravity(Vec3::Zero());
  b.add_body("base", 0, Joint::free(), Transform(), random_inertia(rng));
  for (int i = 2; i <= nb; ++i) {
    const int parent = std::uniform_int_distribution<int>(1, i - 1)(rng);
    b.add_body("b" + std::to_string(i), parent, random_joint(rng, true), random_transform(rng),
               random_inertia(rng));
  }
  return b.build();
}

Model planar_chain(int n) {
  ModelBuilder b;
  b.set_gravity(Vec3::Zero());
  const RigidBodyInertia link = RigidBodyInertia::from_mass_com(
      1.0, Vec3(0.5, 0, 0), Vec3(1.0 / 12, 1.0 / 12, 1.0 / 12).asDiagonal());
  for (int i = 1; i <= n; ++i)
    b.add_body("link" + std::to_string(i), i - 1, Joint::revolute(),
               Transform::xlt(Vec3(i == 1 ? 0.0 : 1.0, 0, 0)), link);
  return b.build();
}

}  // namespace articula::test
