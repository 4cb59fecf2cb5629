#include "core/estimation/smoother.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>
#include <cmath>
#include <limits>

#include "core/estimation/information.hpp"
#include "core/estimation/smoother_problem.hpp"

namespace articula {

using namespace smoother;

namespace {
// Knots s, s + 1, ... of xu moved by scale step, in place (only the window's rows are touched:
// the fixed-lag smoother's time per row must not grow with the log).
void add_step(std::vector<VecX>& xu, int s, const VecX& step, double scale) {
  const auto nb = static_cast<Eigen::Index>(xu[0].size());
  for (Eigen::Index k = 0; k < step.size() / nb; ++k)
    xu[static_cast<std::size_t>(s + k)] += scale * step.segment(k * nb, nb);
}

// Rows s..e-1 of a per-row vector, to put back after a trial.
std::vector<VecX> rows_of(const std::vector<VecX>& v, int s, int e) {
  return {v.begin() + s, v.begin() + e};
}
void put_back(std::vector<VecX>& v, int s, const std::vector<VecX>& rows) {
  std::copy(rows.begin(), rows.end(), v.begin() + s);
}

// Knot k + 1 predicted from knot k (forces held): the first guess of a new knot.
void predict(Problem& p, int k, std::vector<VecX>& xu) {
  const KnotModel km = linearise(p, k, xu[k], false);
  p.q[k + 1] = p.q[k];
  xu[k + 1] = xu[k];
  xu[k + 1].head(p.space().nx()) = km.f;
}

// Where an encoder reads an independent coordinate, the first guess takes θ from its readings
// (linear between present rows) and θ̇ from their differences: Gauss-Newton then starts near
// the motion, not from a free simulation that may have drifted far from it.
// Rows from .. to-1 are one log (several logs: each on its own).
void guess_from_encoders(const Problem& p, std::vector<VecX>& xu, int from, int to) {
  const std::vector<int> cols = p.space().encoder_columns();
  const int m = p.space().m();
  for (int i = 0; i < m; ++i) {
    if (cols[i] < 0) continue;
    std::vector<int> rows;
    for (int k = from; k < to; ++k)
      if (p.log.present(k, cols[i]) != 0.0) rows.push_back(k);
    if (rows.size() < 2) continue;
    std::size_t seg = 0;
    for (int k = from; k < to; ++k) {
      while (seg + 2 < rows.size() && rows[seg + 1] < k) ++seg;
      const int a = rows[seg], b = rows[seg + 1];
      const double ta = p.log.t[a], tb = p.log.t[b];
      const double ya = p.log.values(a, cols[i]), yb = p.log.values(b, cols[i]);
      const double slope = (yb - ya) / (tb - ta);
      xu[k][i] = ya + slope * (p.log.t[k] - ta);
      xu[k][m + i] = slope;
    }
  }
}

// Identify: the parameters' columns of the Jacobian, central differences of every residual with
// the mechanism rebuilt at each value (the rows are the same factors in the same order).
void parameter_columns(Problem& p, const std::vector<VecX>& xu, Rows& rows) {
  const int n0 = p.knot_variables();
  const std::vector<VecX> q_saved = p.q;
  for (int j = 0; j < p.params->size(); ++j) {
    const double d = 1e-6 * (1.0 + std::abs(p.values[j]));
    VecX v = p.values;
    v[j] += d;
    p.space_ = &p.params->at(v);
    const Rows up = build(p, xu, false);
    v[j] -= 2 * d;
    p.space_ = &p.params->at(v);
    const Rows down = build(p, xu, false);
    p.q = q_saved;
    for (std::size_t r = 0; r < rows.r.size(); ++r) {
      const double dr = (up.r[r] - down.r[r]) / (2 * d);
      if (dr != 0.0) rows.J.emplace_back(static_cast<int>(r), n0 + j, dr);
    }
  }
  p.space_ = &p.params->at(p.values);
}

// The cost at xu + scale step (and the parameters moved alike); p.q follows. A trial that cannot
// be simulated (a parameter out of its valid range, such as a negative Coulomb level on a first
// step from noisy readings; loops that cannot be closed) costs infinity: the step is halved.
double trial_cost(Problem& p, std::vector<VecX>& xu, const VecX& step, double scale) {
  const std::vector<VecX> saved = rows_of(xu, p.s, p.e);
  double cost = std::numeric_limits<double>::infinity();
  try {
    if (p.params) p.space_ = &p.params->at(p.values + scale * step.tail(p.params->size()));
    add_step(xu, p.s, step.head(p.knot_variables()), scale);
    cost = build(p, xu, false).cost;
  } catch (const SetupError&) {
  }
  put_back(xu, p.s, saved);
  if (p.params) p.space_ = &p.params->at(p.values);
  return cost;
}

// Reports an iteration to the options' progress callback; stops the solve when it says so.
void report(const Problem& p, int iterations) {
  if (p.opt.progress &&
      !p.opt.progress(iterations, static_cast<double>(p.e) / static_cast<double>(p.log.t.size())))
    throw EstimationCancelled();
}

// A step shorter than this in standard deviations (its Mahalanobis length √(δᵀ H δ) = √(-gᵀδ)
// under the information H at the linearisation) is applied without a line search and ends the
// iteration: it moves the estimate by 1 % of its uncertainty, and Gauss-Newton's next step
// would be smaller still (on the four-bar's fixed-lag rows: 1e-6 rad, then 1e-15). It saves
// the third iteration that a step tolerance of 1e-10 alone spends on most rows.
constexpr double kNegligibleStep = 0.01;

void apply_step(Problem& p, std::vector<VecX>& xu, const VecX& step, double scale) {
  add_step(xu, p.s, step.head(p.knot_variables()), scale);
  if (p.params) {
    p.values += scale * step.tail(p.params->size());
    p.space_ = &p.params->at(p.values);
  }
}

// The step's scale by halving until the cost does not rise (p.q follows the accepted trial).
double line_search(Problem& p, std::vector<VecX>& xu, const VecX& step, double cost) {
  double scale = 1.0;
  for (int halving = 0; halving < 8; ++halving, scale *= 0.5) {
    const std::vector<VecX> q_saved = rows_of(p.q, p.s, p.e);
    if (trial_cost(p, xu, step, scale) <= cost) break;
    put_back(p.q, p.s, q_saved);
  }
  return scale;
}

// What the information matrix in a factorisation was made from: the window, its rows' weights
// and whether every knot's Jacobians came from the cache. Another iteration over the same
// window whose knots all reuse their linearisations (and with the same weights) has the same
// H: the factorisation stands and only the gradient is new (the second Gauss-Newton iteration
// of most fixed-lag rows, after the newest row's first).
struct Factorised {
  int s = -1, e = -1;
  std::vector<double> w;
  bool same(const Problem& p, const Rows& rows) const {
    return !p.params && rows.fresh == 0 && p.s == s && p.e == e && rows.w == w;
  }
};

// H at the rows (and the gradient into g) and its factorisation into info: by dense blocks
// without parameters, else sparse. False when H is not positive definite.
bool factorise(const Problem& p, const Rows& rows, Information& info, VecX& g) {
  if (!p.params) {
    KnotBlocks H;
    normal_equations(rows, p.space().nb(), p.knot_variables(), H, g);
    return info.compute(H);
  }
  Sparse H;
  normal_equations(rows, p.variables(), p.space().nb(), p.knot_variables(), H, g);
  return info.compute(H, p.space().nb(), p.knot_variables());
}

// Gauss-Newton with step halving over knots s..e-1 (and the parameters); returns the
// iterations. info holds the information matrix at the last linearisation (made from `made`).
// `done`: iterations before this call (for the progress report).
int gauss_newton(Problem& p, std::vector<VecX>& xu, Information& info, Factorised& made,
                 int max_iterations, double& cost, int done = 0) {
  VecX g;
  int it = 0;
  for (; it < max_iterations; ++it) {
    Rows rows = build(p, xu, true);
    if (p.params) parameter_columns(p, xu, rows);
    if (made.same(p, rows)) {
      gradient(rows, p.variables(), g);
    } else {
      if (!factorise(p, rows, info, g))
        throw SetupError("estimation: the information matrix is singular (an unobservable state)");
      made = {p.s, p.e, rows.w};
    }
    const VecX step = info.solve(-g);
    cost = rows.cost;
    const bool negligible = -g.dot(step) < kNegligibleStep * kNegligibleStep;
    const double scale = negligible ? 1.0 : line_search(p, xu, step, rows.cost);
    apply_step(p, xu, step, scale);
    report(p, done + it + 1);
    if (negligible || scale * step.cwiseAbs().maxCoeff() < p.opt.tolerance) return it + 1;
  }
  return it;
}

Problem make_problem(StateSpace& space, const MeasurementLog& log, const EstimatorOptions& opt) {
  const auto N = static_cast<int>(log.t.size());
  if (N < 2) throw MeasurementError("the log has one row: estimation needs at least two");
  const Mechanism& mech = space.mechanism();
  Problem p{&space,
            log,
            opt,
            0,
            N,
            VecX::Zero(space.nb()),
            MatX::Zero(space.nb(), space.nb()),
            {},
            nullptr,
            VecX(),
            nullptr,
            {},
            0};
  p.prior.head(space.nx()) = space.state_of(mech.q0, mech.qd0);
  for (int j = 0; j < space.nb(); ++j)
    p.prior_root(j, j) = 1.0 / (j < space.m()    ? opt.prior_q_sigma
                                : j < space.nx() ? opt.prior_qd_sigma
                                                 : opt.prior_force_sigma);
  p.q.assign(static_cast<std::size_t>(N), mech.q0);
  return p;
}
// Marginalises knot s out of the window: the factors touching it, linearised at the estimate,
// reduced by the Schur complement onto knot s + 1 become that knot's Gaussian prior.
void marginalise_first(Problem& p, const std::vector<VecX>& xu) {
  const int nb = p.space().nb(), e = p.e;
  p.e = p.s + 2;
  const Rows rows = build(p, xu, true, true);
  p.e = e;
  KnotBlocks H;
  VecX g;
  normal_equations(rows, nb, 2 * nb, H, g);
  const Eigen::LDLT<MatX> H00(H.diag[0].selfadjointView<Eigen::Lower>());
  const MatX& H10 = H.below[0];
  const MatX Hm =
      MatX(H.diag[1].selfadjointView<Eigen::Lower>()) - H10 * H00.solve(H10.transpose());
  const VecX gm = g.tail(nb) - H10 * H00.solve(g.head(nb));
  const Eigen::LLT<MatX> llt(0.5 * (Hm + Hm.transpose()));
  if (llt.info() != Eigen::Success)
    throw SetupError("estimation: the marginal information is not positive definite");
  ++p.s;
  p.prior = xu[p.s] - llt.solve(gm);
  p.prior_root = llt.matrixU();
}
}  // namespace

SmoothedMotion smooth_fixed_lag(StateSpace& space, const MeasurementLog& log,
                                const EstimatorOptions& opt, int window) {
  Problem p = make_problem(space, log, opt);
  const int N = p.e;
  if (window < 2 || window > N)
    throw MeasurementError("the log has " + std::to_string(N) + " rows: a window of " +
                           std::to_string(window) + " needs between 2 and that many");
  std::vector<VecX> xu(static_cast<std::size_t>(N), p.prior);
  SmoothedMotion out;
  out.t = log.t;
  out.xu.resize(static_cast<std::size_t>(N));
  out.cov.resize(static_cast<std::size_t>(N));
  out.q.resize(static_cast<std::size_t>(N));
  LinearisationCache cache;
  cache.threshold = opt.relinearise;
  p.cache = &cache;
  Information info;
  Factorised made;
  for (int e = 1; e <= N; ++e) {
    p.e = e;
    if (e > 1) predict(p, e - 2, xu);
    if (e - p.s > window) {  // knot s leaves, smoothed over the window-1 rows after it
      out.xu[p.s] = xu[p.s];
      (void)space.place(log.t[p.s], xu[p.s], p.q[p.s]);  // reused linearisations place no q
      out.q[p.s] = p.q[p.s];
      out.cov[p.s] = info.knot_covariance(0);  // the window before this row's: e - 1 - s knots
      marginalise_first(p, xu);
    }
    out.iterations += gauss_newton(p, xu, info, made, opt.max_iterations, out.cost, out.iterations);
  }
  for (int k = p.s; k < N; ++k) {
    out.xu[k] = xu[k];
    (void)space.place(log.t[k], xu[k], p.q[k]);
    out.q[k] = p.q[k];
    out.cov[k] = info.knot_covariance(k - p.s);
  }
  out.linearisations = p.linearised;
  return out;
}

namespace {
// The batch solve of a prepared problem; with parameters, their covariance into *param_cov.
SmoothedMotion solve_batch(Problem& p, MatX* param_cov) {
  const int N = p.e;
  std::vector<VecX> xu(static_cast<std::size_t>(N), p.prior);
  for (int k = 0, from = 0; k < N; ++k) {  // each log from the prior, then predicted
    if (p.continues(k)) predict(p, k, xu);
    if (k + 1 == N || p.starts_log(k + 1)) guess_from_encoders(p, xu, from, k + 1), from = k + 1;
  }
  for (int k = 1; k < N; ++k) {  // the full coordinates along the guess, knot after knot
    p.q[k] = p.starts_log(k) ? p.space().mechanism().q0 : p.q[k - 1];
    (void)p.space().place(p.log.t[k], xu[k], p.q[k]);
  }
  SmoothedMotion out;
  Information info;
  Factorised made;
  out.iterations = gauss_newton(p, xu, info, made, p.opt.max_iterations, out.cost);
  // The covariance at the solution: one more linearisation there.
  Rows rows = build(p, xu, true);
  if (p.params) parameter_columns(p, xu, rows);
  VecX g;
  (void)factorise(p, rows, info, g);  // converged: it factorised there
  out.cost = rows.cost;
  out.t = p.log.t;
  out.xu = xu;
  out.q = p.q;
  out.linearisations = p.linearised;
  for (int k = 0; k < N; ++k) out.cov.push_back(info.knot_covariance(k));
  if (param_cov) *param_cov = info.parameter_covariance();
  return out;
}
}  // namespace

SmoothedMotion smooth_batch(StateSpace& space, const MeasurementLog& log,
                            const EstimatorOptions& opt) {
  Problem p = make_problem(space, log, opt);
  return solve_batch(p, nullptr);
}

Identified identify(ParameterModel& params, const MeasurementLog& log,
                    const EstimatorOptions& opt) {
  return identify(params, std::vector<MeasurementLog>{log}, opt);
}

namespace {
// The logs one after another (rows in order, times restarting), with 1 at each log's first row.
MeasurementLog concatenate(const std::vector<MeasurementLog>& logs, std::vector<char>& starts) {
  MeasurementLog all;
  Eigen::Index rows = 0, cols = logs[0].values.cols();
  for (const MeasurementLog& l : logs) rows += l.t.size();
  all.t.resize(rows);
  all.values.resize(rows, cols);
  all.present.resize(rows, cols);
  starts.assign(static_cast<std::size_t>(rows), 0);
  Eigen::Index at = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const MeasurementLog& l = logs[i];
    if (l.t.size() < 2)
      throw MeasurementError("log " + std::to_string(i + 1) + " of " + std::to_string(logs.size()) +
                             " has one row: estimation needs at least two");
    starts[static_cast<std::size_t>(at)] = 1;
    all.t.segment(at, l.t.size()) = l.t;
    all.values.middleRows(at, l.t.size()) = l.values;
    all.present.middleRows(at, l.t.size()) = l.present;
    all.lines.insert(all.lines.end(), l.lines.begin(), l.lines.end());
    at += l.t.size();
  }
  return all;
}
}  // namespace

Identified identify(ParameterModel& params, const std::vector<MeasurementLog>& logs,
                    const EstimatorOptions& opt) {
  if (logs.empty()) throw MeasurementError("identification needs at least one log");
  std::vector<char> starts;
  const MeasurementLog all = concatenate(logs, starts);
  Problem p = make_problem(params.at(params.initial()), all, opt);
  p.params = &params;
  p.values = params.initial();
  if (logs.size() > 1) p.log_start = starts;
  Identified out;
  out.motion = solve_batch(p, &out.cov);
  out.values = p.values;
  return out;
}

}  // namespace articula
