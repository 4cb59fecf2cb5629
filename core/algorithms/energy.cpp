#include "core/algorithms/energy.hpp"

#include "core/algorithms/kinematics.hpp"

namespace articula {

double kinetic_energy(const Model& model, const Data& data) {
  double T = 0.0;
  for (int i = 1; i <= model.nb; ++i) T += 0.5 * data.v[i].dot(model.inertia[i] * data.v[i]);
  return T;
}

double potential_energy(const Model& model, const Data& data) {
  const Vec3 g = model.gravity();
  double V = 0.0;
  for (int i = 1; i <= model.nb; ++i) {
    const RigidBodyInertia& I = model.inertia[i];
    if (I.m == 0.0) continue;
    V -= I.m * g.dot(point_position(data, i, I.com()));
  }
  return V;
}

Force spatial_momentum(const Model& model, const Data& data) {
  Force h = Force::Zero();
  for (int i = 1; i <= model.nb; ++i) h += data.X0[i].transpose_apply(model.inertia[i] * data.v[i]);
  return h;
}

double total_mass(const Model& model) {
  double m = 0.0;
  for (int i = 1; i <= model.nb; ++i) m += model.inertia[i].m;
  return m;
}

Vec3 center_of_mass(const Model& model, const Data& data) {
  Vec3 mc = Vec3::Zero();
  for (int i = 1; i <= model.nb; ++i) {
    const RigidBodyInertia& I = model.inertia[i];
    if (I.m > 0.0) mc += I.m * point_position(data, i, I.com());
  }
  const double m = total_mass(model);
  return m > 0 ? Vec3(mc / m) : Vec3::Zero();
}

}  // namespace articula
