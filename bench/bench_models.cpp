#include "bench/bench_models.hpp"

#include <numbers>
#include <random>

#include "core/model/configuration.hpp"

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
