#pragma once
// The least-squares problem behind the smoothers (smoother.hpp), shared by the batch and the
// fixed-lag forms: knots s..e-1 of the log, a Gaussian prior on knot s (square-root
// information form), and the whitened residual rows of every factor with their Jacobians.
#include <Eigen/SparseCore>
#include <vector>

#include "core/estimation/parameters.hpp"
#include "core/estimation/smoother.hpp"

namespace articula::smoother {

using Triplet = Eigen::Triplet<double>;
using Sparse = Eigen::SparseMatrix<double>;

struct Problem {
  StateSpace* space_;  // the mechanism at the parameters' present values
  const MeasurementLog& log;
  const EstimatorOptions& opt;
  int s = 0, e = 0;     // knots s .. e-1 are the variables
  VecX prior;           // mean of the prior on knot s (nb)
  MatX prior_root;      // R with the prior residual R (xu_s - prior), Rᵀ R its information
  std::vector<VecX> q;  // per log row: the last full coordinates (the branch to stay on)
  ParameterModel* params = nullptr;  // identify: global variables after the knots'
  VecX values;                       // ... their present values
  StateSpace& space() const { return *space_; }
  int knot_variables() const { return (e - s) * space().nb(); }
  int variables() const { return knot_variables() + (params ? params->size() : 0); }
};

// Whitened residual rows, their Jacobian over the variables (triplets) and IRLS weights.
struct Rows {
  std::vector<Triplet> J;
  std::vector<double> r, w;
  double cost = 0.0;
  int add(double residual, double weight, double cost_term);
  int add(double residual) { return add(residual, 1.0, 0.5 * residual * residual); }
};

// Every factor at the knots' values xu[s..e) (indexed by log row). With `first_only`, only the
// factors touching knot s (prior, its sensors, dynamics to s+1): what marginalising it removes.
Rows build(Problem& p, const std::vector<VecX>& xu, bool jacobians, bool first_only = false);
// Jᵀ W J and Jᵀ W r over n variables.
void normal_equations(const Rows& rows, int n, Sparse& H, VecX& g);
// Sensors at knot k and the state it reaches at knot k + 1 (f empty at the last row of the log).
void knot_values(Problem& p, int k, const VecX& xu, VecX& h, VecX& f);  // f: if k + 1 < e

}  // namespace articula::smoother
