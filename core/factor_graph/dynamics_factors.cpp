#include "core/factor_graph/dynamics_factors.hpp"

#include "core/spatial/cross.hpp"

namespace articula::fg {

namespace {
std::vector<int> present(std::initializer_list<int> ids) {
  std::vector<int> out;
  for (int id : ids)
    if (id >= 0) out.push_back(id);
  return out;
}
void resize_jacobians(std::vector<MatX>* J, const std::vector<int>& vars,
                      const std::vector<VecX>& x, int rows) {
  if (!J) return;
  J->resize(vars.size());
  for (size_t k = 0; k < vars.size(); ++k) (*J)[k].setZero(rows, x[vars[k]].size());
}
}  // namespace

Mat6 bar_force(const Force& h) {
  Mat6 B = Mat6::Zero();
  B.topLeftCorner<3, 3>() = -skew(h.head<3>());
  B.topRightCorner<3, 3>() = -skew(h.tail<3>());
  B.bottomLeftCorner<3, 3>() = -skew(h.tail<3>());
  return B;
}

TwistFactor::TwistFactor(int body, int Vi, int Vp, int qd, const Transform& Xup, const Mat6X& S)
    : Factor(present({Vi, Vp, qd}), 6),
      body_(body),
      has_parent_(Vp >= 0),
      has_qd_(qd >= 0),
      Xup_(Xup.matrix()),
      S_(S) {}

void TwistFactor::evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const {
  int k = 0;
  r = x[vars_[k++]];
  resize_jacobians(J, vars_, x, 6);
  if (J) (*J)[0].setIdentity();
  if (has_parent_) {
    if (J) (*J)[k] = -Xup_;
    r.noalias() -= Xup_ * x[vars_[k++]];
  }
  if (has_qd_) {
    if (J) (*J)[k] = -S_;
    r.noalias() -= S_ * x[vars_[k++]];
  }
}

AccelFactor::AccelFactor(int body, int Ai, int Ap, int qdd, int Vi, const Transform& Xup,
                         const Mat6X& S, const Motion& vJ, const Motion& cJ)
    : Factor(present({Ai, Ap, qdd, Vi}), 6),
      body_(body),
      has_parent_(Ap >= 0),
      has_qdd_(qdd >= 0),
      Xup_(Xup.matrix()),
      S_(S),
      vJ_(vJ),
      cJ_(cJ) {}

void AccelFactor::evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const {
  int k = 0;
  resize_jacobians(J, vars_, x, 6);
  r = x[vars_[k]] - cJ_;
  if (J) (*J)[k].setIdentity();
  ++k;
  if (has_parent_) {
    if (J) (*J)[k] = -Xup_;
    r.noalias() -= Xup_ * x[vars_[k++]];
  }
  if (has_qdd_) {
    if (J) (*J)[k] = -S_;
    r.noalias() -= S_ * x[vars_[k++]];
  }
  const Motion V = x[vars_[k]];
  r -= cross_motion(V, vJ_);
  if (J) (*J)[k] = crm(vJ_);  // d(-V × v_J)/dV = v_J ×
}

WrenchFactor::WrenchFactor(int body, int Fi, int Ai, int Vi, std::vector<int> Fc,
                           std::vector<Transform> Xc, std::vector<LoopContribution> loops,
                           const RigidBodyInertia& I, const Motion& gravity_body,
                           const Force& f_ext_body)
    : Factor({Fi, Ai, Vi}, 6), body_(body), loops_(std::move(loops)), I_(I.matrix()) {
  for (size_t c = 0; c < Fc.size(); ++c) {
    vars_.push_back(Fc[c]);
    XcT_.push_back(Xc[c].matrix().transpose());
  }
  for (const LoopContribution& l : loops_) vars_.push_back(l.var);
  constant_ = I * gravity_body + f_ext_body;
}

void WrenchFactor::evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const {
  resize_jacobians(J, vars_, x, 6);
  const Motion V = x[vars_[2]];
  const Force h = I_ * V;
  r = x[vars_[0]] - I_ * x[vars_[1]] - cross_force(V, h) + constant_;
  if (J) {
    (*J)[0].setIdentity();
    (*J)[1] = -I_;
    (*J)[2] = -(crf(V) * I_ + bar_force(h));
  }
  size_t k = 3;
  for (const Mat6& XT : XcT_) {
    if (J) (*J)[k] = -XT;
    r.noalias() -= XT * x[vars_[k++]];
  }
  for (const LoopContribution& l : loops_) {
    if (J) (*J)[k] = l.M;
    r.noalias() += l.M * x[vars_[k++]];
  }
}

TorqueFactor::TorqueFactor(int joint, int tau, int Fi, const Mat6X& S)
    : Factor({tau, Fi}, static_cast<int>(S.cols())), joint_(joint), S_(S) {}

void TorqueFactor::evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const {
  r = x[vars_[0]] - S_.transpose() * x[vars_[1]];
  if (J) {
    J->resize(2);
    (*J)[0] = MatX::Identity(rows_, rows_);
    (*J)[1] = -S_.transpose();
  }
}

LoopAccelFactor::LoopAccelFactor(int loop, int As, int Ap, int qddL, const MatX& W,
                                 const Transform& XS, const Transform& XP, const VecX& bias)
    : Factor(present({As, Ap, qddL}), static_cast<int>(W.cols())),
      loop_(loop),
      WXs_(W.transpose() * XS.matrix()),
      WXp_(-W.transpose() * XP.matrix()),
      bias_(bias),
      has_s_(As >= 0),
      has_p_(Ap >= 0),
      has_qdd_(qddL >= 0) {}

void LoopAccelFactor::evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const {
  resize_jacobians(J, vars_, x, rows_);
  r = -bias_;
  int k = 0;
  if (has_s_) {
    if (J) (*J)[k] = WXs_;
    r.noalias() += WXs_ * x[vars_[k++]];
  }
  if (has_p_) {
    if (J) (*J)[k] = WXp_;
    r.noalias() += WXp_ * x[vars_[k++]];
  }
  if (has_qdd_) {  // the driven row is the last
    r[rows_ - 1] -= x[vars_[k]][0];
    if (J) (*J)[k](rows_ - 1, 0) = -1.0;
  }
}

PriorFactor::PriorFactor(int var, std::vector<int> rows, VecX value, double sigma, std::string what)
    : Factor({var}, static_cast<int>(rows.size()), sigma),
      sel_(std::move(rows)),
      value_(std::move(value)),
      what_(std::move(what)) {}

void PriorFactor::evaluate(const std::vector<VecX>& x, VecX& r, std::vector<MatX>* J) const {
  const VecX& v = x[vars_[0]];
  r.resize(rows_);
  for (int i = 0; i < rows_; ++i) r[i] = v[sel_[i]] - value_[i];
  if (J) {
    J->resize(1);
    (*J)[0].setZero(rows_, v.size());
    for (int i = 0; i < rows_; ++i) (*J)[0](i, sel_[i]) = 1.0;
  }
}

}  // namespace articula::fg
