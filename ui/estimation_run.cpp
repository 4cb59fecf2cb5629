#include "ui/estimation_run.hpp"

#include <QElapsedTimer>
#include <QThread>
#include <cmath>
#include <limits>

#include "core/estimation/parameters.hpp"
#include "core/estimation/state_space.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const JointSpec* jointNamed(const MechanismSpec& spec, const std::string& name) {
  for (const JointSpec& j : spec.joints)
    if (j.name == name) return &j;
  return nullptr;
}

// The SI unit of a sensor's values (an encoder's: its joint's coordinate; empty when the joint
// mixes rotation and translation).
QString sensorUnit(const MechanismSpec& spec, const SensorSpec& s) {
  using T = SensorSpec::Type;
  switch (s.type) {
    case T::Encoder: {
      const JointSpec* j = jointNamed(spec, s.joint);
      if (!j) return {};
      if (j->joint.type == JointType::Prismatic) return QStringLiteral("m");
      return j->joint.nq() == 1 ? QStringLiteral("rad") : QString();
    }
    case T::Gyro:
      return QStringLiteral("rad/s");
    case T::Accelerometer:
      return QStringLiteral("m/s²");
    case T::Position:
      return QStringLiteral("m");
    case T::LoadCell:
      return s.component < 3 ? QStringLiteral("N") : QStringLiteral("N·m");
  }
  return {};
}

// The sensor readings at knot k's (x, u): q starts from the knot's coordinates (the branch).
VecX readingsAt(StateSpace& space, const SmoothedMotion& est, std::size_t k, const VecX& xu) {
  VecX q = est.q[k];
  VecX h;
  space.sensors().read(space.place(est.t[static_cast<Eigen::Index>(k)], xu, q), h);
  return h;
}

// Per sensor column at knot k: the reading at the estimate and its σ, sqrt(diag(J Σ Jᵀ)) with J
// by central differences over (x, u) (step 1e-6 relative: the sensor model is smooth there, and
// the truncation error, ~1e-12, is far below any σ).
void knotReadings(StateSpace& space, const SmoothedMotion& est, std::size_t k, VecX& h,
                  VecX& sigma) {
  const VecX& xu = est.xu[k];
  h = readingsAt(space, est, k, xu);
  MatX J(h.size(), xu.size());
  for (Eigen::Index j = 0; j < xu.size(); ++j) {
    const double d = 1e-6 * (1.0 + std::abs(xu[j]));
    VecX v = xu;
    v[j] += d;
    const VecX plus = readingsAt(space, est, k, v);
    v[j] -= 2 * d;
    J.col(j) = (plus - readingsAt(space, est, k, v)) / (2 * d);
  }
  sigma = (J * est.cov[k] * J.transpose()).diagonal().cwiseMax(0.0).cwiseSqrt();
}

void resizeSeries(EstimateSeries& s, std::size_t n, bool measured) {
  s.t.resize(n);
  s.estimate.resize(n);
  s.sigma.resize(n);
  if (measured) s.measured.resize(n);
}
}  // namespace

