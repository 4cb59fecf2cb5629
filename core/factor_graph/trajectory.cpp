#include "core/factor_graph/trajectory.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/algorithms/assembly.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/factor_graph/dynamics_factors.hpp"
#include "core/sim/applied_forces.hpp"
#include "core/sim/runner.hpp"

namespace articula::fg {

namespace {
// x_{k+1} - x_k - h/2 (ẋ_k + ẋ_{k+1}) = 0 (Blanco-Claraco Eq. 30), soft.
class TrapezoidalFactor final : public Factor {
 public:
  TrapezoidalFactor(int x0, int x1, int d0, int d1, double h, double sigma, int k)
      : Factor({x0, x1, d0, d1}, 1, sigma), h_(h), k_(k) {}
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override {
    r.resize(1);
    r[0] = x[vars_[1]][0] - x[vars_[0]][0] - 0.5 * h_ * (x[vars_[2]][0] + x[vars_[3]][0]);
    if (!J) return;
    J->assign(4, MatX::Zero(1, 1));
    (*J)[0](0, 0) = -1, (*J)[1](0, 0) = 1, (*J)[2](0, 0) = -0.5 * h_, (*J)[3](0, 0) = -0.5 * h_;
  }
  std::string name() const override { return "trapezoidal " + std::to_string(k_); }

 private:
  double h_;
  int k_;
};

// x_{k+1} - x_k = 0, soft: the smoothness prior on accelerations.
class DifferenceFactor final : public Factor {
 public:
  DifferenceFactor(int x0, int x1, double sigma, int k) : Factor({x0, x1}, 1, sigma), k_(k) {}
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override {
    r = x[vars_[1]] - x[vars_[0]];
    if (J) J->assign({MatX::Constant(1, 1, -1.0), MatX::Constant(1, 1, 1.0)});
  }
  std::string name() const override { return "smoothness " + std::to_string(k_); }

