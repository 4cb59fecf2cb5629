#include "core/sim/solvers/embedding_solver.hpp"

#include <stdexcept>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/sim/diagnostics.hpp"

namespace articula {

EmbeddingSolver::EmbeddingSolver(const SolverEnv& env, EmbeddingForm form) : DynamicsSolver(env) {
  env_.alpha = 0.0;  // exact by construction: no stabilisation terms in the rows
  const Model& model = env.mech.model();
  forward_kinematics_bias(model, env.data, env.mech.q0, env.mech.qd0);
  const VecX tau = VecX::Zero(model.nv);
  ConstraintContext c = DynamicsSolver::context(SolverInput{0.0, env.mech.q0, env.mech.qd0, tau});
  env.constraints.acceleration(c);
  embedding_ =
      std::make_unique<ConstraintEmbedding>(env.mech, env.constraints, env.constraints.G());
  embedding_->choose(env.constraints.G(), "at the assembled state");
  rank_ = env.constraints.rows();
  if (form == EmbeddingForm::Articulated) try {
      aba_ = std::make_unique<EmbeddedAba>(model, *embedding_);
    } catch (const SetupError&) {  // a node hanging from two bodies: the dense form
    }
}

const VecX& EmbeddingSolver::accelerations(const SolverInput& in) {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  forward_kinematics_bias(model, data, in.q, in.v);
  env_.constraints.acceleration(context(in));
  embedding_->factor(env_.constraints.G(), false);   // conditioning: Simulation's monitor()
  embedding_->particular(env_.constraints.g(), y_);  // Ẋ θ̇_R and the drives' q̈
  if (aba_)
    articulated(in);
  else
    dense(in);
  mu_factors_ = -1;
  return data.qdd;
}

const VecX& EmbeddingSolver::multipliers() const {
  if (mu_factors_ < 0) {
    embedding_->multipliers(r_, mu_);
    mu_factors_ = embedding_->factorizations();
  } else if (mu_factors_ != embedding_->factorizations()) {
    // The factors have moved on (a monitor() since the call): μ from the call's own ones only.
    throw std::logic_error("EmbeddingSolver::multipliers: asked for after the factors changed");
  }
  return mu_;
}

double EmbeddingSolver::constraint_power(const SolverInput& in) const {
  return r_.dot(in.v);
}

void EmbeddingSolver::articulated(const SolverInput& in) {
  if (aba_->solve(env_.data, *embedding_, y_, in.q, in.v, in.tau, in.f_ext, r_)) return;
  // A node's D_S is not positive definite: the dense form says why (or solves, if only the
  // node's local factor failed).
  forward_kinematics_bias(env_.mech.model(), env_.data, in.q, in.v);
  dense(in);
}

void EmbeddingSolver::dense(const SolverInput& in) {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  crba_from_kinematics(model, data);
  nonlinear_effects_from_bias_kinematics(model, data, in.f_ext);
  const MatX& X = embedding_->X();
  HX_.noalias() = data.H * X;
  M_.noalias() = X.transpose() * HX_;
  f_ = in.tau - data.C;
  f_.noalias() -= data.H * y_;
  if (M_.rows() > 0) {  // none when drives prescribe every degree of freedom
    ldlt_.compute(M_);
    if (ldlt_.info() != Eigen::Success || !(ldlt_.vectorD().minCoeff() > 0.0))
      check_mass_matrix(env_.mech, in.q, env_.constraints.prescribed_coordinates(), true,
                        " at t = " + std::to_string(in.t) + " (embedded mass matrix singular)");
    u_ = ldlt_.solve(X.transpose() * f_);
  } else {
    u_.resize(0);
  }
  data.qdd = y_;
  data.qdd.noalias() += X * u_;
  r_ = data.C - in.tau;  // G^T μ = H q̈ + C - τ
  r_.noalias() += data.H * data.qdd;
}

}  // namespace articula
