#include "core/factor_graph/dynamics_graph.hpp"

#include <stdexcept>

#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/algorithms/loop_geometry.hpp"
#include "core/factor_graph/dynamics_factors.hpp"
#include "core/factor_graph/ordering.hpp"
#include "core/spatial/cross.hpp"

namespace articula::fg {

namespace {
const char* const kOrderNames[] = {"rnea", "crba", "aba", "colamd", "amd", "mindegree"};
}

EliminationOrder order_from_name(const std::string& name) {
  for (int i = 0; i < 6; ++i)
    if (name == kOrderNames[i]) return static_cast<EliminationOrder>(i);
  throw std::invalid_argument("unknown elimination order '" + name +
                              "' (rnea, crba, aba, colamd, amd, mindegree)");
}

const char* order_name(EliminationOrder order) {
  return kOrderNames[static_cast<int>(order)];
}

InstantDynamicsGraph::InstantDynamicsGraph(const Model& model, const std::vector<LoopJoint>& loops,
                                           Data& data, const InstantInput& in)
    : model_(model), loops_(loops), data_(data) {
  if (in.q.size() != model.nq || in.qd.size() != model.nv ||
      static_cast<int>(in.qdd_given.size()) != model.nb + 1)
    throw std::invalid_argument("instant dynamics: state sizes do not match the model");
  forward_kinematics(model, data, in.q, in.qd);
  add_variables(in);
  add_loop_factors(in);  // before the bodies: their wrench factors take the loop forces
  add_body_factors(in);
}

void InstantDynamicsGraph::add_variables(const InstantInput& in) {
  const int nb = model_.nb;
  A_.assign(nb + 1, -1), F_.assign(nb + 1, -1), V_.assign(nb + 1, -1);
  qdd_.assign(nb + 1, -1), tau_.assign(nb + 1, -1);
  for (int i = 1; i <= nb; ++i) {
    const std::string& name = model_.body_names[i];
    V_[i] = graph_.add_variable({Kind::Twist, i}, 6, name);
    graph_.set_known(V_[i], data_.v[i]);  // the twists follow from q, q̇ (Xie-Dellaert §III-B)
    A_[i] = graph_.add_variable({Kind::Accel, i}, 6, name);
    F_[i] = graph_.add_variable({Kind::Wrench, i}, 6, name);
    const int nv = model_.joints[i].nv(), v0 = model_.v_index[i];
    if (nv == 0) continue;
    const std::string& joint = model_.joint_names[i];
    qdd_[i] = graph_.add_variable({Kind::Qdd, i}, nv, joint);
    tau_[i] = graph_.add_variable({Kind::Tau, i}, nv, joint);
    if (in.qdd_given[i])
      graph_.set_known(qdd_[i], in.qdd.segment(v0, nv));
    else
      graph_.set_known(tau_[i], in.tau.segment(v0, nv));
    const bool prior = in.qdd_given[i] && !in.torque_sigma.empty() && in.torque_sigma[i] > 0;
    if (prior)
      graph_.add_factor(std::make_unique<PriorFactor>(tau_[i], std::vector<int>{0}, VecX::Zero(1),
                                                      in.torque_sigma[i], "min-torque " + joint));
  }
}

void InstantDynamicsGraph::add_body_factors(const InstantInput& in) {
  for (int i = 1; i <= model_.nb; ++i) {
    const int p = model_.parent[i];
    const JointCalc& jc = data_.jc[i];
    graph_.add_factor(std::make_unique<AccelFactor>(i, A_[i], p > 0 ? A_[p] : -1, qdd_[i], V_[i],
                                                    data_.Xup[i], jc.S, jc.vJ, jc.cJ));
    std::vector<int> Fc;
    std::vector<Transform> Xc;
    for (int c : model_.children[i]) Fc.push_back(F_[c]), Xc.push_back(data_.Xup[c]);
    const Motion g = data_.X0[i].apply(model_.a_grav);
    const Force fx = in.f_ext.empty() ? Force::Zero() : data_.X0[i].apply_force(in.f_ext[i]);
    graph_.add_factor(std::make_unique<WrenchFactor>(
        i, F_[i], A_[i], V_[i], Fc, Xc, loop_contributions(i), model_.inertia[i], g, fx));
    if (tau_[i] >= 0) graph_.add_factor(std::make_unique<TorqueFactor>(i, tau_[i], F_[i], jc.S));
  }
}

std::vector<LoopContribution> InstantDynamicsGraph::loop_contributions(int body) const {
  std::vector<LoopContribution> out;
  for (size_t k = 0; k < loops_.size(); ++k) {
    const LoopJoint& l = loops_[k];
    for (int side = 0; side < 2; ++side) {
      if ((side == 0 ? l.successor : l.predecessor) != body) continue;
      const Transform& X = side == 0 ? loop_XS_[k] : loop_XP_[k];
      const MatX M = (side == 0 ? 1.0 : -1.0) * X.matrix().transpose() * loop_W_[k];
      const int nc = l.joint.nc();
      out.push_back({lambda_[k], M.leftCols(nc)});
      if (loop_tau_[k] >= 0) out.push_back({loop_tau_[k], M.rightCols(1)});
    }
  }
  return out;
}

void InstantDynamicsGraph::add_loop_factors(const InstantInput& in) {
  const size_t n = loops_.size();
  lambda_.assign(n, -1), loop_qdd_.assign(n, -1), loop_tau_.assign(n, -1);
  loop_drive_of_.assign(n, -1);
  loop_W_.resize(n), loop_XS_.resize(n), loop_XP_.resize(n);
  for (size_t d = 0; d < in.loop_drives.size(); ++d) {
    const int k = in.loop_drives[d].loop;
    if (k < 0 || k >= static_cast<int>(n) || loops_[k].joint.nv() != 1)
      throw std::invalid_argument("instant dynamics: a loop drive on no 1-DoF loop joint");
    loop_drive_of_[k] = static_cast<int>(d);
  }
  for (size_t k = 0; k < n; ++k) add_loop(static_cast<int>(k), in);
}

// Variables λ_k (and q̈_L, τ_L when driven) and the force directions W_k = [T_k P_k].
void InstantDynamicsGraph::add_loop_variables(int k, const InstantInput& in, const LoopMotion& m) {
  const LoopJoint& l = loops_[k];
  VecN delta;
  Mat6X T;
  loop_jcalc(l.joint, m.X_sp, delta, T);
  const int nc = l.joint.nc(), d = loop_drive_of_[k];
  loop_W_[k].resize(6, nc + (d >= 0 ? 1 : 0));
  loop_W_[k].leftCols(nc) = T;
  lambda_[k] = graph_.add_variable({Kind::LoopForce, k}, nc, l.name);
  if (in.loop_force_sigma > 0) {
    std::vector<int> all(nc);
    for (int c = 0; c < nc; ++c) all[c] = c;
    graph_.add_factor(std::make_unique<PriorFactor>(lambda_[k], all, VecX::Zero(nc),
                                                    in.loop_force_sigma, "min-force " + l.name));
  }
  if (d < 0) return;
  LoopCoordinate lc;
  loop_coordinate(l, m, LoopLevel::Position, lc);
  loop_W_[k].col(nc) = lc.P;
  loop_qdd_[k] = graph_.add_variable({Kind::LoopQdd, k}, 1, l.name);
  loop_tau_[k] = graph_.add_variable({Kind::LoopTau, k}, 1, l.name);
  graph_.set_known(loop_qdd_[k], VecX::Constant(1, in.loop_drives[d].qdd));
  if (in.loop_drives[d].sigma > 0)
    graph_.add_factor(std::make_unique<PriorFactor>(loop_tau_[k], std::vector<int>{0},
                                                    VecX::Zero(1), in.loop_drives[d].sigma,
                                                    "min-torque " + l.name));
}

void InstantDynamicsGraph::add_loop(int k, const InstantInput& in) {
  const LoopJoint& l = loops_[k];
  LoopMotion m;
  loop_motion(data_, l, LoopLevel::Velocity, m);
  add_loop_variables(k, in, m);
  loop_XS_[k] = l.X_S;
  loop_XP_[k] = m.X_sp * l.X_P;
  // Rows kept: those not identically zero (planar), then the drive row.
  const int nc = l.joint.nc();
  std::vector<int> planar, rows;
  for (int c = 0; c < nc; ++c) (((l.zero_rows >> c) & 1u) ? planar : rows).push_back(c);
  if (loop_drive_of_[k] >= 0) rows.push_back(nc);
  MatX W(6, rows.size());
  for (size_t r = 0; r < rows.size(); ++r) W.col(static_cast<int>(r)) = loop_W_[k].col(rows[r]);
  VecX bias = W.transpose() * cross_motion(m.vs, m.vJ);
  if (l.joint.type == JointType::Universal && !rows.empty() && rows[0] == 0)
    bias[0] -= loop_tdot_term(l.joint, m.X_sp, m.vJ);
  const int As = l.successor > 0 ? A_[l.successor] : -1;
  const int Ap = l.predecessor > 0 ? A_[l.predecessor] : -1;
  graph_.add_factor(
      std::make_unique<LoopAccelFactor>(k, As, Ap, loop_qdd_[k], W, l.X_S, loop_XP_[k], bias));
  if (!planar.empty())  // the paper's planar factor: no out-of-plane force in a planar loop
    graph_.add_factor(std::make_unique<PriorFactor>(lambda_[k], planar, VecX::Zero(planar.size()),
                                                    0.0, "planar " + l.name));
}

}  // namespace articula::fg
