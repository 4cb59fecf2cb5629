#include "core/sim/solvers/sparse_solver.hpp"

#include "core/algorithms/kinematics.hpp"

namespace articula {

SparseSolver::SparseSolver(const SolverEnv& env, std::shared_ptr<const SparseDynamicsModel> model)
    : DynamicsSolver(env), model_(std::move(model)), fallback_(env, nullptr, false) {
  work_.resize(*model_);
  int rows = model_->tree_drives + model_->loop_drives;  // the rows the projection solves
  for (const LoopJoint& l : env.mech.compiled.loops)
    rows += env.mech.planar ? 3 - l.joint.nv() : l.joint.nc();  // planar: in-plane rows only
  weighted_projection_ = rows >= kWeightedProjectionRows;
  only_its_rows_ =
      env.constraints.rows() == model_->loop_rows + model_->tree_drives + model_->loop_drives;
  const PlanarModel* pm = env.mech.planar_dynamics.get();
  if (pm && only_its_rows_ && sparse_planar_applies(*model_, *pm, env.mech.compiled.loops)) {
    planar_ = pm;
    planar_data_ = std::make_unique<PlanarData>(*pm);
  }
}

const VecX& SparseSolver::accelerations(const SolverInput& in) {
  const Model& model = env_.mech.model();
  Data& data = env_.data;
  if (planar_ && !in.f_ext) {  // the tree drives' rows read their laws only, not data
    env_.constraints.body_level(context(in), rows_);
    fell_back_ = !sparse_planar_forward_dynamics(
        *model_, *planar_, *planar_data_, data, env_.mech.compiled.loops, in.q, in.v, in.tau,
        env_.alpha, env_.alpha, rows_.tree_qdd.data(), work_);
    if (fell_back_) return fallback_.accelerations(in);
    return data.qdd;
  }
  forward_kinematics_bias(model, data, in.q, in.v);
  env_.constraints.body_level(context(in), rows_);
  const SparseDriveInput drives{rows_.tree_qdd.data(), rows_.loop_P.data(), rows_.loop_g.data()};
  fell_back_ = !sparse_forward_dynamics_from_kinematics(
      model, *model_, data, env_.mech.compiled.loops, in.tau, env_.alpha, env_.alpha, drives, work_,
      in.f_ext);
  if (fell_back_) return fallback_.accelerations(in);
  return data.qdd;
}

}  // namespace articula
