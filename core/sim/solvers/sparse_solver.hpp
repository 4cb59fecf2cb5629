#pragma once
// RBDA 8.13's sparse-matrix method (sparse_dynamics.hpp): the bodies' own equations with a
// block-sparse L S L^T, O(n) where every spanning tree couples the loops densely (the ladder of
// RBDA Fig. 8.4). The constraints enter in their body-level form. When a pivot fails (a singular
// configuration) the step falls back to Method 2, which reveals rank.
#include <memory>

#include "core/algorithms/sparse_planar_kinematics.hpp"
#include "core/sim/solvers/method2_solver.hpp"

namespace articula {

class SparseSolver final : public DynamicsSolver {
 public:
  SparseSolver(const SolverEnv& env, std::shared_ptr<const SparseDynamicsModel> model);
  const char* name() const override { return "sparse"; }
  const VecX& accelerations(const SolverInput& in) override;
  const VecX& multipliers() const override {
    return fell_back_ ? fallback_.multipliers() : work_.mu;
  }
  int rank() const override { return fell_back_ ? fallback_.rank() : env_.constraints.rows(); }
  // A factorisation that succeeded had no failed pivot: the matrix of Eq. 8.64 is nonsingular,
  // so the multipliers are unique, and the rows the method leaves out (a planar loop's
  // out-of-plane rows) are zero, the minimum-norm choice. Reporting then needs no other solver
  // (on the 1,000-body ladder the operator solver's Λ of 200 rows cost 3.6 steps per sample).
  bool multipliers_unique() const override {
    return fell_back_ ? fallback_.multipliers_unique() : only_its_rows_;
  }
  bool tells_unique_multipliers() const override { return only_its_rows_; }
  bool mass_weighted_projection() const override { return weighted_projection_; }
  // The Euclidean step forms J J^T (m^2 n / 2 multiply-adds for m rows, n coordinates); the
  // mass-weighted one costs about 500 n (ABA's passes and three solves by the operators): it is
  // taken from this many rows (ladder1000, 200 rows: 45.8 -> 5 s per simulated second; at
  // ladder100's 20 it was 20 % slower).
  static constexpr int kWeightedProjectionRows = 32;

 private:
  std::shared_ptr<const SparseDynamicsModel> model_;
  SparseDynamicsWork work_;
  BodyLevelRows rows_;
  Method2Solver fallback_;
  bool fell_back_ = false;
  bool weighted_projection_ = false;
  bool only_its_rows_ = false;  // the set holds loop and motion-drive rows only (no unilaterals)
  // Planar mechanisms whose joints planar_dynamics supports, with loop and tree-drive rows only:
  // the stages run on planar kinematics (sparse_planar_kinematics.hpp), not spatial ones.
  const PlanarModel* planar_ = nullptr;
  std::unique_ptr<PlanarData> planar_data_;
};

}  // namespace articula