 private:
  int k_;
};

void prior(FactorGraph& g, int var, double value, double sigma, const std::string& what) {
  g.add_factor(std::make_unique<PriorFactor>(var, std::vector<int>{0}, VecX::Constant(1, value),
                                             sigma, what));
}
}  // namespace

SmoothedCoordinate smooth_coordinate(const VecX& samples, double h, const SmootherOptions& opt) {
  const int n = static_cast<int>(samples.size());
  FactorGraph g;
  std::vector<int> z(n), zd(n), zdd(n), order;
  for (int k = 0; k < n; ++k) {
    z[k] = g.add_variable({Kind::Q, 0, k}, 1);
    zd[k] = g.add_variable({Kind::Qd, 0, k}, 1);
    zdd[k] = g.add_variable({Kind::Qdd, 0, k}, 1);
    order.insert(order.end(), {z[k], zd[k], zdd[k]});
    prior(g, z[k], samples[k], opt.sigma_prior, "prior " + std::to_string(k));
    if (k == 0) continue;
    g.add_factor(std::make_unique<TrapezoidalFactor>(z[k - 1], z[k], zd[k - 1], zd[k], h,
                                                     opt.sigma_integration, k));
    g.add_factor(std::make_unique<TrapezoidalFactor>(zd[k - 1], zd[k], zdd[k - 1], zdd[k], h,
                                                     opt.sigma_integration, k));
    if (opt.sigma_jerk > 0)
      g.add_factor(std::make_unique<DifferenceFactor>(zdd[k - 1], zdd[k], opt.sigma_jerk, k));
  }
  if (opt.zd0) prior(g, zd[0], *opt.zd0, 0.0, "initial rate");
  if (opt.zdd0) prior(g, zdd[0], *opt.zdd0, 0.0, "initial acceleration");
  solve_gauss_newton(g, order, 2);  // linear: the second pass only confirms
  SmoothedCoordinate out{VecX(n), VecX(n), VecX(n)};
  for (int k = 0; k < n; ++k) {
    out.z[k] = g.variable(z[k]).value[0];
    out.zd[k] = g.variable(zd[k]).value[0];
    out.zdd[k] = g.variable(zdd[k]).value[0];
  }
  return out;
}

namespace {
std::vector<int> driven_coordinates(const Mechanism& m) {
  std::vector<int> v;
  for (const DriveBinding& d : m.drives) {
    if (d.kind != DriveSpec::Kind::Motion) continue;
    if (d.v < 0) throw SetupError("trajectory inverse dynamics: drives on loop joints not yet");
    v.push_back(d.v);
  }
  return v;
}

// The state at step k: driven coordinates from the smoothed motion, the rest by assembly from
// the previous step's positions and by velocity projection.
void step_state(const Mechanism& m, Data& data, const std::vector<int>& dv,
                const TrajectoryInverseResult& r, int k, VecX& q, VecX& qd) {
  const Model& model = m.model();
  std::vector<bool> locked(model.nv, false);
  qd.setZero(model.nv);
  for (size_t j = 0; j < dv.size(); ++j) {
    locked[dv[j]] = true;
    q[model.q_index[model.v_body[dv[j]]]] = r.z[j].z[k];
    qd[dv[j]] = r.z[j].zd[k];
  }
  const AssemblyResult a = assemble(model, data, m.compiled.loops, q, locked);
  if (!a.converged)
    throw SetupError("trajectory inverse dynamics: cannot assemble at t = " +
                     std::to_string(r.t[k]) + " (residual " + std::to_string(a.residual) + ")");
  project_velocity(model, data, m.compiled.loops, q, qd, locked);
}
}  // namespace

double weak_jerk_sigma(const MatX& z, double h) {
  double d3 = 0.0;
  for (Eigen::Index k = 3; k < z.rows(); ++k)
    d3 = std::max(
        d3, (z.row(k) - 3 * z.row(k - 1) + 3 * z.row(k - 2) - z.row(k - 3)).cwiseAbs().maxCoeff());
  return std::max(1e6 * d3 / (h * h), 1.0);
}

std::vector<std::string> driven_joint_names(const Mechanism& m) {
  std::vector<std::string> names;
  for (const DriveBinding& d : m.drives)
    if (d.kind == DriveSpec::Kind::Motion) names.push_back(m.spec.joints[d.user_joint].name);
  if (names.empty())
    throw SetupError(
        "trajectory inverse dynamics: the project has no motion-driven joint to give targets to");
  return names;
}

SmootherOptions trajectory_options(double sigma_prior, double sigma_integration,
                                   std::optional<double> sigma_jerk, const MatX& samples,
                                   double h) {
  auto bad = [](const std::string& what, double v) {
    throw std::invalid_argument(what + " (got " + format_number(v) + ")");
  };
  if (!(sigma_prior >= 0)) bad("sigma_prior must be >= 0", sigma_prior);
  if (!(sigma_integration > 0)) bad("sigma_integration must be > 0", sigma_integration);
  if (sigma_jerk && !(*sigma_jerk > 0)) bad("sigma_jerk must be > 0 or unset", *sigma_jerk);
  SmootherOptions opt;
  opt.sigma_prior = sigma_prior, opt.sigma_integration = sigma_integration;
  opt.sigma_jerk = sigma_jerk ? *sigma_jerk : weak_jerk_sigma(samples, h);
  return opt;
}

TrajectoryInverseResult trajectory_inverse_dynamics(const Mechanism& m, const MatX& samples,
                                                    double h, const SmootherOptions& opt,
                                                    EliminationOrder order) {
  const std::vector<int> dv = driven_coordinates(m);
  if (samples.cols() != static_cast<int>(dv.size()))
    throw std::invalid_argument("trajectory inverse dynamics: one column per motion drive");
  const Model& model = m.model();
  const int n = static_cast<int>(samples.rows());
  TrajectoryInverseResult r;
  r.t = VecX::LinSpaced(n, 0.0, h * (n - 1));
  for (size_t j = 0; j < dv.size(); ++j)
    r.z.push_back(smooth_coordinate(samples.col(static_cast<int>(j)), h, opt));
  r.force.resize(n, static_cast<int>(dv.size()));
  Data data(model);
  AppliedForces applied(m);
  VecX q = m.q0, qd, delta;
  for (int k = 0; k < n; ++k) {
    step_state(m, data, dv, r, k, q, qd);
    loop_position_errors(model, data, m.compiled.loops, delta);
    if (delta.size() > 0)
      r.max_loop_error = std::max(r.max_loop_error, delta.cwiseAbs().maxCoeff());
    applied.evaluate(m.drives, r.t[k], q, qd, data);
    InstantInput in;
    in.q = q, in.qd = qd, in.qdd = VecX::Zero(model.nv), in.tau = applied.tree_tau();
    if (applied.body()) in.f_ext = *applied.body();
    in.qdd_given.assign(model.nb + 1, false);
    for (size_t j = 0; j < dv.size(); ++j) {
      in.qdd_given[model.v_body[dv[j]]] = true;
      in.qdd[dv[j]] = r.z[j].zdd[k];
    }
    InstantDynamicsGraph g(model, m.compiled.loops, data, in);
    const InstantResult s = g.solve(order);
    for (size_t j = 0; j < dv.size(); ++j)
      r.force(k, static_cast<int>(j)) = s.tau[dv[j]] - in.tau[dv[j]];
  }
  return r;
}

}  // namespace articula::fg