EstimateResult estimate_series(StateSpace& space, const MeasurementLog& log,
                               const SmoothedMotion& est) {
  const MechanismSpec& spec = space.mechanism().spec;
  const SensorModel& sensors = space.sensors();
  const std::size_t n = est.xu.size();
  EstimateResult out;
  out.iterations = est.iterations;
  out.cost = est.cost;
  for (int c = 0; c < sensors.size(); ++c) {
    EstimateSeries s;
    s.name = QString::fromStdString(sensors.columns()[c]);
    s.unit = sensorUnit(spec, spec.sensors[sensors.sensor_of_column()[c]]);
    resizeSeries(s, n, true);
    out.sensors.push_back(std::move(s));
  }
  for (int u = 0; u < space.nu(); ++u) {
    const JointSpec& j = spec.joints[space.unknown_joints()[u]];
    EstimateSeries s;
    s.name = QString::fromStdString(j.name) + ".tau";
    s.unit = j.joint.type == JointType::Prismatic ? QStringLiteral("N") : QStringLiteral("N·m");
    resizeSeries(s, n, false);
    out.drives.push_back(std::move(s));
  }
  VecX h, sigma;
  for (std::size_t k = 0; k < n; ++k) {
    const auto row = static_cast<Eigen::Index>(k);
    knotReadings(space, est, k, h, sigma);
    for (int c = 0; c < sensors.size(); ++c) {
      EstimateSeries& s = out.sensors[c];
      s.t[k] = log.t[row];
      s.measured[k] = log.present(row, c) != 0.0 ? log.values(row, c) : kNaN;
      s.estimate[k] = h[c];
      s.sigma[k] = sigma[c];
    }
    for (int u = 0; u < space.nu(); ++u) {
      EstimateSeries& s = out.drives[u];
      const int i = space.nx() + u;
      s.t[k] = log.t[row];
      s.estimate[k] = est.xu[k][i];
      s.sigma[k] = std::sqrt(std::max(0.0, est.cov[k](i, i)));
    }
  }
  return out;
}

namespace {
// The motion's first n rows (the first log's, when several were identified at once).
void first_rows(SmoothedMotion& m, Eigen::Index n) {
  const auto rows = static_cast<std::size_t>(n);
  m.t.conservativeResize(n);
  m.xu.resize(rows);
  m.cov.resize(rows);
  m.q.resize(rows);
}
}  // namespace

EstimationRun::EstimationRun(std::shared_ptr<const Mechanism> mech, MeasurementLog log,
                             EstimatorOptions opt, int window, QObject* parent,
                             std::vector<std::string> parameters)
    : QObject(parent),
      mech_(std::move(mech)),
      log_(std::move(log)),
      opt_(std::move(opt)),
      window_(window),
      parameters_(std::move(parameters)) {}

EstimationRun::~EstimationRun() {
  if (thread_) {
    cancel_ = true;
    thread_->wait();
  }
}

void EstimationRun::start() {
  opt_.progress = [this](int iterations, double rows_done) {
    iterations_ = iterations;
    rows_done_ = rows_done;
    return !cancel_;
  };
  thread_ = QThread::create([this] { work(); });
  thread_->setParent(this);
  connect(thread_, &QThread::finished, this, &EstimationRun::finished);  // queued: GUI thread
  thread_->start();
}

bool EstimationRun::isRunning() const {
  return thread_ && thread_->isRunning();
}

void EstimationRun::work() {
  QElapsedTimer clock;
  clock.start();
  try {
    if (!parameters_.empty()) {
      ParameterModel model(mech_->spec, parameters_);
      std::vector<MeasurementLog> logs{log_};
      logs.insert(logs.end(), more_logs_.begin(), more_logs_.end());
      Identified id = identify(model, logs, opt_);
      if (cancel_) throw EstimationCancelled();
      first_rows(id.motion, log_.t.size());  // the motion holds every log's rows in turn
      result_ = estimate_series(model.at(id.values), log_, id.motion);
      for (int i = 0; i < model.size(); ++i) {
        result_.parameters.push_back(id.values[i]);
        result_.parameter_sigma.push_back(std::sqrt(std::max(0.0, id.cov(i, i))));
      }
      result_.seconds = clock.elapsed() * 1e-3;
      return;
    }
    StateSpace space(*mech_);
    const SmoothedMotion est = window_ > 0 ? smooth_fixed_lag(space, log_, opt_, window_)
                                           : smooth_batch(space, log_, opt_);
    if (cancel_) throw EstimationCancelled();
    result_ = estimate_series(space, log_, est);
    result_.seconds = clock.elapsed() * 1e-3;
  } catch (const EstimationCancelled&) {
    was_cancelled_ = true;
    error_ = tr("cancelled");
  } catch (const std::exception& e) {
    error_ = QString::fromStdString(e.what());
  }
}

}  // namespace articula
