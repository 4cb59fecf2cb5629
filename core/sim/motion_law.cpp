#include "core/sim/motion_law.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace articula {

namespace {
using nlohmann::json;

double number(const json& j, const char* key, bool required = true, double fallback = 0.0) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (required) throw MotionLawError(key, "required field is missing");
    return fallback;
  }
  if (!it->is_number() || !std::isfinite(it->get<double>()))
    throw MotionLawError(key, "expected a finite number");
  return it->get<double>();
}

double positive(const json& j, const char* key, bool allow_zero) {
  const double x = number(j, key);
  if (x < 0 || (!allow_zero && x == 0))
    throw MotionLawError(key, allow_zero ? "must not be negative" : "must be positive");
  return x;
}

// Normalised rise s(u), s(0) = 0, s(1) = 1, with ds/du and d²s/du².
TimeJet profile_at(MotionLaw::Profile p, double u) {
  switch (p) {
    case MotionLaw::Profile::Cycloidal:
      return {u - std::sin(2 * std::numbers::pi * u) / (2 * std::numbers::pi),
              1 - std::cos(2 * std::numbers::pi * u),
              2 * std::numbers::pi * std::sin(2 * std::numbers::pi * u)};
    case MotionLaw::Profile::Polynomial345: {
      const double u2 = u * u, u3 = u2 * u;
      return {u3 * (10 - 15 * u + 6 * u2), 30 * u2 * (1 - 2 * u + u2),
              60 * u * (1 - 3 * u + 2 * u2)};
    }
    case MotionLaw::Profile::Harmonic:
      return {0.5 * (1 - std::cos(std::numbers::pi * u)),
              0.5 * std::numbers::pi * std::sin(std::numbers::pi * u),
              0.5 * std::numbers::pi * std::numbers::pi * std::cos(std::numbers::pi * u)};
  }
  return {};
}
}  // namespace

MotionLaw MotionLaw::from_json(const json& j) {
  if (!j.is_object()) throw MotionLawError("", "expected an object");
  const auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string())
    throw MotionLawError("type", "required string is missing");
  const std::string type = *type_it;
  MotionLaw law;
  if (type == "constant_velocity") {
    law.kind_ = Kind::ConstantVelocity;
    law.start_ = number(j, "start", false);
    law.velocity_ = number(j, "velocity");
  } else if (type == "harmonic") {
    law.kind_ = Kind::Harmonic;
    law.offset_ = number(j, "offset", false);
    law.amplitude_ = number(j, "amplitude");
    law.frequency_ = positive(j, "frequency", false);
    law.phase_ = number(j, "phase", false);
  } else if (type == "rise_dwell_return") {
    law.kind_ = Kind::RiseDwellReturn;
    const std::string profile = j.value("profile", std::string("cycloidal"));
    if (profile == "cycloidal")
      law.profile_ = Profile::Cycloidal;
    else if (profile == "polynomial_345")
      law.profile_ = Profile::Polynomial345;
    else if (profile == "harmonic")
      law.profile_ = Profile::Harmonic;
    else
      throw MotionLawError("profile", "unknown profile '" + profile +
                                          "' (known: cycloidal, polynomial_345, harmonic)");
    law.low_ = number(j, "low", false);
    law.high_ = number(j, "high");
    law.rise_ = positive(j, "rise", false);
    law.dwell_ = positive(j, "dwell", true);
    law.ret_ = positive(j, "return", false);
    law.dwell_low_ = positive(j, "dwell_low", true);
  } else if (type == "spline") {
    law.kind_ = Kind::Spline;
    const auto pts = j.find("points");
    if (pts == j.end() || !pts->is_array() || pts->size() < 2)
      throw MotionLawError("points", "expected an array of at least two [t, q] pairs");
    for (std::size_t i = 0; i < pts->size(); ++i) {
      const json& p = (*pts)[i];
      const std::string field = "points/" + std::to_string(i);
      if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number())
        throw MotionLawError(field, "expected [t, q]");
      if (!law.t_.empty() && !(p[0].get<double>() > law.t_.back()))
        throw MotionLawError(field, "times must increase strictly");
      law.t_.push_back(p[0]);
      law.y_.push_back(p[1]);
    }
    law.fit_spline(j.value("end", std::string("natural")));
  } else {
    throw MotionLawError("type",
                         "unknown motion law '" + type +
                             "' (known: constant_velocity, harmonic, rise_dwell_return, spline)");
  }
  return law;
}

