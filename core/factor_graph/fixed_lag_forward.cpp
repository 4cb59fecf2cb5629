#include "core/factor_graph/fixed_lag_forward.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>

#include "core/algorithms/closed_loop_dynamics.hpp"
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

// One time step's variables and the dynamics' derivatives taken when it entered the window.
struct Node {
  VecX q, qd, qdd;
  MatX dfdq, dfdqd;  // ∂f/∂q, ∂f/∂q̇ (n x n)
  MatX dvdq;         // ∂(K q̇)/∂q (c x n): the velocity factor's change with the position
  MatX dddq;         // ∂δ/∂q (c x n): K only where δ = 0, so taken by differences too
};

class Window {
 public:
  Window(const Mechanism& m, const FixedLagOptions& opt)
      : m_(m), opt_(opt), data_(m.model()), n_(m.model().nv), tau_(VecX::Zero(n_)) {}

  // q̈ = f(q, q̇) with δ and K at q (exact acceleration constraint K q̈ = k).
  void dynamics(const VecX& q, const VecX& qd, VecX& qdd) {
    if (!closed_loop_forward_dynamics(m_.model(), data_, m_.compiled.loops, q, qd, tau_, 0.0, 0.0,
                                      work_))
      throw SetupError("the fixed-lag simulation met a singular mass matrix");
    qdd = data_.qdd;
  }
  void linearise(Node& x) {  // central differences of f
    x.dfdq.resize(n_, n_), x.dfdqd.resize(n_, n_);
    x.dvdq.resize(constraint_rows(m_.compiled.loops), n_), x.dddq.resizeLike(x.dvdq);
    VecX plus, minus;
    for (int j = 0; j < n_; ++j) {
      const double e = 1e-6 * std::max(1.0, std::abs(x.q[j]));
      VecX q = x.q;
      q[j] += e, dynamics(q, x.qd, plus);
      const VecX v_plus = work_.K * x.qd, d_plus = work_.delta;
      q[j] -= 2 * e, dynamics(q, x.qd, minus);
      x.dfdq.col(j) = (plus - minus) / (2 * e);
      x.dvdq.col(j) = (v_plus - work_.K * x.qd) / (2 * e);
      x.dddq.col(j) = (d_plus - work_.delta) / (2 * e);
      const double v = 1e-6 * std::max(1.0, std::abs(x.qd[j]));
      VecX qd = x.qd;
      qd[j] += v, dynamics(x.q, qd, plus);
      qd[j] -= 2 * v, dynamics(x.q, qd, minus);
      x.dfdqd.col(j) = (plus - minus) / (2 * v);
    }
  }
  // Solves nodes [1, size) with node 0 frozen; returns the iterations taken.
  int solve(std::vector<Node>& w);
  double loop_error(const VecX& q) {
    VecX qdd;
    dynamics(q, VecX::Zero(n_), qdd);
    return work_.delta.size() ? work_.delta.cwiseAbs().maxCoeff() : 0.0;
  }

 private:
  double cost(std::vector<Node>& w, VecX& r, MatX* J);
  const Mechanism& m_;
  const FixedLagOptions& opt_;
  Data data_;
  int n_;
  VecX tau_;
  ClosedLoopWork work_;
};

// The weighted residuals of every factor on nodes 1.. (and, J given, their Jacobian in the
// unknowns [q, q̇, q̈] per node). Returns ½|r|².
double Window::cost(std::vector<Node>& w, VecX& r, MatX* J) {
  const int nodes = static_cast<int>(w.size()) - 1, b = 3 * n_;
  const int c = constraint_rows(m_.compiled.loops);
  const int per = 2 * c + 3 * n_;
  r.setZero(nodes * per);
  if (J) J->setZero(nodes * per, nodes * b);
  const double h = opt_.step, wp = 1 / opt_.sigma_position, wv = 1 / opt_.sigma_velocity,
               wd = 1 / opt_.sigma_dynamics, wi = 1 / opt_.sigma_integration;
  const MatX I = MatX::Identity(n_, n_);
  VecX f;
  for (int i = 1; i <= nodes; ++i) {
    Node& x = w[i];
    const Node& p = w[i - 1];
    const int row = (i - 1) * per, col = (i - 1) * b;
    dynamics(x.q, x.qd, f);  // also δ(q) and K(q) in work_
    r.segment(row, c) = wp * work_.delta;
    r.segment(row + c, c) = wv * (work_.K * x.qd);
    r.segment(row + 2 * c, n_) = wd * (x.qdd - f);
    r.segment(row + 2 * c + n_, n_) = wi * (x.q - p.q - 0.5 * h * (p.qd + x.qd));
    r.segment(row + 2 * c + 2 * n_, n_) = wi * (x.qd - p.qd - 0.5 * h * (p.qdd + x.qdd));
    if (!J) continue;
    J->block(row, col, c, n_) = wp * x.dddq;
    J->block(row + c, col, c, n_) = wv * x.dvdq;
    J->block(row + c, col + n_, c, n_) = wv * work_.K;
    J->block(row + 2 * c, col, n_, n_) = -wd * x.dfdq;
    J->block(row + 2 * c, col + n_, n_, n_) = -wd * x.dfdqd;
    J->block(row + 2 * c, col + 2 * n_, n_, n_) = wd * I;
    const int ri = row + 2 * c + n_;
    J->block(ri, col, n_, n_) = wi * I;
    J->block(ri, col + n_, n_, n_) = -0.5 * h * wi * I;
    J->block(ri + n_, col + n_, n_, n_) = wi * I;
    J->block(ri + n_, col + 2 * n_, n_, n_) = -0.5 * h * wi * I;
    if (i == 1) continue;  // node 0 is frozen
    J->block(ri, col - b, n_, n_) = -wi * I;
    J->block(ri, col - b + n_, n_, n_) = -0.5 * h * wi * I;
    J->block(ri + n_, col - b + n_, n_, n_) = -wi * I;
    J->block(ri + n_, col - b + 2 * n_, n_, n_) = -0.5 * h * wi * I;
  }
  return 0.5 * r.squaredNorm();
}

