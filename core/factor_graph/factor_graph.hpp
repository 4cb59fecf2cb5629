#pragma once
// A factor graph (Xie-Dellaert §III, Blanco-Claraco §4): variables (vectors with a kind, an
// index and a time step) and factors, each a residual r(x) of some variables with its analytic
// Jacobians. A factor is hard (an equation, r = 0 exactly) or soft (a Gaussian prior or
// measurement, weighted by 1/σ). Variables may be known (fixed values, the paper's square
// nodes): factors then move their terms to the right-hand side. The graph is solved by variable
// elimination (elimination.hpp) or, when the Ceres adapter is built, by Ceres (ceres_solve.hpp).
#include <memory>
#include <string>
#include <vector>

#include "core/spatial/types.hpp"

namespace articula::fg {

// What a variable stands for; the names follow the papers (V twist, A twist acceleration,
// F wrench, λ loop-joint constraint force).
enum class Kind { Twist, Accel, Wrench, Q, Qd, Qdd, Tau, LoopForce, LoopQdd, LoopTau, Other };

struct Key {
  Kind kind = Kind::Other;
  int index = 0;  // body, joint or loop-joint index (meaning per kind)
  int step = -1;  // time step, -1 for an instant graph
  bool operator==(const Key&) const = default;
};
// "V3", "A3", "F3", "q2", "qd2", "qdd2", "tau2", "lambda1", "qddL1", "tauL1" (with "@k" for
// step k): the names of the Graphviz export and the diagnostics.
std::string key_name(const Key& key);

struct Variable {
  Key key;
  int dim = 0;
  bool known = false;
  VecX value;         // current estimate, or the known value
  std::string label;  // what the user calls it (joint or body name), may be empty
};

class Factor {
 public:
  virtual ~Factor() = default;
  // Residual (rows()) and, when J is given, one Jacobian block per variable of vars(),
  // rows() x dim, at the values in `x` (indexed by variable id).
  virtual void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const = 0;
  virtual std::string name() const = 0;  // e.g. "wrench B3"
  const std::vector<int>& vars() const { return vars_; }
  int rows() const { return rows_; }
  // 0 for a hard factor; else the standard deviation of every residual entry.
  double sigma() const { return sigma_; }
  void set_sigma(double s) { sigma_ = s; }

 protected:
  Factor(std::vector<int> vars, int rows, double sigma = 0.0)
      : vars_(std::move(vars)), rows_(rows), sigma_(sigma) {}
  std::vector<int> vars_;
  int rows_ = 0;
  double sigma_ = 0.0;
};

class FactorGraph {
 public:
  // Returns the new variable's id.
  int add_variable(const Key& key, int dim, const std::string& label = {});
  void set_known(int id, const VecX& value);
  void set_value(int id, const VecX& value);
  int add_factor(std::unique_ptr<Factor> f);
  int find(const Key& key) const;  // -1 when absent

  int num_variables() const { return static_cast<int>(vars_.size()); }
  int num_factors() const { return static_cast<int>(factors_.size()); }
  const Variable& variable(int id) const { return vars_[id]; }
  const Factor& factor(int id) const { return *factors_[id]; }
  std::vector<VecX> values() const;
  std::vector<int> unknowns() const;  // ids of the variables that are not known

 private:
  std::vector<Variable> vars_;
  std::vector<std::shared_ptr<const Factor>> factors_;  // immutable: copies of a graph share them
};

}  // namespace articula::fg
