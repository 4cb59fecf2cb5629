#pragma once
// The least-squares problem behind the smoothers (smoother.hpp), shared by the batch and the
// fixed-lag forms: knots s..e-1 of the log, a Gaussian prior on knot s (square-root
// information form), and the whitened residual rows of every factor with their Jacobians.
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

#include "core/estimation/information.hpp"
#include "core/estimation/parameters.hpp"
#include "core/estimation/smoother.hpp"

namespace articula::smoother {

using Triplet = Eigen::Triplet<double>;
using Sparse = Eigen::SparseMatrix<double>;
using Entry = std::pair<int, double>;  // a column and its value in one row

// Sensor readings and the next knot's state at one knot, with their Jacobians by finite
// differences (one simulation placement and one step per evaluation).
struct KnotModel {
  VecX h, f;    // sensors at the knot; x at the next knot (empty at the last)
  MatX Jh, Jf;  // their Jacobians over the knot's xu, when evaluated here
  // A reused linearisation (the cache's entry) whose Jacobians apply instead: they are not
  // copied, as most knots of a fixed-lag window reuse theirs at every iteration.
  const KnotModel* reused = nullptr;
  const MatX& jh() const { return reused ? reused->Jh : Jh; }
  const MatX& jf() const { return reused ? reused->Jf : Jf; }
};

// The fixed-lag smoother's linearisations, per log row: a knot whose estimate moved less than
// the threshold from where it was last linearised uses that linearisation (h and f first-order
// from there) instead of 1 + 2 nb new simulations, as iSAM2 does ("fluid relinearisation").
struct LinearisationCache {
  double threshold = 0.0;  // largest |xu - at| entry that reuses; 0: never reuse
  std::vector<VecX> at;    // per row: where it was linearised (empty: not yet)
  std::vector<KnotModel> model;
  // Per row: the last evaluation without Jacobians (a line search's trial, a prediction) and
  // where it was made. The next iteration linearises at that very point, so it is the centre
  // of the finite differences there instead of one more placement and step.
  std::vector<VecX> value_at;
  std::vector<KnotModel> value;
};

struct Problem {
  StateSpace* space_;  // the mechanism at the parameters' present values
  const MeasurementLog& log;
  const EstimatorOptions& opt;
  int s = 0, e = 0;     // knots s .. e-1 are the variables
  VecX prior;           // mean of the prior on knot s (nb)
  MatX prior_root;      // R with the prior residual R (xu_s - prior), Rᵀ R its information
  std::vector<VecX> q;  // per log row: the last full coordinates (the branch to stay on)
  ParameterModel* params = nullptr;     // identify: global variables after the knots'
  VecX values;                          // ... their present values
  LinearisationCache* cache = nullptr;  // fixed-lag: reused linearisations
  // Several logs at once (identify, batch form only): per row, 1 where another log begins. Its
  // first row has its own initial state (the file's prior again, no dynamics factor from the
  // row before). Empty: one log.
  std::vector<char> log_start;
  int linearised = 0;  // knots linearised anew so far (finite differences: 1 + 3m + nu placements)
  bool starts_log(int k) const {
    return static_cast<std::size_t>(k) < log_start.size() && log_start[k] != 0;
  }
  bool continues(int k) const { return k + 1 < e && !starts_log(k + 1); }  // dynamics k -> k+1
  StateSpace& space() const { return *space_; }
  int knot_variables() const { return (e - s) * space().nb(); }
  int variables() const { return knot_variables() + (params ? params->size() : 0); }
};

// Whitened residual rows, their Jacobian over the variables (triplets) and IRLS weights.
struct Rows {
  std::vector<Triplet> J;
  std::vector<double> r, w;
  double cost = 0.0;
  int fresh = 0;  // knots linearised anew by build (not reused from the cache)
  int add(double residual, double weight, double cost_term);
  int add(double residual) { return add(residual, 1.0, 0.5 * residual * residual); }
};

// Every factor at the knots' values xu[s..e) (indexed by log row). With `first_only`, only the
// factors touching knot s (prior, its sensors, dynamics to s+1): what marginalising it removes.
Rows build(Problem& p, const std::vector<VecX>& xu, bool jacobians, bool first_only = false);
// Jᵀ W J (its lower triangle only: the factorisations read no more) and Jᵀ W r over n variables:
// knots of nb variables first (n0 of them in all), then the parameters.
void normal_equations(const Rows& rows, int n, int nb, int n0, Sparse& H, VecX& g);
// The same without parameters (n = n0), as H's dense blocks (information.hpp).
void normal_equations(const Rows& rows, int nb, int n0, KnotBlocks& H, VecX& g);
// Jᵀ W r alone: the gradient when H is known to be unchanged.
void gradient(const Rows& rows, int n, VecX& g);
// Sensors at knot k and, with `next`, the state it reaches at knot k + 1 (a row of the log).
void knot_values(Problem& p, int k, const VecX& xu, VecX& h, VecX& f, bool next);
// Knot k's model at xu: reused from the cache when xu is near its linearisation (Jacobians
// then too), else evaluated, with Jacobians if asked (and then cached).
KnotModel linearise(Problem& p, int k, const VecX& xu, bool jacobians);

}  // namespace articula::smoother
