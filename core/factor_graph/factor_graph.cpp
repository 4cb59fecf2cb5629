#include "core/factor_graph/factor_graph.hpp"

#include <stdexcept>

namespace articula::fg {

std::string key_name(const Key& key) {
  static const char* const kPrefix[] = {"V",   "A",      "F",    "q",    "qd", "qdd",
                                        "tau", "lambda", "qddL", "tauL", "x"};
  std::string s = kPrefix[static_cast<int>(key.kind)] + std::to_string(key.index);
  if (key.step >= 0) s += "@" + std::to_string(key.step);
  return s;
}

int FactorGraph::add_variable(const Key& key, int dim, const std::string& label) {
  Variable v;
  v.key = key;
  v.dim = dim;
  v.value = VecX::Zero(dim);
  v.label = label;
  vars_.push_back(std::move(v));
  return num_variables() - 1;
}

void FactorGraph::set_known(int id, const VecX& value) {
  set_value(id, value);
  vars_[id].known = true;
}

void FactorGraph::set_value(int id, const VecX& value) {
  if (value.size() != vars_[id].dim)
    throw std::invalid_argument("factor graph: wrong size for " + key_name(vars_[id].key));
  vars_[id].value = value;
}

int FactorGraph::add_factor(std::unique_ptr<Factor> f) {
  for (int v : f->vars())
    if (v < 0 || v >= num_variables())
      throw std::invalid_argument("factor graph: " + f->name() + " refers to no variable");
  factors_.push_back(std::move(f));
  return num_factors() - 1;
}

int FactorGraph::find(const Key& key) const {
  for (int i = 0; i < num_variables(); ++i)
    if (vars_[i].key == key) return i;
  return -1;
}

std::vector<VecX> FactorGraph::values() const {
  std::vector<VecX> x;
  x.reserve(vars_.size());
  for (const Variable& v : vars_) x.push_back(v.value);
  return x;
}

std::vector<int> FactorGraph::unknowns() const {
  std::vector<int> out;
  for (int i = 0; i < num_variables(); ++i)
    if (!vars_[i].known && vars_[i].dim > 0) out.push_back(i);
  return out;
}

}  // namespace articula::fg
