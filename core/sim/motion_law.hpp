#pragma once
// Motion laws of mechanism design for motion drives, with exact first and second derivatives:
// constant velocity, harmonic, periodic rise-dwell-return-dwell with cycloidal, 3-4-5 polynomial or
// simple-harmonic profiles, and cubic splines through (t, q) points. In a project file:
//   "drive": {"type": "motion", "law": {"type": "cycloidal", ...}}   (instead of "q": EXPR)
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/sim/expression.hpp"

namespace articula {

// A bad law description: `field` is relative to the law object ("rise", "points/3").
struct MotionLawError : std::runtime_error {
  MotionLawError(std::string field_, const std::string& problem)
      : std::runtime_error(problem), field(std::move(field_)) {}
  std::string field;
};

class MotionLaw {
 public:
  enum class Kind { ConstantVelocity, Harmonic, RiseDwellReturn, Spline };
  enum class Profile { Cycloidal, Polynomial345, Harmonic };

  // Throws MotionLawError. Accepted "type" values: constant_velocity, harmonic,
  // rise_dwell_return, spline.
  static MotionLaw from_json(const nlohmann::json& j);
  TimeJet eval(double t) const;
  Kind kind() const { return kind_; }

 private:
  TimeJet eval_rdr(double t) const;
  TimeJet eval_spline(double t) const;
  void fit_spline(const std::string& end);

  Kind kind_ = Kind::ConstantVelocity;
  Profile profile_ = Profile::Cycloidal;
  // constant_velocity: q = start + velocity t; harmonic: offset + amplitude sin(2π f t + phase)
  double start_ = 0, velocity_ = 0, offset_ = 0, amplitude_ = 0, frequency_ = 0, phase_ = 0;
  // rise_dwell_return: from low to high in `rise`, hold `dwell`, back in `ret`, hold `dwell_low`
  double low_ = 0, high_ = 0, rise_ = 0, dwell_ = 0, ret_ = 0, dwell_low_ = 0;
  // spline: knots, values, second derivatives; periodic splines repeat
  std::vector<double> t_, y_, m_;
  bool periodic_ = false;
};

}  // namespace articula