void MotionLaw::fit_spline(const std::string& end) {
  // Second derivatives M of the cubic spline: the standard tridiagonal moment equations.
  const int n = static_cast<int>(t_.size());
  if (end != "natural" && end != "clamped" && end != "periodic")
    throw MotionLawError("end",
                         "unknown end condition '" + end + "' (known: natural, clamped, periodic)");
  periodic_ = end == "periodic";
  if (periodic_ && (n < 3 || y_.front() != y_.back()))
    throw MotionLawError("points",
                         "a periodic spline needs at least 3 points and equal first and last q");
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
  auto h = [&](int i) { return t_[i + 1] - t_[i]; };
  auto slope = [&](int i) { return (y_[i + 1] - y_[i]) / h(i); };
  for (int i = 1; i < n - 1; ++i) {
    A(i, i - 1) = h(i - 1);
    A(i, i) = 2 * (h(i - 1) + h(i));
    A(i, i + 1) = h(i);
    b(i) = 6 * (slope(i) - slope(i - 1));
  }
  if (end == "natural") {
    A(0, 0) = A(n - 1, n - 1) = 1;
  } else if (end == "clamped") {  // zero slope at both ends
    A(0, 0) = 2 * h(0);
    A(0, 1) = h(0);
    b(0) = 6 * slope(0);
    A(n - 1, n - 2) = h(n - 2);
    A(n - 1, n - 1) = 2 * h(n - 2);
    b(n - 1) = -6 * slope(n - 2);
  } else {  // periodic: M_0 = M_{n-1}, slope continuous across the wrap
    A(0, n - 2) = h(n - 2);
    A(0, 0) = 2 * (h(n - 2) + h(0));
    A(0, 1) = h(0);
    b(0) = 6 * (slope(0) - slope(n - 2));
    A(n - 1, 0) = -1;
    A(n - 1, n - 1) = 1;
  }
  const Eigen::VectorXd M = A.partialPivLu().solve(b);
  m_.assign(M.data(), M.data() + n);
}

TimeJet MotionLaw::eval(double t) const {
  switch (kind_) {
    case Kind::ConstantVelocity:
      return {start_ + velocity_ * t, velocity_, 0.0};
    case Kind::Harmonic: {
      const double w = 2 * std::numbers::pi * frequency_, a = w * t + phase_;
      return {offset_ + amplitude_ * std::sin(a), amplitude_ * w * std::cos(a),
              -amplitude_ * w * w * std::sin(a)};
    }
    case Kind::RiseDwellReturn:
      return eval_rdr(t);
    case Kind::Spline:
      return eval_spline(t);
  }
  return {};
}

TimeJet MotionLaw::eval_rdr(double t) const {
  const double period = rise_ + dwell_ + ret_ + dwell_low_;
  double tau = std::fmod(t, period);
  if (tau < 0) tau += period;
  const double h = high_ - low_;
  if (tau < rise_) {
    const TimeJet s = profile_at(profile_, tau / rise_);
    return {low_ + h * s.value, h * s.d1 / rise_, h * s.d2 / (rise_ * rise_)};
  }
  tau -= rise_;
  if (tau < dwell_) return {high_, 0, 0};
  tau -= dwell_;
  if (tau < ret_) {
    const TimeJet s = profile_at(profile_, tau / ret_);
    return {high_ - h * s.value, -h * s.d1 / ret_, -h * s.d2 / (ret_ * ret_)};
  }
  return {low_, 0, 0};
}

TimeJet MotionLaw::eval_spline(double t) const {
  const double t0 = t_.front(), t1 = t_.back();
  if (periodic_) {
    t = t0 + std::fmod(t - t0, t1 - t0);
    if (t < t0) t += t1 - t0;
  }
  // Outside the knots a non-periodic spline continues as a straight line (no velocity jump).
  const bool before = t<t0, after = t> t1;
  const double tc = std::clamp(t, t0, t1);
  const int i =
      std::clamp(static_cast<int>(std::upper_bound(t_.begin(), t_.end(), tc) - t_.begin()) - 1, 0,
                 static_cast<int>(t_.size()) - 2);
  const double h = t_[i + 1] - t_[i];
  const double a = (t_[i + 1] - tc) / h, b = (tc - t_[i]) / h;
  TimeJet s;
  s.value = a * y_[i] + b * y_[i + 1] +
            ((a * a * a - a) * m_[i] + (b * b * b - b) * m_[i + 1]) * h * h / 6;
  s.d1 = (y_[i + 1] - y_[i]) / h - (3 * a * a - 1) / 6 * h * m_[i] +
         (3 * b * b - 1) / 6 * h * m_[i + 1];
  s.d2 = a * m_[i] + b * m_[i + 1];
  if (before || after) {
    s.value += s.d1 * (t - tc);
    s.d2 = 0.0;
  }
  return s;
}

}  // namespace articula
