#pragma once
// The factors of one instant of multibody dynamics (Xie-Dellaert Eqs. 4-7, written in RBDA's
// spatial vectors and body coordinates: V twist, A acceleration, F the force joint i transmits
// to body i, all in body i's frame, angular first). The configuration q (transforms, motion
// subspaces) and the joint rates q̇ (v_J, c_J) are parameters of the factors, fixed when the
// graph is built at a state; every other argument is a variable with an analytic Jacobian.
//
//   twist       V_i - X_i V_λ - S_i q̇_i                                      = 0   (Eq. 4)
//   accel       A_i - X_i A_λ - S_i q̈_i - c_J - V_i × v_J                    = 0   (Eq. 5)
//   wrench      F_i - Σ_c X_c^T F_c + Σ_k (±) X_k^T W_k w_k
//                   - I_i (A_i - ^iX_0 a_g) - V_i ×* I_i V_i + ^iX_0^* f^x_i  = 0   (Eq. 6)
//   torque      τ_i - S_i^T F_i                                               = 0   (Eq. 7)
//   loop accel  W_k^T (X_S A_s - X_sp X_P A_p - v_s × v_J) + T̊ term - [0; q̈_L] = 0
//   planar      λ_k[rows] = 0   (the indeterminate out-of-plane wrench of a planar loop, §VII)
//   prior       (x - x̄) / σ       (soft: minimum torque, measurements)
// A loop joint k transmits w_k = W_k [λ_k; τ_L] in its successor frame, W_k = [T_k  P_k]: the
// constraint force directions (RBDA Table 8.1) and, when the loop joint is driven, its axis.
#include <vector>

#include "core/factor_graph/factor_graph.hpp"
#include "core/spatial/inertia.hpp"
#include "core/spatial/transform.hpp"

namespace articula::fg {

// The operator with v ×* h = bar(h) v (RBDA's ×̄*): the Jacobian of a force cross product with
// respect to the motion vector.
Mat6 bar_force(const Force& h);

class TwistFactor final : public Factor {
 public:
  // vars: V_i, then V_λ (-1 at the base), then q̇_i (-1 when the joint has no freedom).
  TwistFactor(int body, int Vi, int Vp, int qd, const Transform& Xup, const Mat6X& S);
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override;
  std::string name() const override { return "twist " + std::to_string(body_); }

 private:
  int body_;
  bool has_parent_, has_qd_;
  Mat6 Xup_;
  Mat6X S_;
};

class AccelFactor final : public Factor {
 public:
  // vars: A_i, A_λ (-1 at the base), q̈_i (-1 when fixed), V_i.
  AccelFactor(int body, int Ai, int Ap, int qdd, int Vi, const Transform& Xup, const Mat6X& S,
              const Motion& vJ, const Motion& cJ);
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override;
  std::string name() const override { return "accel " + std::to_string(body_); }

 private:
  int body_;
  bool has_parent_, has_qdd_;
  Mat6 Xup_;
  Mat6X S_;
  Motion vJ_, cJ_;
};

// One force acting on a body through a loop joint: ± X^T W [λ; τ_L].
struct LoopContribution {
  int var = -1;  // λ_k or τ_L,k
  MatX M;        // 6 x dim: ± X^T W (columns for that variable)
};

class WrenchFactor final : public Factor {
 public:
  // vars: F_i, A_i, V_i, then each child's F_c, then each loop contribution's variable.
  WrenchFactor(int body, int Fi, int Ai, int Vi, std::vector<int> Fc, std::vector<Transform> Xc,
               std::vector<LoopContribution> loops, const RigidBodyInertia& I,
               const Motion& gravity_body, const Force& f_ext_body);
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override;
  std::string name() const override { return "wrench " + std::to_string(body_); }

 private:
  int body_;
  std::vector<Mat6> XcT_;
  std::vector<LoopContribution> loops_;
  Mat6 I_;
  Force constant_;  // I ^iX_0 a_g + ^iX_0^* f^x
};

class TorqueFactor final : public Factor {
 public:
  // vars: τ_i, F_i.
  TorqueFactor(int joint, int tau, int Fi, const Mat6X& S);
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override;
  std::string name() const override { return "torque " + std::to_string(joint_); }

 private:
  int joint_;
  Mat6X S_;
};

class LoopAccelFactor final : public Factor {
 public:
  // vars: A_s (-1 when the successor is the base), A_p (likewise), q̈_L (-1 when undriven).
  // W: the force directions kept (6 x rows; the drive axis P last when driven), XS = X_S and
  // XP = X_sp X_P map the bodies' motion to the successor frame, bias = W^T (v_s × v_J) - T̊ term.
  LoopAccelFactor(int loop, int As, int Ap, int qddL, const MatX& W, const Transform& XS,
                  const Transform& XP, const VecX& bias);
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override;
  std::string name() const override { return "loop " + std::to_string(loop_); }

 private:
  int loop_;
  MatX WXs_, WXp_;
  VecX bias_;
  bool has_s_, has_p_, has_qdd_;
};

// Components `rows` of a variable are zero (hard), or equal `value` with standard deviation σ
// (soft): the planar factor, the minimum-torque prior, a measurement of a variable.
class PriorFactor final : public Factor {
 public:
  PriorFactor(int var, std::vector<int> rows, VecX value, double sigma, std::string what);
  void evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const override;
  std::string name() const override { return what_; }

 private:
  std::vector<int> sel_;
  VecX value_;
  std::string what_;
};

}  // namespace articula::fg
