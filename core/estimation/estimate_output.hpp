#pragma once
// The estimate as CSV (contract-additions-2 §5): the simulate columns (csv_header) at the knots,
// recomputed by the simulation at the estimated state and forces, then the posterior standard
// deviations: J.q_sigma and J.qd_sigma for every user joint (indexed like J.q for several
// coordinates; loop joints and dependent coordinates by first-order propagation of the knot's
// covariance through the position and velocity solves), and J.tau_sigma for unknown drives.
#include <ostream>
#include <string>
#include <vector>

#include "core/estimation/smoother.hpp"

namespace articula {

std::vector<std::string> estimate_header(const Mechanism& mech);
void write_estimate(StateSpace& space, const SmoothedMotion& est, std::ostream& out);

}  // namespace articula
