#pragma once
// A disc cam's profile (contract-additions-2 §2, surface type "cam"): a closed planar curve
// P(θ) = ρ(θ) (cos θ, sin θ) about the cam centre, θ measured from the cam body's x axis about
// its z axis, ρ 2π-periodic and > 0. ρ is an expression in `theta` (exact derivatives by
// forward-mode differentiation) or a periodic cubic spline through equally spaced radii.
#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/sim/expression.hpp"

namespace articula {

// A bad profile: where (a JSON pointer, possibly into the radii array) and what is wrong.
struct CamProfileError : std::invalid_argument {
  CamProfileError(const std::string& where_, const std::string& problem_)
      : std::invalid_argument(where_ + ": " + problem_), where(where_), problem(problem_) {}
  std::string where, problem;
};

class CamProfile {
 public:
  // A string is an expression in theta, an array the radii at θ_i = 2π i / N (N >= 3). Throws
  // std::invalid_argument naming the problem (bad expression, ρ <= 0 or not finite somewhere,
  // too few radii) as a CamProfileError at `where` (a JSON pointer).
  static CamProfile from_json(const nlohmann::json& j, const std::string& where);

  struct Jet {
    double r = 0, d1 = 0, d2 = 0;  // ρ, dρ/dθ, d²ρ/dθ²
  };
  Jet radius(double theta) const;
  // The profile point P(θ) and its first two θ-derivatives (cam plane, metres).
  struct Point {
    Eigen::Vector2d p, dp, ddp;
  };
  Point at(double theta) const;
  // θ of the profile point nearest to c (cam plane): from the polar angle of c downhill over the
  // samples, then Newton on (P - c)·P' = 0 within a sample's width; a search over all samples
  // when that does not converge to a minimum.
  double nearest(const Eigen::Vector2d& c) const;
  // Signed curvature at θ (> 0 where convex).
  double curvature(double theta) const;
  // The smallest radius of curvature over the concave parts (infinity for a convex cam): a
  // roller at least this large would touch in two places.
  double min_concave_radius() const { return min_concave_radius_; }

 private:
  void check(const std::string& where);
  double newton(const Eigen::Vector2d& c, double theta, double max_step, bool& ok) const;
  double descend(const Eigen::Vector2d& c, double theta) const;

  Expression expr_;              // when the profile is an expression
  std::vector<double> radii_;    // when it is a spline: ρ at θ_i
  std::vector<double> moments_;  // ... and ρ'' at θ_i (periodic cubic spline)
  double min_concave_radius_ = 0;
};

}  // namespace articula
