#pragma once
// What the sensors of a project (contract-additions-2 §5) read at one state of the mechanism:
// the value columns of the measurement CSV in file order, each sensor's values consecutive
// ("<sensor>" for one value, "<sensor>[i]" for several), and their standard deviations.
// Producers: simulate --sensors-out (along a simulated run) and the estimator (at its estimate).
#include <random>
#include <string>
#include <vector>

#include "core/model/data.hpp"
#include "core/sim/evaluation_stage.hpp"
#include "core/sim/joint_outputs.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

class Simulation;

// Everything a reading depends on. q, qd, qdd: model coordinates (Mechanism::model()); joints
// and wrench: per user joint, as JointOutputs gives them (wrench [moment; force] in the child
// joint frame, the CSV's J.Mx..J.Fz).
struct SensorState {
  const VecX& q;
  const VecX& qd;
  const VecX& qdd;
  const std::vector<JointState>& joints;
  const std::vector<Force>& wrench;
};

class SensorModel {
 public:
  explicit SensorModel(const Mechanism& mech);  // the mechanism must outlive the model

  int size() const { return static_cast<int>(columns_.size()); }  // value columns
  const std::vector<std::string>& columns() const { return columns_; }
  const VecX& sigma() const { return sigma_; }  // per column, the sensor's σ
  // Per column: the sensor (index into spec.sensors) it belongs to.
  const std::vector<int>& sensor_of_column() const { return sensor_; }
  // Number of values sensor s reads (encoder: its joint's nq; gyro, accelerometer, position: 3).
  int values(int s) const;

  // All columns at the state; out is resized.
  void read(const SensorState& state, VecX& out);
  // At a simulation's last evaluate().
  void read(const Simulation& sim, VecX& out);
  // How far a simulation must be evaluated for read(sim): Full with a load cell (joint wrenches),
  // Acceleration with an accelerometer (q̈), else Motion (encoders, gyros, positions).
  EvaluationStage stage() const { return stage_; }

 private:
  Vec3 point_in_model(int body, const Vec3& p) const;  // user body coordinates -> model body
  Mat3 user_axes(int body) const;  // columns: the user body's axes in model body coordinates

  const Mechanism& mech_;
  Data data_;
  std::vector<std::string> columns_;
  std::vector<int> sensor_;
  VecX sigma_;
  EvaluationStage stage_ = EvaluationStage::Motion;
};

// Gaussian noise with each column's σ from a seeded generator (std::mt19937_64): the same seed
// gives the same noise on the same standard library.
class SensorNoise {
 public:
  SensorNoise(const VecX& sigma, unsigned long long seed) : sigma_(sigma), rng_(seed) {}
  void add(VecX& values);

 private:
  VecX sigma_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

}  // namespace articula
