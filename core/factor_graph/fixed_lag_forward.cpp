#include "core/factor_graph/fixed_lag_forward.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>

#include "core/algorithms/closed_loop_dynamics.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/sim/simulation.hpp"

namespace articula::fg {

namespace {
// What the paper's free-motion example has, and nothing this solver would silently ignore.
void check_supported(const Mechanism& m) {
  const MechanismSpec& s = m.spec;
  auto refuse = [](const std::string& what) {
    throw SetupError(
        "the fixed-lag factor-graph simulation takes free motion under gravity only: " + what);
  };
  for (const JointSpec& j : s.joints) {
    if (j.drive) refuse("joint '" + j.name + "' has a drive");
    if (j.spring) refuse("joint '" + j.name + "' has a spring");
    if (j.limits) refuse("joint '" + j.name + "' has limits");
    if (j.friction) refuse("joint '" + j.name + "' has friction");
  }
  if (!s.forces.empty()) refuse("the file has applied forces");
  if (!s.couplings.empty()) refuse("the file has couplings");
  if (!s.contacts.empty()) refuse("the file has contacts");
  if (m.model().nq != m.model().nv) refuse("a joint with quaternion coordinates");
}

// One time step's unknowns, and K(q) where the residuals were last evaluated.
struct State {
  VecX q, qd, qdd;
  MatX K;  // c x n: the loop constraints' Jacobian at q (set by Window::residual)
};
// The dynamics' derivatives taken when a step enters the window (a chord iteration).
struct Linearisation {
  MatX dfdq, dfdqd;  // ∂f/∂q, ∂f/∂q̇ (n x n)
  MatX dvdq;         // ∂(K q̇)/∂q (c x n): the velocity factor's change with the position
  MatX dddq;         // ∂δ/∂q (c x n): K only where δ = 0, so taken by differences too
};

// The window's unknowns are [q, q̇, q̈] per step (b = 3n). A step's factors involve only it and
// the step before (the trapezoidal ones), so JᵀJ is block-tridiagonal: it is formed and solved
// by blocks (block LDLᵀ, O(Nw·b³)), never as a dense (Nw·b)² matrix.
class Window {
 public:
  Window(const Mechanism& m, const FixedLagOptions& opt)
      : m_(m),
        opt_(opt),
        data_(m.model()),
        n_(m.model().nv),
        c_(constraint_rows(m.compiled.loops)),
        per_(2 * c_ + 3 * n_),
        tau_(VecX::Zero(n_)) {
    build_integration_blocks();
  }

  // q̈ = f(q, q̇) with δ and K at q (exact acceleration constraint K q̈ = k).
  void dynamics(const VecX& q, const VecX& qd, VecX& qdd) {
    if (!closed_loop_forward_dynamics(m_.model(), data_, m_.compiled.loops, q, qd, tau_, 0.0, 0.0,
                                      work_))
      throw SetupError("the fixed-lag simulation met a singular mass matrix");
    qdd = data_.qdd;
  }
  Linearisation linearise(const State& x) {  // central differences of f
    Linearisation l{MatX(n_, n_), MatX(n_, n_), MatX(c_, n_), MatX(c_, n_)};
    VecX plus, minus;
    for (int j = 0; j < n_; ++j) {
      const double e = 1e-6 * std::max(1.0, std::abs(x.q[j]));
      VecX q = x.q;
      q[j] += e, dynamics(q, x.qd, plus);
      const VecX v_plus = work_.K * x.qd, d_plus = work_.delta;
      q[j] -= 2 * e, dynamics(q, x.qd, minus);
      l.dfdq.col(j) = (plus - minus) / (2 * e);
      l.dvdq.col(j) = (v_plus - work_.K * x.qd) / (2 * e);
      l.dddq.col(j) = (d_plus - work_.delta) / (2 * e);
      const double v = 1e-6 * std::max(1.0, std::abs(x.qd[j]));
      VecX qd = x.qd;
      qd[j] += v, dynamics(x.q, qd, plus);
      qd[j] -= 2 * v, dynamics(x.q, qd, minus);
      l.dfdqd.col(j) = (plus - minus) / (2 * v);
    }
    return l;
  }
  // Solves steps [1, size) with step 0 frozen; returns the iterations taken.
  int solve(std::vector<State>& x, const std::vector<Linearisation>& lin);
  double loop_error(const VecX& q) {  // positions only: no dynamics needed for δ
    if (c_ == 0) return 0.0;
    forward_kinematics(m_.model(), data_, q);
    loop_position_errors(m_.model(), data_, m_.compiled.loops, work_.delta);
    return work_.delta.cwiseAbs().maxCoeff();
  }

