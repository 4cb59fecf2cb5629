#include "core/sim/contact/cam_profile.hpp"

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace articula {

namespace {
constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr int kSamples = 720;  // for the checks and the fallback search: 0.5° apart

double wrap(double theta) {
  const double w = std::fmod(theta, kTwoPi);
  return w < 0 ? w + kTwoPi : w;
}

// ρ'' at the knots of the periodic cubic spline through r (equal spacing h): the cyclic system
// M_{i-1} + 4 M_i + M_{i+1} = 6 (r_{i+1} - 2 r_i + r_{i-1}) / h², solved densely (N is small).
std::vector<double> spline_moments(const std::vector<double>& r) {
  const int n = static_cast<int>(r.size());
  const double h = kTwoPi / n;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd b(n);
  for (int i = 0; i < n; ++i) {
    const int prev = (i + n - 1) % n, next = (i + 1) % n;
    A(i, prev) += 1, A(i, i) += 4, A(i, next) += 1;
    b[i] = 6 * (r[next] - 2 * r[i] + r[prev]) / (h * h);
  }
  const Eigen::VectorXd m = A.partialPivLu().solve(b);
  return {m.data(), m.data() + n};
}
}  // namespace

CamProfile CamProfile::from_json(const nlohmann::json& j, const std::string& where) {
  CamProfile c;
  if (j.is_string()) {
    try {
      c.expr_ = Expression::parse(j.get<std::string>(), "theta");
    } catch (const ExpressionError& e) {
      throw CamProfileError(where,
                            std::string(e.what()) + " at position " + std::to_string(e.position));
    }
  } else if (j.is_array()) {
    if (j.size() < 3) throw CamProfileError(where, "a spline profile needs at least 3 radii");
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (!j[i].is_number())
        throw CamProfileError(where + "/" + std::to_string(i), "expected a number");
      c.radii_.push_back(j[i].get<double>());
    }
    c.moments_ = spline_moments(c.radii_);
  } else {
    throw CamProfileError(where, "expected an expression in theta (string) or an array of radii");
  }
  c.check(where);
  return c;
}

CamProfile::Jet CamProfile::radius(double theta) const {
  if (radii_.empty()) {
    const TimeJet j = expr_.eval(theta);
    return {j.value, j.d1, j.d2};
  }
  const int n = static_cast<int>(radii_.size());
  const double h = kTwoPi / n, x = wrap(theta);
  const int i = std::min(static_cast<int>(x / h), n - 1), k = (i + 1) % n;
  const double a = (i + 1) * h - x, b = x - i * h;  // distances to the knots on either side
  const double Mi = moments_[i], Mk = moments_[k];
  const double ci = radii_[i] - Mi * h * h / 6, ck = radii_[k] - Mk * h * h / 6;
  Jet out;
  out.r = (Mi * a * a * a + Mk * b * b * b) / (6 * h) + (ci * a + ck * b) / h;
  out.d1 = (-Mi * a * a + Mk * b * b) / (2 * h) + (ck - ci) / h;
  out.d2 = (Mi * a + Mk * b) / h;
  return out;
}

CamProfile::Point CamProfile::at(double theta) const {
  const Jet r = radius(theta);
  const Eigen::Vector2d e(std::cos(theta), std::sin(theta)), f(-e.y(), e.x());  // f = de/dθ
  return {r.r * e, r.d1 * e + r.r * f, (r.d2 - r.r) * e + 2 * r.d1 * f};
}

double CamProfile::curvature(double theta) const {
  const Jet r = radius(theta);
  const double s = r.r * r.r + r.d1 * r.d1;
  return (s + r.d1 * r.d1 - r.r * r.d2) / (s * std::sqrt(s));
}

// Newton on g(θ) = (P - c)·P', g' = |P'|² + (P - c)·P''; ok when it converges to a minimum.
double CamProfile::newton(const Eigen::Vector2d& c, double theta, double max_step, bool& ok) const {
  ok = false;
  for (int it = 0; it < 60; ++it) {
    const Point P = at(theta);
    const double g = (P.p - c).dot(P.dp), dg = P.dp.squaredNorm() + (P.p - c).dot(P.ddp);
    if (!(dg > 0)) return theta;  // not a minimum's basin
    const double step = std::clamp(g / dg, -max_step, max_step);
    theta -= step;
    if (std::abs(step) < 1e-15 * (1 + std::abs(theta))) {
      ok = true;
      return theta;
    }
  }
  return theta;
}

// Walks the samples (kSamples round) from θ downhill in distance to c: the sampled minimum of
// the basin the centre's polar angle is in, so that Newton then cannot jump to a neighbouring
// tooth (a step of a whole tooth's width found another, farther minimum: issue 16's ratchet).
double CamProfile::descend(const Eigen::Vector2d& c, double theta) const {
  const double h = kTwoPi / kSamples;
  auto dist = [&](double t) { return (at(t).p - c).squaredNorm(); };
  double d = dist(theta);
  for (int it = 0; it < kSamples; ++it) {
    const double up = dist(theta + h), down = dist(theta - h);
    if (!(std::min(up, down) < d)) break;
    theta += up < down ? h : -h;
    d = std::min(up, down);
  }
  return theta;
}

double CamProfile::nearest(const Eigen::Vector2d& c) const {
  bool ok = false;
  const double h = kTwoPi / kSamples;
  const double theta = newton(c, descend(c, std::atan2(c.y(), c.x())), h, ok);
  if (ok) return theta;
  double best = 0, dmin = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kSamples; ++i) {
    const double t = kTwoPi * i / kSamples, d = (at(t).p - c).squaredNorm();
    if (d < dmin) dmin = d, best = t;
  }
  return newton(c, best, h, ok);
}

void CamProfile::check(const std::string& where) {
  min_concave_radius_ = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kSamples; ++i) {
    const double t = kTwoPi * i / kSamples;
    const Jet r = radius(t);
    if (!(r.r > 0) || !std::isfinite(r.r) || !std::isfinite(r.d1) || !std::isfinite(r.d2))
      throw CamProfileError(where, "the radius must be finite and > 0 all round (at theta = " +
                                       std::to_string(t) + " it is " + std::to_string(r.r) + ")");
    if (radii_.empty() && std::abs(radius(t + kTwoPi).r - r.r) > 1e-9 * (1 + std::abs(r.r)))
      throw CamProfileError(
          where, "the radius must repeat every 2 pi (theta = " + std::to_string(t) + ")");
    const double k = curvature(t);
    if (k < 0) min_concave_radius_ = std::min(min_concave_radius_, -1 / k);
  }
}

}  // namespace articula
