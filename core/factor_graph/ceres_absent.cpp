// Built instead of ceres_solve.cpp when Ceres Solver is not installed.
#include <stdexcept>

#include "core/factor_graph/ceres_solve.hpp"

namespace articula::fg {

bool have_ceres() {
  return false;
}

CeresReport solve_with_ceres(FactorGraph&, double, int) {
  throw std::runtime_error("built without Ceres Solver (install libceres-dev)");
}

}  // namespace articula::fg
