#include "core/model/configuration.hpp"

#include <numbers>

namespace articula {

VecX neutral_configuration(const Model& model) {
  VecX q(model.nq);
  for (int i = 1; i <= model.nb; ++i) joint_neutral(model.joints[i], q.data() + model.q_index[i]);
  return q;
}

void integrate_in_place(const Model& model, VecX& q, const VecX& v, double dt) {
  for (int i = 1; i <= model.nb; ++i) {
    double* qi = q.data() + model.q_index[i];
    joint_integrate(model.joints[i], qi, v.data() + model.v_index[i], dt, qi);
  }
}

VecX integrate(const Model& model, const VecX& q, const VecX& v, double dt) {
  VecX out = q;
  integrate_in_place(model, out, v, dt);
  return out;
}

VecX difference(const Model& model, const VecX& q1, const VecX& q0) {
  VecX v(model.nv);
  for (int i = 1; i <= model.nb; ++i)
    joint_difference(model.joints[i], q1.data() + model.q_index[i], q0.data() + model.q_index[i],
                     v.data() + model.v_index[i]);
  return v;
}

VecX q_dot(const Model& model, const VecX& q, const VecX& v) {
  VecX out(model.nq);
  for (int i = 1; i <= model.nb; ++i)
    joint_q_dot(model.joints[i], q.data() + model.q_index[i], v.data() + model.v_index[i],
                out.data() + model.q_index[i]);
  return out;
}

void normalize(const Model& model, VecX& q) {
  for (int i = 1; i <= model.nb; ++i) joint_normalize(model.joints[i], q.data() + model.q_index[i]);
}

VecX random_configuration(const Model& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::normal_distribution<double> gauss;
  VecX q(model.nq);
  for (int i = 1; i <= model.nb; ++i) {
    const Joint& j = model.joints[i];
    double* qi = q.data() + model.q_index[i];
    auto random_quat = [&](double* w) {
      Quat r(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
      r.normalize();
      w[0] = r.w();
      w[1] = r.x();
      w[2] = r.y();
      w[3] = r.z();
    };
    switch (j.type) {
      case JointType::Prismatic:
        qi[0] = unit(rng);
        break;
      case JointType::Cylindrical:
        qi[0] = angle(rng);
        qi[1] = unit(rng);
        break;
      case JointType::Planar:
        qi[0] = angle(rng);
        qi[1] = unit(rng);
        qi[2] = unit(rng);
        break;
      case JointType::Spherical:
        random_quat(qi);
        break;
      case JointType::Free:
        for (int k = 0; k < 3; ++k) qi[k] = unit(rng);
        random_quat(qi + 3);
        break;
      default:
        for (int k = 0; k < j.nq(); ++k) qi[k] = angle(rng);
    }
  }
  return q;
}

}  // namespace articula
