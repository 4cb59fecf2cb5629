// Simulation in minimal coordinates with constraint embedding (issue 18, Jain Part II): the
// integrators advance every coordinate, but only the independent ones carry the state. At every
// stage and after every step the dependent coordinates and all velocities are solved from the
// independent ones (ConstraintEmbedding::solve_dependent, Newton from the present values), so
// the RK4 / Euler / RK45 update of the independent coordinates is the method applied to the
// minimal-coordinate ODE, and there is no projection and no Baumgarte term: the loop error is
// the residual of those position solves.
#include <string>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/embedding/partition.hpp"
#include "core/sim/simulation.hpp"

namespace articula {

void Simulation::embed_state(double t, VecX& q, VecX& qd) {
  if (stage_cache_.find_closed(t, q, qd)) return;  // closed before from the same key
  ConstraintContext c{mech_, drives_, data_};
  c.t = t;
  embedding_->solve_dependent(c, mech_.closure_tolerance(opt_.projection_tolerance), q, qd);
  stage_cache_.remember_closed(t, q, qd);
}

void Simulation::monitor_embedding() {
  // Singularity monitoring (Jain §9): a new choice of independent coordinates between steps
  // when a node's Y₁ has become ill-conditioned; the state itself does not change. The rows G
  // are formed only when the last position solve's factors (at this state) say the dependent
  // block has lost conditioning, at a looser threshold than monitor()'s own.
  if (!embedding_->closure_watch()) return;
  forward_kinematics_bias(model_, data_, q_, qd_);
  ConstraintContext c{mech_, drives_, data_};
  c.t = t_;
  c.q = &q_;
  c.qd = &qd_;
  constraints_.acceleration(c);
  if (embedding_->monitor(constraints_.G(), "at t = " + std::to_string(t_)) > 0)
    stage_cache_.reset(model_, embedding_->independent());
}

}  // namespace articula
