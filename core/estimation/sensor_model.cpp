#include "core/estimation/sensor_model.hpp"

#include "core/algorithms/kinematics.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

namespace {
using Type = SensorSpec::Type;
}

SensorModel::SensorModel(const Mechanism& mech) : mech_(mech), data_(mech.model()) {
  const MechanismSpec& spec = mech.spec;
  for (std::size_t s = 0; s < spec.sensors.size(); ++s) {
    if (spec.sensors[s].type == Type::LoadCell) stage_ = EvaluationStage::Full;
    if (spec.sensors[s].type == Type::Accelerometer && stage_ != EvaluationStage::Full)
      stage_ = EvaluationStage::Acceleration;
    const int n = values(static_cast<int>(s));
    for (int k = 0; k < n; ++k) {
      columns_.push_back(n == 1 ? spec.sensors[s].name
                                : spec.sensors[s].name + "[" + std::to_string(k) + "]");
      sensor_.push_back(static_cast<int>(s));
    }
  }
  sigma_ = VecX::Zero(static_cast<Eigen::Index>(columns_.size()));
  for (std::size_t c = 0; c < columns_.size(); ++c)
    sigma_[static_cast<Eigen::Index>(c)] = spec.sensors[sensor_[c]].sigma;
}

int SensorModel::values(int s) const {
  const SensorSpec& x = mech_.spec.sensors[s];
  switch (x.type) {
    case Type::Encoder:
      return mech_.spec.joints[mech_.spec.joint_index(x.joint)].joint.nq();
    case Type::LoadCell:
      return 1;
    default:
      return 3;
  }
}

Vec3 SensorModel::point_in_model(int body, const Vec3& p) const {
  const Transform& X = mech_.compiled.X_body[body];  // ^{model body} X_{user body}
  return X.E * (p - X.r);
}

Mat3 SensorModel::user_axes(int body) const {
  return mech_.compiled.X_body[body].E;
}

void SensorModel::read(const SensorState& st, VecX& out) {
  const MechanismSpec& spec = mech_.spec;
  out = VecX::Zero(size());
  forward_kinematics(mech_.model(), data_, st.q, st.qd, st.qdd);
  Eigen::Index c = 0;
  for (const SensorSpec& s : spec.sensors) {
    const int user_body = s.body.empty() ? -1 : spec.body_index(s.body);
    const int m = user_body < 0 ? 0 : mech_.compiled.model_body[user_body];
    // E maps user body coordinates to model body coordinates; E^T maps back.
    const Mat3 to_user = user_axes(m).transpose();
    switch (s.type) {
      case Type::Encoder: {
        const auto& q = st.joints[spec.joint_index(s.joint)].q;
        out.segment(c, q.size()) = q;
        c += q.size();
        break;
      }
      case Type::LoadCell: {
        const Force& w = st.wrench[spec.joint_index(s.joint)];
        out[c++] = w[s.component < 3 ? s.component + 3 : s.component - 3];
        break;
      }
      case Type::Gyro:
        out.segment<3>(c) = to_user * data_.v[m].head<3>();
        c += 3;
        break;
      case Type::Accelerometer: {
        const Vec3 a = point_acceleration(data_, m, point_in_model(m, s.point)) - spec.gravity;
        out.segment<3>(c) = to_user * (body_rotation(data_, m).transpose() * a);
        c += 3;
        break;
      }
      case Type::Position:
        out.segment<3>(c) = point_position(data_, m, point_in_model(m, s.point));
        c += 3;
        break;
    }
  }
}

void SensorModel::read(const Simulation& sim, VecX& out) {
  read(SensorState{sim.q(), sim.qd(), sim.qdd(), sim.joint_states(), sim.wrench()}, out);
}

void SensorNoise::add(VecX& values) {
  for (Eigen::Index i = 0; i < values.size(); ++i) values[i] += sigma_[i] * normal_(rng_);
}

}  // namespace articula
