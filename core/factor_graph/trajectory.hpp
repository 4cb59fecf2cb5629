#pragma once
// Trajectory inverse dynamics (Blanco-Claraco et al. §5.3 and §7.2): a desired motion of the
// driven coordinates, given as samples at t_k = k h (from a law, a spline or measured points,
// possibly noisy), is smoothed over the whole time span by a batch factor graph — per step the
// coordinate z_k, its rate ż_k and acceleration z̈_k; prior factors z_k = z̄_k and trapezoidal
// integration factors z_{k+1} - z_k - h/2 (ż_k + ż_{k+1}) and ż_{k+1} - ż_k - h/2 (z̈_k + z̈_{k+1})
// (§6.3) — and the actuator forces follow at every step from the instant dynamics graph at the
// smoothed motion, the other coordinates from the position and velocity problems (assembly and
// velocity projection with the driven coordinates held). The paper's single batch graph has the
// same solution: its dynamics factors are the only ones with the forces, one per step, and can
// always be met by them, so they do not move the motion; solving them per step is exact.
#include <optional>
#include <string>
#include <vector>

#include "core/factor_graph/dynamics_graph.hpp"
#include "core/sim/mechanism.hpp"

namespace articula::fg {

struct SmootherOptions {
  double sigma_prior = 0.0;         // σ of the prior factors on z_k; 0: hard (exact samples)
  double sigma_integration = 1e-3;  // σ of the trapezoidal factors (the paper's Table 2)
  // > 0: a smoothness prior z̈_{k+1} - z̈_k = 0 (white-noise jerk, as in Gaussian-process motion
  // priors). The trapezoidal factors alone leave an alternating mode of z̈ free (+a, -a, ...
  // integrates to nothing), which this removes; a large σ barely biases a smooth motion.
  double sigma_jerk = 0.0;
  std::optional<double> zd0, zdd0;  // known initial rate and acceleration (hard priors)
};

struct SmoothedCoordinate {
  VecX z, zd, zdd;  // per step (N + 1)
};

// The batch smoother of one coordinate: a chain graph eliminated in time order (a
// Rauch-Tung-Striebel smoother, O(N)).
SmoothedCoordinate smooth_coordinate(const VecX& samples, double h, const SmootherOptions& opt);

struct TrajectoryInverseResult {
  VecX t;                             // N + 1 instants
  std::vector<SmoothedCoordinate> z;  // per motion drive
  MatX force;                         // (N + 1) x drives: the actuator forces
  double max_loop_error = 0.0;        // of the assembled positions
};

// A weak smoothness prior for samples at t = k h ((N + 1) x coordinates): 10⁶ times the largest
// change of acceleration per step they show (third differences / h²), at least 1. It removes
// the alternating mode of z̈ the trapezoidal factors leave free while barely biasing the motion
// (on the paper's four-bar, crank torque within 6.1e-7 of its peak of the exact one).
double weak_jerk_sigma(const MatX& samples, double h);

// The names of m's motion-driven joints in Mechanism::drives order: the columns of the samples
// (and of the CLI's targets). Throws SetupError when there is none.
std::vector<std::string> driven_joint_names(const Mechanism& m);

// Options from σs a user gave (CLI or Python): sigma_prior >= 0 (0: hard), sigma_integration > 0,
// sigma_jerk > 0 or unset (then weak_jerk_sigma(samples, h)). Throws std::invalid_argument
// naming the bad value.
SmootherOptions trajectory_options(double sigma_prior, double sigma_integration,
                                   std::optional<double> sigma_jerk, const MatX& samples, double h);

// samples: (N + 1) x (motion drives of m, in Mechanism::drives order; tree joints only). The
// mechanism's drive laws are not used. Throws SetupError when a step cannot be assembled.
TrajectoryInverseResult trajectory_inverse_dynamics(const Mechanism& m, const MatX& samples,
                                                    double h, const SmootherOptions& opt = {},
                                                    EliminationOrder order = EliminationOrder::Aba);

}  // namespace articula::fg
