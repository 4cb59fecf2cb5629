#pragma once
// Batch smoothing of a mechanism's motion and unknown drive forces from a measurement log
// (issue 20): a nonlinear least-squares problem over one block (x_k, u_k) per log row (knot),
// solved by Gauss-Newton on its sparse (block-tridiagonal) information matrix. Factors:
// - prior on the first knot: x_0 ~ N(file's initial state, diag(σ_q², σ_q̇²)), u_0 ~ N(0, σ_u0²);
// - dynamics between knots: x_{k+1} = f(x_k, u_k) + w, f Articula's simulation (RK4 at the file's
//   step, u held), w ~ N(0, σ_a² [Δt³/3, Δt²/2; Δt²/2, Δt]) per independent coordinate (white
//   generalized-acceleration noise of density σ_a);
// - unknown forces as a random walk: u_{k+1} - u_k ~ N(0, σ_f² Δt);
// - sensors: y_kc = h_c(x_k, u_k) + v, v ~ N(0, σ_c²) for every cell present in the log, with
//   an optional robust loss (Huber or Cauchy on the normalised residual, by iteratively
//   reweighted least squares).
// Jacobians by central differences of the simulation and sensor model. The posterior covariance
// of every knot is the matching block of the inverse information matrix at the solution
// (Laplace approximation); for a linear-Gaussian system this is the Rauch-Tung-Striebel smoother.
#include <functional>
#include <stdexcept>
#include <vector>

#include "core/estimation/measurement_log.hpp"
#include "core/estimation/state_space.hpp"

namespace articula {

struct EstimatorOptions {
  double accel_sigma = 1.0;        // σ_a, (rad or m)/s² per √Hz
  double force_sigma = 1.0;        // σ_f, (N·m or N) per √s
  double prior_q_sigma = 1.0;      // σ of the prior on θ_0 (rad or m)
  double prior_qd_sigma = 10.0;    // ... on θ̇_0
  double prior_force_sigma = 1e3;  // ... on u_0
  enum class Loss { Squared, Huber, Cauchy };
  Loss loss = Loss::Squared;
  double loss_scale = 3.0;  // where the robust loss departs from the square, in σ of the sensor
  // Fixed-lag only: a knot whose estimate moved by less than this since it was last linearised
  // (largest change of θ, and of θ̇ and u times the row interval; rad or m) keeps that
  // linearisation, first-order from there; the error is of the order of the curvature times
  // this squared, far below the noise (test_consistency compares). 0 relinearises every knot at
  // every iteration (exact Gauss-Newton, several times slower).
  double relinearise = 1e-4;
  int max_iterations = 30;
  double tolerance = 1e-10;  // stop when the step's largest entry is below this
  // Optional, for a front end (the app's Estimate): called after every Gauss-Newton iteration
  // with the iterations so far and the fraction of the log's rows taken in (the batch form and
  // identify take all of them at once: 1). Returning false stops the solve by throwing
  // EstimationCancelled. Called on the solving thread.
  std::function<bool(int iterations, double rows_done)> progress;
};

// Thrown when EstimatorOptions::progress asked to stop.
struct EstimationCancelled : std::runtime_error {
  EstimationCancelled() : std::runtime_error("estimation cancelled") {}
};

struct SmoothedMotion {
  VecX t;                 // knot times (the log's rows)
  std::vector<VecX> xu;   // per knot: θ, θ̇, u
  std::vector<MatX> cov;  // per knot: its nb x nb posterior covariance
  std::vector<VecX> q;    // per knot: the full coordinates (loops closed)
  int iterations = 0;
  int linearisations = 0;  // knots linearised anew, each 1 + 3m + nu placements and steps
  double cost = 0.0;       // ½ Σ ρ(r²) at the solution
};

// The whole log at once. Throws MeasurementError for a log with fewer than 2 rows, SetupError
// when the motion cannot be followed (loops that cannot be closed).
SmoothedMotion smooth_batch(StateSpace& space, const MeasurementLog& log,
                            const EstimatorOptions& opt);

// The fixed-lag smoother: the same factors over the last `window` rows only, solved again as
// each row arrives; the row leaving the window is marginalised (its factors, linearised at the
// estimate, become a Gaussian prior on the next row by the Schur complement), so nothing before
// the window is forgotten. A row's output is its estimate when it leaves (smoothed over the
// window - 1 rows after it); the last window's rows are smoothed over the rest of the log. For
// a linear-Gaussian system the last window equals the batch smoother.
SmoothedMotion smooth_fixed_lag(StateSpace& space, const MeasurementLog& log,
                                const EstimatorOptions& opt, int window);

class ParameterModel;

// Identification (`identify`): the batch problem with the parameters as global variables (their
// Jacobian columns by central differences of every residual, the mechanism rebuilt at each
// value), estimated together with the motion; their covariance is their block of H⁻¹.
struct Identified {
  VecX values;
  MatX cov;
  SmoothedMotion motion;
};
Identified identify(ParameterModel& params, const MeasurementLog& log, const EstimatorOptions& opt);
// From several logs of the same mechanism at once (all read with its sensors): the parameters
// are shared, each log has its own motion from its own initial state (each starts from the
// file's prior, as one log does). `motion` holds the logs' rows one after another. Throws
// MeasurementError naming a log with fewer than 2 rows.
Identified identify(ParameterModel& params, const std::vector<MeasurementLog>& logs,
                    const EstimatorOptions& opt);

}  // namespace articula
