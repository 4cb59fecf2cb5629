#pragma once
// The design report of contract-additions-2 §4 (`articula-cli report`, `project.report()` in
// Python): a simulation, and from its samples, per drive:
//   peak_force     max |τ| over the samples (τ = the joint's CSV column J.tau: the drive's force,
//                  plus a spring's on that joint if it has one), N or N m;
//   rms_force      sqrt((1/T) ∫ τ² dt), the integral by the trapezoid rule over the samples
//                  (time-weighted, so a shorter last step counts for less);
//   peak_power     max |τ q̇| over the samples, W;
//   positive_work  ∫ max(P, 0) dt and negative_work ∫ min(P, 0) dt (≤ 0) for P = τ q̇, on the
//                  piecewise-linear interpolant of P through the samples (the trapezoid rule,
//                  split exactly at sign changes): their sum is the trapezoid of P, J;
//   reflected_inertia {t, value} at every sample (design_inertia.hpp; null where infinite);
// per point (--point NAME=BODY@x,y,z, the point in BODY's frame): apparent_mass (3 x 3,
// row-major, world axes, kg, at t = 0; design_inertia.hpp for the constrained directions, also
// written as apparent_mass_inverse and constrained_directions) and path (world positions, one
// [x, y, z] per sample); per four-bar-like loop joint (transmission_angle.hpp):
// transmission_angle {t, value} in rad. Top-level "t" lists the sample times.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/sim/runner.hpp"

namespace articula {

struct ReportPoint {
  std::string name;
  std::string body;           // a body's name, or "ground"
  Vec3 point = Vec3::Zero();  // in that body's frame, m
  std::string source;         // how the caller wrote it, for messages (e.g. "--point ...")
};

// "NAME=BODY@x,y,z". Throws std::invalid_argument("--point TEXT: problem") when malformed.
ReportPoint parse_report_point(const std::string& text);

// Runs the simulation with `opt` and returns the report. Throws std::invalid_argument naming the
// point (its `source`) for an unknown body or a repeated name, before simulating (the CLI's exit
// status 2); SetupError when the run fails.
nlohmann::json design_report(const Mechanism& mech, const RunOptions& opt,
                             const std::vector<ReportPoint>& points,
                             const std::function<void(double)>& progress = {});

}  // namespace articula
