#pragma once
// Instant dynamics as one factor graph (Xie-Dellaert §IV-VII): at a known state q, q̇ and, per
// joint, either its acceleration or its force, the graph of twist, acceleration, wrench and
// torque factors (plus loop factors for closed loops) is solved for everything else. Inverse,
// forward and hybrid dynamics are the same graph with different known variables; RNEA, CRBA and
// ABA are elimination orders of it (Figs. 5 and 7), COLAMD and AMD structural ones.
//
// Redundant actuation (more given accelerations than degrees of freedom): with consistent
// values the solved forces are undetermined; soft minimum-torque priors (σ per actuator, i.e.
// weights 1/σ²) make them the weighted minimum-norm split while every equation holds exactly.
// Inconsistent values are an EliminationError naming the equations that contradict.
#include <string>
#include <vector>

#include "core/algorithms/loop_geometry.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/factor_graph/dynamics_factors.hpp"
#include "core/factor_graph/elimination.hpp"
#include "core/model/data.hpp"
#include "core/model/loop_joint.hpp"

namespace articula::fg {

enum class EliminationOrder { Rnea, Crba, Aba, Colamd, Amd, MinDegree };
// "rnea", "crba", "aba", "colamd", "amd", "mindegree"; throws std::invalid_argument otherwise.
EliminationOrder order_from_name(const std::string& name);
const char* order_name(EliminationOrder order);
inline constexpr EliminationOrder kAllOrders[] = {
    EliminationOrder::Rnea,   EliminationOrder::Crba, EliminationOrder::Aba,
    EliminationOrder::Colamd, EliminationOrder::Amd,  EliminationOrder::MinDegree};

struct LoopDriveInput {
  int loop = 0;        // index into the loop joints (1-DoF loop joints only)
  double qdd = 0.0;    // its prescribed acceleration
  double sigma = 0.0;  // > 0: soft minimum-force prior on its force (redundant actuation)
};

// What is known at the instant. Vectors over tree coordinates have nv entries.
struct InstantInput {
  VecX q, qd;
  std::vector<bool> qdd_given;  // per model body (NB+1): joint i's q̈ is given, its τ solved
  VecX qdd, tau;                // the given values (the others are ignored)
  ExternalForces f_ext;         // per body (NB+1), base coordinates; empty for none
  std::vector<LoopDriveInput> loop_drives;
  // Per model body (NB+1, or empty): > 0 puts a soft prior τ_i = 0 with this σ on a joint whose
  // q̈ is given (minimum-torque split of redundant actuators; weights 1/σ²).
  std::vector<double> torque_sigma;
  // > 0: soft priors λ = 0 on the loop-joint forces, for loops whose constraint forces the
  // equations leave indeterminate beyond the planar rows (spatially redundant loops).
  double loop_force_sigma = 0.0;
};

struct InstantResult {
  VecX qdd, tau;                       // every tree coordinate (nv)
  std::vector<VecX> loop_force;        // λ per loop joint (nc, successor joint frame, along T)
  std::vector<double> loop_drive_tau;  // per LoopDriveInput
  int iterations = 0;
};

class InstantDynamicsGraph {
 public:
  // Runs forward kinematics at (q, q̇) in `data` and builds the graph.
  InstantDynamicsGraph(const Model& model, const std::vector<LoopJoint>& loops, Data& data,
                       const InstantInput& in);
  const FactorGraph& graph() const { return graph_; }
  std::vector<int> order(EliminationOrder kind) const;
  // Eliminates in `kind`'s order and back-substitutes. Throws EliminationError.
  InstantResult solve(EliminationOrder kind, BayesNet* net = nullptr);

  // Variable ids (-1 where absent): per body A, F, V; per joint q̈, τ; per loop λ.
  int accel(int i) const { return A_[i]; }
  int wrench(int i) const { return F_[i]; }
  int twist(int i) const { return V_[i]; }
  int qdd(int i) const { return qdd_[i]; }
  int tau(int i) const { return tau_[i]; }
  int loop_force(int k) const { return lambda_[k]; }

 private:
  void add_variables(const InstantInput& in);
  void add_body_factors(const InstantInput& in);
  void add_loop_factors(const InstantInput& in);
  void add_loop(int k, const InstantInput& in);
  void add_loop_variables(int k, const InstantInput& in, const LoopMotion& m);
  std::vector<LoopContribution> loop_contributions(int body) const;
  InstantResult collect() const;

  const Model& model_;
  const std::vector<LoopJoint>& loops_;
  Data& data_;
  FactorGraph graph_;
  std::vector<int> A_, F_, V_, qdd_, tau_;         // per body (NB+1)
  std::vector<int> lambda_, loop_qdd_, loop_tau_;  // per loop joint
  std::vector<MatX> loop_W_;                       // per loop joint: [T P] (6 x nc (+1))
  std::vector<Transform> loop_XS_, loop_XP_;       // X_S and X_sp X_P
  std::vector<int> loop_drive_of_;                 // per loop: its LoopDriveInput, or -1
};

}  // namespace articula::fg
