#pragma once
// RBDA 8.5 Method 2 on the spanning tree: H and C of the tree, the sparse L^T D L factor of H,
// and the constrained solve of G q̈ = g (constrained_dynamics.hpp, rank-revealing), with the
// augmented system as the fallback when H alone is singular (massless bodies the constraints
// move). Spatial vectors, or planar vectors (RBDA 2.16) for planar mechanisms: the same rows,
// H and C to round-off for a third of the arithmetic.
#include <memory>

#include "core/algorithms/constrained_dynamics.hpp"
#include "core/algorithms/planar_dynamics.hpp"
#include "core/sim/solvers/dynamics_solver.hpp"

namespace articula {

class Method2Solver final : public DynamicsSolver {
 public:
  // planar: the mechanism's PlanarModel (its kinematics replace the spatial ones), or null.
  Method2Solver(const SolverEnv& env, const PlanarModel* planar, bool minimum_norm);
  const char* name() const override { return planar_model_ ? "method2-planar" : "method2"; }
  const VecX& accelerations(const SolverInput& in) override;
  const VecX& resolve(const SolverInput& in) override;
  const VecX& resolve_multipliers(const SolverInput& in) override;
  void keep_factors() override { cd_.keep_rows = true; }
  const VecX& multipliers() const override { return cd_.mu; }
  int rank() const override { return cd_.rank; }
  ConstraintContext context(const SolverInput& in) const override;
  // The planar kinematics (the projection linearises on them too), or null.
  const PlanarModel* planar_model() const override { return planar_model_; }
  PlanarData* planar_data() const override { return planar_.get(); }

 private:
  void solve(const SolverInput& in);
  const PlanarModel* planar_model_ = nullptr;
  std::unique_ptr<PlanarData> planar_;
  ConstrainedDynamicsWork cd_;
};

}  // namespace articula
