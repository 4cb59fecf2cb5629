#include "core/algorithms/innovations.hpp"

#include <cmath>

#include "core/algorithms/aba.hpp"

namespace articula {

namespace {
// G_i x for joint i's nv_i values at x (aba.cpp keeps G itself for 1-DoF joints, P S otherwise).
Vec6 gain_times(const Data& data, int i, int nv, const double* x) {
  if (nv == 1) return data.oU[i].col(0) * x[0];
  const VecN t = data.Dinv[i] * Eigen::Map<const VecN>(x, nv);
  return data.oU[i] * t;
}
// G_i^T a.
VecN gain_transpose_times(const Data& data, int i, int nv, const Motion& a) {
  if (nv == 1) return VecN::Constant(1, data.oU[i].col(0).dot(a));
  return data.Dinv[i] * (data.oU[i].transpose() * a);
}
// D_i x.
VecN pivot_times(const Data& data, int i, int nv, const double* x) {
  const Eigen::Map<const VecN> xv(x, nv);
  if (nv == 1) return VecN::Constant(1, x[0] / data.Dinv[i](0, 0));
  return (data.oS[i].transpose() * data.oU[i]) * xv;  // D = S^T P S, oU = P S
}
}  // namespace

void InnovationsWork::resize(const Model& model) {
  z.assign(model.nb + 1, Force::Zero());
  a.assign(model.nb + 1, Motion::Zero());
  tau.setZero(model.nv);
  nu.setZero(model.nv);
  qdd.setZero(model.nv);
  y.setZero(model.nv);
}

bool innovations_factorisation(const Model& model, Data& data, const VecX& q) {
  const VecX zero = VecX::Zero(model.nv);
  aba(model, data, q, zero, zero);  // the factors depend on q only
  return innovations_valid(model, data);
}

bool innovations_valid(const Model& model, const Data& data) {
  for (int i = 1; i <= model.nb; ++i)
    for (int k = 0; k < model.joints[i].nv(); ++k) {
      const double d = data.Dinv[i](k, k);
      if (!std::isfinite(d) || d <= 0.0) return false;
    }
  return true;
}

void solve_in_place(const Model& model, const Data& data, InnovationsWork& w) {
  for (int i = model.nb; i >= 1; --i) {  // L^-1 (ABA's inward pass): ε_i = τ_i + S_i^T z_i
    const int nv = model.joints[i].nv(), vi = model.v_index[i], p = model.parent[i];
    const Force& z = w.z[i];
    ++w.body_steps;
    if (nv == 0) {
      if (p > 0) w.z[p] += z;
      continue;
    }
    if (nv == 1) {  // scalars: most joints, and the inner loop of Λ^-1
      const double e = w.tau[vi] + dot6(data.oS[i].data(), z.data());
      w.nu[vi] = data.Dinv[i](0, 0) * e;
      if (p > 0) w.z[p] += z - data.oU[i].col(0) * e;
      continue;
    }
    VecN e = w.tau.segment(vi, nv);
    e.noalias() += data.oS[i].transpose() * z;
    w.nu.segment(vi, nv).noalias() = data.Dinv[i] * e;           // ν = D^-1 ε
    if (p > 0) w.z[p] += z - gain_times(data, i, nv, e.data());  // ψ^T z - G τ
  }
  for (int i = 1; i <= model.nb; ++i) {  // L^-T (ABA's outward pass): q̈_i = ν_i - G_i^T a_λ
    const int nv = model.joints[i].nv(), vi = model.v_index[i], p = model.parent[i];
    const Motion ap = p > 0 ? w.a[p] : Motion::Zero();
    ++w.body_steps;
    if (nv == 0) {
      w.a[i] = ap;
      continue;
    }
    if (nv == 1) {
      const double qdd = w.nu[vi] - dot6(data.oU[i].data(), ap.data());
      w.qdd[vi] = qdd;
      w.a[i] = ap + data.oS[i].col(0) * qdd;
      continue;
    }
    auto qdd = w.qdd.segment(vi, nv);
    qdd = w.nu.segment(vi, nv) - gain_transpose_times(data, i, nv, ap);
    w.a[i] = ap;
    w.a[i].noalias() += data.oS[i] * qdd;
  }
}

void body_motions(const Model& model, const Data& data, const VecX& x, InnovationsWork& w) {
  for (int i = 1; i <= model.nb; ++i) {
    const int nv = model.joints[i].nv(), p = model.parent[i];
    w.a[i] = p > 0 ? w.a[p] : Motion::Zero();
    ++w.body_steps;
    if (nv == 1)
      w.a[i] += data.oS[i].col(0) * x[model.v_index[i]];
    else if (nv > 1)
      w.a[i].noalias() += data.oS[i] * x.segment(model.v_index[i], nv);
  }
  w.qdd = x;
}

void inverse_mass_times(const Model& model, const Data& data, const VecX& x, VecX& y,
                        InnovationsWork& w) {
  for (Force& f : w.z) f.setZero();
  w.tau = x;
  solve_in_place(model, data, w);
  y = w.qdd;
}

void mass_times(const Model& model, const Data& data, const VecX& x, VecX& y, InnovationsWork& w) {
  for (int i = 1; i <= model.nb; ++i) {  // L^T x: y_i = x_i + G_i^T b_λ, b_i = b_λ + S_i x_i
    const int nv = model.joints[i].nv(), vi = model.v_index[i], p = model.parent[i];
    const Motion bp = p > 0 ? w.a[p] : Motion::Zero();
    ++w.body_steps;
    w.a[i] = bp;
    if (nv == 0) continue;
    const VecN yi = x.segment(vi, nv) + gain_transpose_times(data, i, nv, bp);
    w.y.segment(vi, nv) = pivot_times(data, i, nv, yi.data());  // D L^T x
    w.a[i].noalias() += data.oS[i] * x.segment(vi, nv);
  }
  y.resize(model.nv);
  for (Force& f : w.z) f.setZero();
  for (int i = model.nb; i >= 1; --i) {  // L y: y_i + S_i^T g_i, g_λ += g_i + G_i y_i
    const int nv = model.joints[i].nv(), vi = model.v_index[i], p = model.parent[i];
    const Force& g = w.z[i];
    ++w.body_steps;
    if (nv == 0) {
      if (p > 0) w.z[p] += g;
      continue;
    }
    y.segment(vi, nv) = w.y.segment(vi, nv);
    y.segment(vi, nv).noalias() += data.oS[i].transpose() * g;
    if (p > 0) w.z[p] += g + gain_times(data, i, nv, w.y.data() + vi);
  }
}

void inverse_operational_inertias(const Model& model, const Data& data, std::vector<Mat6>& Y) {
  Y.assign(model.nb + 1, Mat6::Zero());
  for (int i = 1; i <= model.nb; ++i) {  // Υ_i = ψ_i Υ_λ ψ_i^T + S_i D_i^-1 S_i^T
    const int nv = model.joints[i].nv(), p = model.parent[i];
    const Mat6& Yp = Y[p];
    if (nv == 0) {
      Y[i] = Yp;
      continue;
    }
    const Mat6X& S = data.oS[i];
    Mat6X G = data.oU[i];
    if (nv > 1) G = data.oU[i] * data.Dinv[i];
    const Mat6 psi = Mat6::Identity() - S * G.transpose();
    Y[i].noalias() = psi * Yp * psi.transpose();
    Y[i].noalias() += S * data.Dinv[i] * S.transpose();
  }
}

double apply_row(const OperatorRow& r, const InnovationsWork& w) {
  double x = 0.0;
  for (int k = 0; k < 4; ++k)
    if (r.body[k] > 0) x += r.T[k].dot(w.a[r.body[k]]);
  for (int k = 0; k < 2; ++k)
    if (r.coord[k] >= 0) x += r.c[k] * w.qdd[r.coord[k]];
  return x;
}

void add_row_force(const OperatorRow& r, double mu, InnovationsWork& w) {
  for (int k = 0; k < 4; ++k)
    if (r.body[k] > 0) w.z[r.body[k]] += r.T[k] * mu;
  for (int k = 0; k < 2; ++k)
    if (r.coord[k] >= 0) w.tau[r.coord[k]] += r.c[k] * mu;
}

void inverse_operational_inertia(const Model& model, const Data& data,
                                 const std::vector<OperatorRow>& all, const std::vector<int>& rows,
                                 MatX& A, InnovationsWork& w) {
  const int m = static_cast<int>(rows.size());
  A.resize(m, m);
  for (int j = 0; j < m; ++j) {  // column j: the response to row j's dual forces
    for (Force& f : w.z) f.setZero();
    w.tau.setZero();
    add_row_force(all[rows[j]], 1.0, w);
    solve_in_place(model, data, w);
    for (int i = 0; i < m; ++i) A(i, j) = apply_row(all[rows[i]], w);
  }
  for (int j = 0; j < m; ++j)  // symmetric to round-off: keep the mean of both triangles
    for (int i = j + 1; i < m; ++i) A(i, j) = A(j, i) = 0.5 * (A(i, j) + A(j, i));
}

}  // namespace articula