// Levenberg-Marquardt (Nielsen's damping update) on the window's unknowns.
int Window::solve(std::vector<Node>& w) {
  const int b = 3 * n_, nodes = static_cast<int>(w.size()) - 1;
  VecX r, r_try;
  MatX J;
  double mu = 0.0, nu = 2.0;
  double F = cost(w, r, &J);
  int it = 0;
  for (; it < opt_.max_iterations; ++it) {
    const MatX A = J.transpose() * J;
    const VecX g = J.transpose() * r;
    if (mu == 0.0) mu = 1e-12 * A.diagonal().maxCoeff();
    MatX Am = A;
    Am.diagonal().array() += mu;
    const VecX dx = -Am.ldlt().solve(g);
    // Converged when the step is below 1e-10 of the variables (1e-10 m on a 1 m mechanism, far
    // under the trapezoidal rule's own error): what is left is round-off.
    double scale = 1.0;
    for (int i = 1; i <= nodes; ++i) scale = std::max(scale, w[i].q.lpNorm<Eigen::Infinity>());
    if (dx.lpNorm<Eigen::Infinity>() < 1e-10 * scale) return it;
    std::vector<Node> trial = w;
    for (int i = 1; i <= nodes; ++i) {
      trial[i].q += dx.segment((i - 1) * b, n_);
      trial[i].qd += dx.segment((i - 1) * b + n_, n_);
      trial[i].qdd += dx.segment((i - 1) * b + 2 * n_, n_);
    }
    const double F_try = cost(trial, r_try, nullptr);
    const double gain = (F - F_try) / std::max(1e-300, 0.5 * dx.dot(mu * dx - g));
    if (F_try < F || gain > 0) {
      const bool done = F - F_try <= 1e-12 * F;  // the cost stalls
      w.swap(trial);
      F = cost(w, r, &J);
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
  FixedLagResult out{VecX(steps + 1), MatX(steps + 1, n), MatX(steps + 1, n)};
  std::vector<Node> w(1);
  w[0].q = start.q(), w[0].qd = start.qd();
  win.dynamics(w[0].q, w[0].qd, w[0].qdd);  // the prior: the known initial state
  int frozen = 0;                           // step of w[0]
  auto emit = [&](const Node& x, int k) {
    out.t[k] = k * opt.step, out.q.row(k) = x.q.transpose(), out.qd.row(k) = x.qd.transpose();
    out.max_loop_error = std::max(out.max_loop_error, win.loop_error(x.q));
  };
  emit(w[0], 0);
  for (int k = 1; k <= steps; ++k) {
    const Node& last = w.back();
    Node x;  // predicted by a Taylor step, then solved with the window
    const double h = opt.step;
    x.q = last.q + h * last.qd + 0.5 * h * h * last.qdd;
    x.qd = last.qd + h * last.qdd;
    x.qdd = last.qdd;
    win.linearise(x);
    w.push_back(std::move(x));
    out.iterations += win.solve(w);
    if (static_cast<int>(w.size()) > opt.window) {  // the oldest unknown leaves: frozen
      w.erase(w.begin());
      emit(w[0], ++frozen);
    }
  }
  for (std::size_t i = 1; i < w.size(); ++i) emit(w[i], ++frozen);
  return out;
}

}  // namespace articula::fg