 private:
  void build_integration_blocks();
  double residual(std::vector<State>& x, VecX& r);
  void diagonal_jacobian(const State& x, const Linearisation& l, MatX& J) const;
  void normal_equations(const std::vector<State>& x, const std::vector<Linearisation>& lin,
                        const VecX& r, VecX& g);
  VecX damped_step(double mu, const VecX& g);
  const Mechanism& m_;
  const FixedLagOptions& opt_;
  Data data_;
  int n_, c_, per_;  // coordinates, loop rows, factor rows per step
  VecX tau_;
  ClosedLoopWork work_;
  MatX Ji_, Jp_;    // 2n x b: the trapezoidal rows' blocks in this step's and the previous step's
  MatX JpTJp_, B_;  // b x b: Jpᵀ Jp and Jiᵀ Jp (the sub-diagonal block of JᵀJ), constant
  std::vector<MatX> A_;               // b x b diagonal blocks of JᵀJ, per unknown step
  std::vector<Eigen::LDLT<MatX>> D_;  // the block elimination's pivots
  MatX J_;                            // per x b: one step's diagonal block (scratch)
  std::vector<State> trial_;
};

void Window::build_integration_blocks() {
  const double h = opt_.step, wi = 1 / opt_.sigma_integration;
  const MatX I = MatX::Identity(n_, n_);
  Ji_ = Jp_ = MatX::Zero(2 * n_, 3 * n_);
  Ji_.block(0, 0, n_, n_) = wi * I, Ji_.block(0, n_, n_, n_) = -0.5 * h * wi * I;
  Ji_.block(n_, n_, n_, n_) = wi * I, Ji_.block(n_, 2 * n_, n_, n_) = -0.5 * h * wi * I;
  Jp_.block(0, 0, n_, n_) = -wi * I, Jp_.block(0, n_, n_, n_) = -0.5 * h * wi * I;
  Jp_.block(n_, n_, n_, n_) = -wi * I, Jp_.block(n_, 2 * n_, n_, n_) = -0.5 * h * wi * I;
  JpTJp_ = Jp_.transpose() * Jp_;
  B_ = Ji_.transpose() * Jp_;
}

// The weighted residuals of every factor on steps 1.. (rows per step: δ, K q̇, dynamics,
// trapezoidal q, trapezoidal q̇), with each step's K kept for its Jacobian. Returns ½|r|².
double Window::residual(std::vector<State>& x, VecX& r) {
  const int steps = static_cast<int>(x.size()) - 1;
  r.resize(steps * per_);
  const double h = opt_.step, wp = 1 / opt_.sigma_position, wv = 1 / opt_.sigma_velocity,
               wd = 1 / opt_.sigma_dynamics, wi = 1 / opt_.sigma_integration;
  VecX f;
  for (int i = 1; i <= steps; ++i) {
    State& s = x[i];
    const State& p = x[i - 1];
    const int row = (i - 1) * per_;
    dynamics(s.q, s.qd, f);  // also δ(q) and K(q) in work_
    s.K = work_.K;
    r.segment(row, c_) = wp * work_.delta;
    r.segment(row + c_, c_) = wv * (work_.K * s.qd);
    r.segment(row + 2 * c_, n_) = wd * (s.qdd - f);
    r.segment(row + 2 * c_ + n_, n_) = wi * (s.q - p.q - 0.5 * h * (p.qd + s.qd));
    r.segment(row + 2 * c_ + 2 * n_, n_) = wi * (s.qd - p.qd - 0.5 * h * (p.qdd + s.qdd));
  }
  return 0.5 * r.squaredNorm();
}

// ∂r_i/∂(q_i, q̇_i, q̈_i): per x b.
void Window::diagonal_jacobian(const State& x, const Linearisation& l, MatX& J) const {
  const double wp = 1 / opt_.sigma_position, wv = 1 / opt_.sigma_velocity,
               wd = 1 / opt_.sigma_dynamics;
  J.setZero(per_, 3 * n_);
  J.block(0, 0, c_, n_) = wp * l.dddq;
  J.block(c_, 0, c_, n_) = wv * l.dvdq;
  J.block(c_, n_, c_, n_) = wv * x.K;
  J.block(2 * c_, 0, n_, n_) = -wd * l.dfdq;
  J.block(2 * c_, n_, n_, n_) = -wd * l.dfdqd;
  J.block(2 * c_, 2 * n_, n_, n_).diagonal().setConstant(wd);
  J.bottomRows(2 * n_) = Ji_;
}

// The diagonal blocks A_i of JᵀJ and g = Jᵀr (the sub-diagonal blocks are the constant B_).
void Window::normal_equations(const std::vector<State>& x, const std::vector<Linearisation>& lin,
                              const VecX& r, VecX& g) {
  const int steps = static_cast<int>(x.size()) - 1, b = 3 * n_;
  A_.resize(steps);
  g.resize(steps * b);
  for (int i = 1; i <= steps; ++i) {
    diagonal_jacobian(x[i], lin[i], J_);
    A_[i - 1].noalias() = J_.transpose() * J_;
    g.segment((i - 1) * b, b).noalias() = J_.transpose() * r.segment((i - 1) * per_, per_);
    if (i == steps) continue;  // the next step's trapezoidal rows also involve this one
    A_[i - 1] += JpTJp_;
    g.segment((i - 1) * b, b).noalias() +=
        Jp_.transpose() * r.segment(i * per_ + 2 * c_ + n_, 2 * n_);
  }
}

// dx = -(JᵀJ + μI)⁻¹ g by block-tridiagonal elimination: D_1 = A_1 + μI,
// D_i = A_i + μI - B D_{i-1}⁻¹ Bᵀ, then forward and back substitution.
VecX Window::damped_step(double mu, const VecX& g) {
  const int steps = static_cast<int>(A_.size()), b = 3 * n_;
  D_.resize(steps);
  VecX y = g;
  for (int i = 0; i < steps; ++i) {
    MatX Di = A_[i];
    Di.diagonal().array() += mu;
    if (i > 0) {
      Di.noalias() -= B_ * D_[i - 1].solve(B_.transpose());
      y.segment(i * b, b).noalias() -= B_ * D_[i - 1].solve(y.segment((i - 1) * b, b));
    }
    D_[i].compute(Di);
  }
  VecX dx(steps * b);
  for (int i = steps - 1; i >= 0; --i) {
    VecX rhs = y.segment(i * b, b);
    if (i + 1 < steps) rhs.noalias() -= B_.transpose() * dx.segment((i + 1) * b, b);
    dx.segment(i * b, b) = D_[i].solve(rhs);
  }
  return -dx;
}

// Levenberg-Marquardt (Nielsen's damping update) on the window's unknowns. An accepted trial's
// residual and K are kept: the dynamics are evaluated once per trial.
int Window::solve(std::vector<State>& x, const std::vector<Linearisation>& lin) {
  const int b = 3 * n_, steps = static_cast<int>(x.size()) - 1;
  VecX r, r_try, g;
  double mu = 0.0, nu = 2.0;
  double F = residual(x, r);
  normal_equations(x, lin, r, g);
  int it = 0;
  for (; it < opt_.max_iterations; ++it) {
    if (mu == 0.0)
      for (const MatX& A : A_) mu = std::max(mu, 1e-12 * A.diagonal().maxCoeff());
    const VecX dx = damped_step(mu, g);
    // Converged when the step is below 1e-10 of the variables (1e-10 m on a 1 m mechanism, far
    // under the trapezoidal rule's own error): what is left is round-off.
    double scale = 1.0;
    for (int i = 1; i <= steps; ++i) scale = std::max(scale, x[i].q.lpNorm<Eigen::Infinity>());
    if (dx.lpNorm<Eigen::Infinity>() < 1e-10 * scale) return it;
    trial_.resize(x.size());
    trial_[0] = x[0];
    for (int i = 1; i <= steps; ++i) {
      trial_[i].q = x[i].q + dx.segment((i - 1) * b, n_);
      trial_[i].qd = x[i].qd + dx.segment((i - 1) * b + n_, n_);
      trial_[i].qdd = x[i].qdd + dx.segment((i - 1) * b + 2 * n_, n_);
    }
    const double F_try = residual(trial_, r_try);
    const double gain = (F - F_try) / std::max(1e-300, 0.5 * dx.dot(mu * dx - g));
    if (F_try < F || gain > 0) {
      const bool done = F - F_try <= 1e-12 * F;  // the cost stalls
      x.swap(trial_), r.swap(r_try), F = F_try;
      normal_equations(x, lin, r, g);
      mu *= std::max(1.0 / 3, 1 - std::pow(2 * gain - 1, 3)), nu = 2.0;
      if (done) return it + 1;
    } else {
      mu *= nu, nu *= 2;
    }
  }
  return it;
}
}  // namespace

FixedLagResult fixed_lag_forward(const Mechanism& m, const FixedLagOptions& opt) {
  check_supported(m);
  if (!(opt.step > 0) || !(opt.duration > 0) || opt.window < 1)
    throw SetupError("the fixed-lag simulation needs a step > 0, a duration > 0 and a window >= 1");
  const int steps = static_cast<int>(std::lround(opt.duration / opt.step));
  const Simulation start(m);  // the assembled initial state, velocities projected
  Window win(m, opt);
  const int n = m.model().nv;
  FixedLagResult out{VecX(steps + 1), MatX(steps + 1, n), MatX(steps + 1, n), VecX(steps + 1)};
  std::vector<State> w(1);
  std::vector<Linearisation> lin(1);  // lin[i] belongs to w[i]; lin[0] is not used
  w[0].q = start.q(), w[0].qd = start.qd();
  win.dynamics(w[0].q, w[0].qd, w[0].qdd);  // the prior: the known initial state
  int frozen = 0;                           // step of w[0]
  auto emit = [&](const State& x, int k) {
    out.t[k] = k * opt.step, out.q.row(k) = x.q.transpose(), out.qd.row(k) = x.qd.transpose();
    out.loop_error[k] = win.loop_error(x.q);
    out.max_loop_error = std::max(out.max_loop_error, out.loop_error[k]);
  };
  emit(w[0], 0);
  for (int k = 1; k <= steps; ++k) {
    const State& last = w.back();
    State x;  // predicted by a Taylor step, then solved with the window
    const double h = opt.step;
    x.q = last.q + h * last.qd + 0.5 * h * h * last.qdd;
    x.qd = last.qd + h * last.qdd;
    x.qdd = last.qdd;
    lin.push_back(win.linearise(x));
    w.push_back(std::move(x));
    out.iterations += win.solve(w, lin);
    if (static_cast<int>(w.size()) > opt.window) {  // the oldest unknown leaves: frozen
      w.erase(w.begin()), lin.erase(lin.begin());
      emit(w[0], ++frozen);
    }
  }
  for (std::size_t i = 1; i < w.size(); ++i) emit(w[i], ++frozen);
  return out;
}

}  // namespace articula::fg
