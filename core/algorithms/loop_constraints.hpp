#pragma once
// Loop-closure constraints of a spanning tree plus loop joints (RBDA 8.2-8.3, Table 8.4):
// position errors δ, the loop Jacobian K (K q̇ = 0) and the velocity-product term k (K q̈ = k).
#include <vector>

#include "core/model/data.hpp"
#include "core/model/loop_joint.hpp"

namespace articula {

// δ for every loop joint (nc rows, RBDA Eq. 8.23). Needs data.X0 (forward_kinematics(q)).
void loop_position_errors(const Model& model, const Data& data, const std::vector<LoopJoint>& loops,
                          VecX& delta);

// K = [T_k^T (J_s(k) - J_p(k))] (Eq. 8.17), rows in loop-joint successor coordinates.
// Needs data.X0 and data.jc (forward_kinematics(q)).
void loop_jacobian(const Model& model, const Data& data, const std::vector<LoopJoint>& loops,
                   MatX& K);

// δ and K together (one X_sp and one loop_jcalc per loop). Needs data.X0 and data.jc.
void loop_errors_and_jacobian(const Model& model, const Data& data,
                              const std::vector<LoopJoint>& loops, VecX& delta, MatX& K);

// The same into the first constraint_rows(loops) rows of J (sized and zeroed by the caller).
void loop_errors_and_jacobian_into(const Model& model, const Data& data,
                                   const std::vector<LoopJoint>& loops, VecX& delta, MatX& J);

// k = -T^T (a_s - a_p + v_s × v_p) - T̊^T (v_s - v_p) (Eqs. 8.15, 8.47), with a the
// velocity-product accelerations: call forward_kinematics(q, qd, 0) first.
void loop_bias(const Model& model, const Data& data, const std::vector<LoopJoint>& loops, VecX& k);

// All three at once, plus Baumgarte stabilisation (Eq. 8.22): k_stab = -2α T^T v_rel - β² δ is
// added to k when alpha or beta is nonzero. Runs forward kinematics itself (with q̈ = 0).
void loop_constraints(const Model& model, Data& data, const std::vector<LoopJoint>& loops,
                      const VecX& q, const VecX& qd, double alpha, double beta, VecX& delta,
                      MatX& K, VecX& k);

// The same from the kinematics forward_kinematics_bias(q, qd) left in data, into the first
// constraint_rows(loops) rows of G (sized and zeroed by the caller, possibly with more rows
// below for other constraints) and k[0 .. rows).
void loop_constraints_from_kinematics(const Model& model, Data& data,
                                      const std::vector<LoopJoint>& loops, const VecX& qd,
                                      double alpha, double beta, VecX& delta, MatX& G, double* k);

// The row r with r q̇ = t^T v_rel, for a force-like vector t in the loop joint's successor
// coordinates (e.g. a motion drive on a loop joint's coordinate). Needs data.X0 and data.jc.
void relative_velocity_row(const Model& model, const Data& data, const LoopJoint& l, const Force& t,
                           Eigen::Ref<Eigen::RowVectorXd, 0, Eigen::InnerStride<>> row);

// T̊^T v_rel of a loop joint whose T varies with X_sp (nonzero for the universal joint only, in
// its first row); v_rel in successor coordinates. Part of k above.
double loop_tdot_term(const Joint& joint, const Transform& X_sp, const Motion& v_rel);

// Successor-frame transform of loop joint l: ^{s,k}X_{p,k} from the current data.X0.
Transform loop_transform(const Data& data, const LoopJoint& l);

}  // namespace articula
