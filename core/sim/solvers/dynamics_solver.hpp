#pragma once
// Forward dynamics of the spanning tree under the constraint set, behind one interface, chosen
// once when a simulation is set up (contract-additions-2 §3): hybrid dynamics for trees whose
// only constraints prescribe coordinates (RBDA 9.3), RBDA 8.5 Method 2 in spatial or planar
// vectors (minimum-norm multipliers on request), and RBDA 8.13's sparse-matrix method. Solvers
// see the constraints only as rows G q̈ = g (or their body-level form): never which kinds exist.
#include <memory>
#include <string>

#include "core/algorithms/rnea.hpp"
#include "core/sim/constraints/constraint_set.hpp"
#include "core/sim/integrators.hpp"

namespace articula {

struct SimulationOptions;
class ConstraintEmbedding;

enum class SolverChoice { Auto, Method2, Sparse, Embedding, Operator };
// "auto", "method2", "sparse", "embedding", "operator"; throws std::invalid_argument otherwise.
SolverChoice solver_from_name(const std::string& name);
const char* solver_name(SolverChoice choice);

// What every solver works with: the mechanism, the workspace, the constraints and the laws.
struct SolverEnv {
  const Mechanism& mech;
  Data& data;
  ConstraintSet& constraints;
  const std::vector<DriveBinding>& drives;
  double alpha = 0.0;                       // Baumgarte gains α = β (RBDA Eq. 8.22)
  Integrator integrator = Integrator::RK4;  // what auto's choice weighs the solvers' steps for
};

// The inputs of one evaluation: state, applied generalized forces on tree coordinates, and
// applied body forces (base coordinates; null for none).
struct SolverInput {
  double t = 0.0;
  const VecX& q;
  const VecX& v;
  const VecX& tau;
  const ExternalForces* f_ext = nullptr;
};

class DynamicsSolver {
 public:
  virtual ~DynamicsSolver() = default;
  virtual const char* name() const = 0;
  // q̈ at the input state (valid until the next call). Throws SetupError when the dynamics are
  // singular (named joints).
  virtual const VecX& accelerations(const SolverInput& in) = 0;
  // q̈ for another in.tau right after accelerations() at the same state (t, q, v, body forces
  // and rows as then, data untouched since): solvers that kept their factors (keep_factors())
  // reuse them, with the result a full call would give; the others make that full call.
  virtual const VecX& resolve(const SolverInput& in) { return accelerations(in); }
  // The multipliers resolve() would give (bit for bit), without its q̈ where a solver can skip
  // it (then q̈ is stale until the next accelerations() or resolve()).
  virtual const VecX& resolve_multipliers(const SolverInput& in) {
    resolve(in);
    return multipliers();
  }
  // Keep what resolve() reuses (a copy per accelerations() call: asked for only where used).
  virtual void keep_factors() {}
  // Multipliers of the constraint set's rows at the last call: generalized constraint forces
  // G^T μ (for rows that prescribe tree coordinates, the actuator forces).
  virtual const VecX& multipliers() const = 0;
  // Power of the constraint set's rows at the last call, Σ μ_r × (row r's rate) as
  // ConstraintSet::power gives it (the drives' work: closures and couplings do none).
  virtual double constraint_power(const SolverInput& in) const;
  // Numerical rank of the rows at the last call (rows() when the solver does not reveal it).
  virtual int rank() const = 0;
  // Whether the last call's multipliers are the only ones (the rows it solved are independent and
  // the rows it left out structurally zero, μ = 0 there), so they are the minimum-norm split the
  // reporting solver would give and rank() is the rank that check would see. Then the simulation
  // reports joint forces from this solver instead of running dense Method 2 again.
  virtual bool multipliers_unique() const { return false; }
  // Whether multipliers_unique() can be true for this solver at all (then the simulation asks it
  // first when it reports; the others go straight to the reporting solver).
  virtual bool tells_unique_multipliers() const { return false; }
  // The context the constraint kinds saw at the last call (for power and force recovery).
  virtual ConstraintContext context(const SolverInput& in) const;
  // The planar kinematics this solver runs on (the projection linearises on the same), or null.
  virtual const PlanarModel* planar_model() const { return nullptr; }
  virtual PlanarData* planar_data() const { return nullptr; }
  // Whether the projection after each step takes the mass-weighted steps of the spatial operator
  // algebra (operator_projection.hpp) rather than the Euclidean ones through a dense J J^T.
  virtual bool mass_weighted_projection() const { return false; }
  // The constraint embedding when this solver works in minimal coordinates (the simulation
  // then steps the independent coordinates and solves for the rest), or null.
  virtual ConstraintEmbedding* embedding() { return nullptr; }

 protected:
  explicit DynamicsSolver(const SolverEnv& env) : env_(env) {}
  SolverEnv env_;
};

// The solver for a choice. Auto picks by structure and predicted cost. A forced choice that does
// not apply to the mechanism throws SetupError saying why (CLI exit 3).
std::unique_ptr<DynamicsSolver> make_solver(const SolverEnv& env, SolverChoice choice,
                                            bool planar_algebra, bool body_forces);
// Spatial Method 2 with minimum-norm multipliers: what reported joint forces and the rank check
// use, whatever solver steps the simulation.
std::unique_ptr<DynamicsSolver> make_reporting_solver(const SolverEnv& env);
// The operator solver where it applies to a mechanism with loops (else null): its multipliers,
// when unique, are the reporting solver's at a fraction of the cost on large mechanisms.
std::unique_ptr<DynamicsSolver> make_quick_reporting_solver(const SolverEnv& env);

}  // namespace articula
