#include "core/factor_graph/ceres_solve.hpp"

#include <ceres/ceres.h>

namespace articula::fg {

namespace {
// A factor as a Ceres cost function: parameter blocks are its variables in order.
class FactorCost final : public ceres::CostFunction {
 public:
  FactorCost(const Factor& f, const FactorGraph& g, double weight)
      : f_(f), weight_(weight), dims_(g.num_variables(), 0) {
    set_num_residuals(f.rows());
    for (int v : f.vars()) {
      mutable_parameter_block_sizes()->push_back(g.variable(v).dim);
      dims_[v] = g.variable(v).dim;
    }
  }
  bool Evaluate(double const* const* params, double* residuals, double** jacobians) const override {
    std::vector<VecX> x(dims_.size());
    for (size_t k = 0; k < f_.vars().size(); ++k) {
      const int v = f_.vars()[k];
      x[v] = Eigen::Map<const VecX>(params[k], dims_[v]);
    }
    VecX r;
    std::vector<MatX> J;
    f_.evaluate(x, r, jacobians ? &J : nullptr);
    Eigen::Map<VecX>(residuals, r.size()) = weight_ * r;
    if (!jacobians) return true;
    for (size_t k = 0; k < J.size(); ++k) {
      if (!jacobians[k]) continue;
      using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      Eigen::Map<RowMajor>(jacobians[k], J[k].rows(), J[k].cols()) = weight_ * J[k];
    }
    return true;
  }

 private:
  const Factor& f_;
  double weight_;
  std::vector<int> dims_;
};
}  // namespace

bool have_ceres() {
  return true;
}

CeresReport solve_with_ceres(FactorGraph& graph, double hard_weight, int max_iterations) {
  std::vector<VecX> x = graph.values();
  ceres::Problem::Options popt;
  popt.cost_function_ownership = ceres::TAKE_OWNERSHIP;
  ceres::Problem problem(popt);
  for (int v = 0; v < graph.num_variables(); ++v)
    if (graph.variable(v).dim > 0) problem.AddParameterBlock(x[v].data(), graph.variable(v).dim);
  for (int fi = 0; fi < graph.num_factors(); ++fi) {
    const Factor& f = graph.factor(fi);
    const double w = f.sigma() > 0 ? 1.0 / f.sigma() : hard_weight;
    std::vector<double*> blocks;
    for (int v : f.vars()) blocks.push_back(x[v].data());
    problem.AddResidualBlock(new FactorCost(f, graph, w), nullptr, blocks);
  }
  for (int v = 0; v < graph.num_variables(); ++v)
    if (graph.variable(v).known && graph.variable(v).dim > 0)
      problem.SetParameterBlockConstant(x[v].data());
  ceres::Solver::Options opt;
  opt.linear_solver_type = ceres::SPARSE_NORMAL_CHOLESKY;
  opt.sparse_linear_algebra_library_type = ceres::SUITE_SPARSE;
  opt.max_num_iterations = max_iterations;
  opt.function_tolerance = 1e-16;
  opt.gradient_tolerance = 1e-20;
  opt.parameter_tolerance = 1e-14;
  opt.logging_type = ceres::SILENT;
  ceres::Solver::Summary summary;
  ceres::Solve(opt, &problem, &summary);
  for (int v : graph.unknowns()) graph.set_value(v, x[v]);
  return {static_cast<int>(summary.iterations.size()), summary.initial_cost, summary.final_cost,
          summary.IsSolutionUsable(), summary.BriefReport()};
}

}  // namespace articula::fg
