#pragma once
// Trees whose only constraints prescribe coordinates (motion drives on tree joints): the plain
// articulated-body algorithm (RBDA Table 7.1) when nothing is prescribed, else hybrid dynamics
// (RBDA Table 9.3) with the prescribed joints as inverse-dynamics joints. The multipliers are the
// inverse-dynamics forces of the prescribed joints less their applied forces: the actuator forces.
#include "core/sim/solvers/dynamics_solver.hpp"

namespace articula {

class TreeSolver final : public DynamicsSolver {
 public:
  explicit TreeSolver(const SolverEnv& env);
  const char* name() const override { return "tree"; }
  const VecX& accelerations(const SolverInput& in) override;
  const VecX& multipliers() const override { return mu_; }
  int rank() const override { return static_cast<int>(mu_.size()); }

 private:
  std::vector<bool> fd_;  // per model body: a forward-dynamics joint
  VecX qdd_in_, mu_;
};

}  // namespace articula
