#include "core/estimation/parameters.hpp"

#include <cmath>

#include "core/io/project.hpp"
#include "core/io/run_setup.hpp"

namespace articula {

ParameterModel::ParameterModel(const MechanismSpec& spec, std::vector<std::string> pointers)
    : doc_(to_json(spec)), pointers_(std::move(pointers)), initial_(VecX::Zero(size())) {
  for (int i = 0; i < size(); ++i) {
    const std::string& p = pointers_[static_cast<std::size_t>(i)];
    nlohmann::json::json_pointer ptr;
    try {
      ptr = nlohmann::json::json_pointer(p);
    } catch (const nlohmann::json::exception&) {
      throw ProjectError(p, "--param: not a JSON pointer (e.g. /bodies/2/mass)");
    }
    if (!doc_.contains(ptr) || !doc_.at(ptr).is_number())
      throw ProjectError(p, "--param: the file has no number here to identify");
    initial_[i] = doc_.at(ptr).get<double>();
    for (int j = 0; j < i; ++j)
      if (pointers_[static_cast<std::size_t>(j)] == p) throw ProjectError(p, "--param given twice");
  }
}

StateSpace& ParameterModel::at(const VecX& values) {
  for (Built& b : built_)
    if (b.values == values) return *b.space;
  nlohmann::json doc = doc_;
  for (int i = 0; i < size(); ++i)
    doc[nlohmann::json::json_pointer(pointers_[static_cast<std::size_t>(i)])] = values[i];
  MechanismSpec spec;
  try {
    spec = parse_project(doc.dump()).spec;
  } catch (const ProjectError& e) {
    throw SetupError(std::string("identification left the valid range: ") + e.what());
  }
  Built b;
  b.values = values;
  b.mech = std::make_unique<Mechanism>(prepare_project(spec));
  b.space = std::make_unique<StateSpace>(*b.mech);
  built_.push_back(std::move(b));
  // A Gauss-Newton iteration uses the values, 2 per parameter and the line search's.
  if (built_.size() > static_cast<std::size_t>(2 * size() + 4)) built_.pop_front();
  return *built_.back().space;
}

nlohmann::json parameters_json(const ParameterModel& model, const VecX& values, const MatX& cov) {
  nlohmann::json out = nlohmann::json::object();
  for (int i = 0; i < model.size(); ++i)
    out[model.pointers()[static_cast<std::size_t>(i)]] = {
        {"value", values[i]}, {"sigma", std::sqrt(std::max(0.0, cov(i, i)))}};
  return out;
}

}  // namespace articula
