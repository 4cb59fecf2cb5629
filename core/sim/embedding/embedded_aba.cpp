#include "core/sim/embedding/embedded_aba.hpp"

#include <algorithm>

#include "core/algorithms/aba.hpp"
#include "core/sim/diagnostics.hpp"

namespace articula {

EmbeddedAba::EmbeddedAba(const Model& model, const ConstraintEmbedding& embedding)
    : model_(model), node_of_body_(model.nb + 1, -1), first_(model.nb + 1, 0) {
  nodes_.reserve(embedding.nodes());
  for (int k = 0; k < embedding.nodes(); ++k) {
    Node& n = nodes_.emplace_back();
    n.cols = embedding.node_columns(k);
    for (int c : n.cols) {
      const int b = model.v_body[c];
      if (n.bodies.empty() || n.bodies.back() != b) n.bodies.push_back(b);
    }
    std::sort(n.bodies.begin(), n.bodies.end());
    n.bodies.erase(std::unique(n.bodies.begin(), n.bodies.end()), n.bodies.end());
    n.parent = -1;
    for (int b : n.bodies) {
      const int p = model.parent[b];
      const auto in = std::find(n.bodies.begin(), n.bodies.end(), p);
      n.up.push_back(in == n.bodies.end() ? -1 : static_cast<int>(in - n.bodies.begin()));
      if (n.up.back() >= 0) continue;
      if (n.parent >= 0 && n.parent != p)
        throw SetupError("the embedded articulated-body algorithm does not apply: the node of " +
                         model.joint_names[b] + " hangs from two bodies");
      n.parent = p;
    }
    for (int c : n.cols)
      n.owner.push_back(static_cast<int>(
          std::find(n.bodies.begin(), n.bodies.end(), model.v_body[c]) - n.bodies.begin()));
    for (int i = 0; i < static_cast<int>(n.cols.size()); ++i)
      for (int j = 0; j <= i; ++j) {
        int a = n.owner[i];  // is owner[j] on the path from owner[i] to the node's base?
        while (a > n.owner[j]) a = n.up[a];
        if (a == n.owner[j]) n.pair_i.push_back(i), n.pair_j.push_back(j);
      }
    n.mp.resize(n.pair_i.size());
    const int m = static_cast<int>(n.bodies.size()), ns = static_cast<int>(n.cols.size());
    n.IC.resize(m);
    n.acc.resize(m);
    n.force.resize(m);
    n.S.resize(6, ns);
    n.U.resize(6, ns);
    n.h.resize(ns);
    n.ys.resize(ns);
    n.qdd.resize(ns);
    for (int b : n.bodies) node_of_body_[b] = k;
    first_[n.bodies.front()] = 1;
  }
}

// X_S: the node's rows of X at its independent coordinates' columns (re-read every call: the
// choice of independent coordinates can change between calls).
void EmbeddedAba::gather_x(Node& n, int index, const ConstraintEmbedding& embedding) {
  const std::vector<int>& ind = embedding.node_independent(index);
  const std::vector<int>& all = embedding.independent();
  const MatX& X = embedding.X();
  const int k = static_cast<int>(ind.size());
  n.X.resize(n.cols.size(), k);
  n.xcol.assign(n.cols.size(), -1);
  for (int j = 0; j < k; ++j) {
    const int col =
        static_cast<int>(std::lower_bound(all.begin(), all.end(), ind[j]) - all.begin());
    for (std::size_t i = 0; i < n.cols.size(); ++i) n.X(i, j) = X(n.cols[i], col);
    n.xcol[std::lower_bound(n.cols.begin(), n.cols.end(), ind[j]) - n.cols.begin()] = j;
  }
  n.Xt = n.X.transpose();
}

// M̃_S and U_S: CRBA over the members with their articulated inertias (base coordinates, so the
// composites add without transforms): M̃(i, j) = (I^C_{b(i)} s_i) · s_j for b(j) an ancestor of
// b(i) in the node or b(i) itself, 0 for unrelated members. M̃_S is skipped when the node has no
// independent coordinates (k = 0: its motion is the rows' particular solution).
void EmbeddedAba::local_mass(const Data& data, Node& n) {
  const int m = static_cast<int>(n.bodies.size()), ns = static_cast<int>(n.cols.size());
  for (int a = 0; a < m; ++a) n.IC[a] = data.oIA[n.bodies[a]];
  for (int a = m - 1; a >= 0; --a)
    if (n.up[a] >= 0) n.IC[n.up[a]] += n.IC[a];
  for (int i = 0; i < ns; ++i) {
    const int b = model_.v_body[n.cols[i]];
    n.S.col(i) = data.oS[b].col(n.cols[i] - model_.v_index[b]);
  }
  for (int i = 0; i < ns; ++i) {
    const Vec6 s = n.S.col(i);  // fixed size: the 6x6 product unrolled, no dynamic dispatch
    const Vec6 u = n.IC[n.owner[i]] * s;
    n.U.col(i) = u;
  }
  if (n.X.cols() == 0) return;  // every coordinate dependent: q̈_S = y_S, M̃_S not needed
  for (std::size_t p = 0; p < n.pair_i.size(); ++p)
    n.mp[p] = n.U.col(n.pair_i[p]).dot(n.S.col(n.pair_j[p]));
}

// D_S = X_Sᵀ M̃_S X_S over M̃_S's coupled pairs: (M̃_S X_S)ᵀ column by column (a unit row of X_S
// adds one entry), then D_S = Σ_i x_i (M̃_S X_S)_iᵀ, one row of D_S for an independent i.
void EmbeddedAba::node_mass_sparse(Node& n) {
  const int ns = static_cast<int>(n.cols.size()), k = static_cast<int>(n.X.cols());
  n.MXt.setZero(k, ns);
  const auto add = [&n](int to, int from, double m) {
    if (n.xcol[from] >= 0)
      n.MXt(n.xcol[from], to) += m;
    else
      n.MXt.col(to) += m * n.Xt.col(from);
  };
  for (std::size_t p = 0; p < n.pair_i.size(); ++p) {
    const int i = n.pair_i[p], j = n.pair_j[p];
    add(i, j, n.mp[p]);
    if (i != j) add(j, i, n.mp[p]);
  }
  n.D.setZero(k, k);
  for (int i = 0; i < ns; ++i)
    if (n.xcol[i] >= 0)
      n.D.row(n.xcol[i]) += n.MXt.col(i).transpose();
    else
      n.D.noalias() += n.Xt.col(i) * n.MXt.col(i).transpose();
}

// D_S with M̃_S whole: every pair tested for coupling as the sparse step's pairs were not.
void EmbeddedAba::node_mass_dense(Node& n) {
  const int ns = static_cast<int>(n.cols.size());
  n.M.setZero(ns, ns);
  for (int i = 0; i < ns; ++i)
    for (int j = 0; j <= i; ++j) {
      int a = n.owner[i];
      while (a > n.owner[j]) a = n.up[a];
      if (a == n.owner[j]) n.M(i, j) = n.M(j, i) = n.U.col(i).dot(n.S.col(j));
    }
  const MatX MX = n.M * n.X;
  n.D.noalias() = n.X.transpose() * MX;
}

// r += M̃_S v over the coupled pairs (v, r: the node's coordinates).
void EmbeddedAba::add_mass_times(const Node& n, VecX& r) const {
  if (dense_) {
    r.noalias() += n.M * n.qdd;
    return;
  }
  for (std::size_t p = 0; p < n.pair_i.size(); ++p) {
    const int i = n.pair_i[p], j = n.pair_j[p];
    r[i] += n.mp[p] * n.qdd[j];
    if (i != j) r[j] += n.mp[p] * n.qdd[i];
  }
}

// The local RNEA at q̈_S = y_S with P fixed (a_P = 0): h_S (the joint forces) and, summed into
// the base members' forces, p_S. Velocity products (oc) and the members' bias forces (opA,
// with what their outside children passed in) enter here.
void EmbeddedAba::local_bias(const Data& data, Node& n, const VecX& y) {
  const int m = static_cast<int>(n.bodies.size()), ns = static_cast<int>(n.cols.size());
  for (int i = 0; i < ns; ++i) n.ys[i] = y[n.cols[i]];
  for (int a = 0, i = 0; a < m; ++a) {  // members and coordinates both in increasing order
    n.acc[a] = data.oc[n.bodies[a]];
    if (n.up[a] >= 0) n.acc[a] += n.acc[n.up[a]];
    for (; i < ns && n.owner[i] == a; ++i) n.acc[a] += n.S.col(i) * n.ys[i];
  }
  for (int a = 0; a < m; ++a) {
    const int b = n.bodies[a];
    n.force[a] = data.opA[b];
    n.force[a].noalias() += data.oIA[b] * n.acc[a];
  }
  for (int a = m - 1; a >= 0; --a)
    if (n.up[a] >= 0) n.force[n.up[a]] += n.force[a];
  for (int i = 0; i < ns; ++i) n.h[i] = n.S.col(i).dot(n.force[n.owner[i]]);
}

// D_S⁻¹ u_S and D_S⁻¹ W_Sᵀ from D_S (k x k); false when D_S is not positive definite. One
// independent coordinate (a four-bar's node) divides by the scalar D_S. D_S is symmetric positive
// definite when the node's motion is well posed, so Cholesky (no pivoting) factors it; its
// failure is the singular embedded mass matrix the caller diagnoses.
bool EmbeddedAba::node_inverse(Node& n) {
  if (n.D.rows() == 1) {
    const double d = n.D(0, 0);
    if (!(d > 0.0)) return false;
    n.Dinv_u = n.Xh / d;
    n.DinvWt = n.W.transpose() / d;
    return true;
  }
  n.llt.compute(n.D);
  if (n.llt.info() != Eigen::Success) return false;
  n.Dinv_u = n.llt.solve(n.Xh);
  n.DinvWt = n.W.transpose();
  n.llt.solveInPlace(n.DinvWt);
  return true;
}

// Pass 2 at node S: D_S, u_S, the gain W_S, and P's share (see the header for the derivation).
bool EmbeddedAba::tip_to_base(Data& data, Node& n, const VecX& y, const VecX& tau) {
  local_mass(data, n);
  local_bias(data, n, y);
  const int k = static_cast<int>(n.X.cols());
  Force p = Force::Zero();
  Mat6 IC = Mat6::Zero();
  for (std::size_t a = 0; a < n.bodies.size(); ++a)
    if (n.up[a] < 0) p += n.force[a], IC += n.IC[a];
  for (std::size_t i = 0; i < n.cols.size(); ++i) n.h[i] = tau[n.cols[i]] - n.h[i];  // τ_S - h_S
  if (k > 0) {
    // Coefficient-wise products: the operands are a few rows and columns, where the blocked
    // product's set-up costs more than the arithmetic.
    n.W.noalias() = n.U.lazyProduct(n.X);
    if (dense_)
      node_mass_dense(n);
    else
      node_mass_sparse(n);
    n.Xh.noalias() = n.X.transpose().lazyProduct(n.h);
    if (!node_inverse(n)) return false;
    IC.noalias() -= n.W.lazyProduct(n.DinvWt);
    p.noalias() += n.W.lazyProduct(n.Dinv_u);
  }
  if (n.parent > 0) {
    data.oIA[n.parent] += IC;
    data.opA[n.parent] += p;
  }
  return true;
}

// Pass 3 at node S: θ̈_S, q̈_S, the members' accelerations, and the node's constraint forces
// r_S = M̃_S (q̈_S - y_S) + U_Sᵀ a_P + h_S - τ_S (h holds τ_S - h_S here).
void EmbeddedAba::base_to_tip(Data& data, Node& n, VecX& r) {
  const Motion& aP = data.oa[n.parent];
  const int m = static_cast<int>(n.bodies.size()), ns = static_cast<int>(n.cols.size());
  n.qdd.setZero();
  if (n.X.cols() > 0) {
    n.theta = n.Dinv_u;
    n.theta.noalias() -= n.DinvWt.lazyProduct(aP);
    n.qdd.noalias() = n.X.lazyProduct(n.theta);
  }
  VecX& rs = n.rs;
  rs.noalias() = n.U.transpose().lazyProduct(aP);
  rs -= n.h;
  if (n.X.cols() > 0) add_mass_times(n, rs);  // q̈_S - y_S = 0 otherwise
  n.qdd += n.ys;
  for (int i = 0; i < ns; ++i) data.qdd[n.cols[i]] = n.qdd[i], r[n.cols[i]] = rs[i];
  for (int a = 0, i = 0; a < m; ++a) {
    const int b = n.bodies[a];
    data.oa[b] = (n.up[a] >= 0 ? data.oa[n.bodies[n.up[a]]] : aP) + data.oc[b];
    for (; i < ns && n.owner[i] == a; ++i) data.oa[b] += n.S.col(i) * n.qdd[i];
  }
}

bool EmbeddedAba::solve(Data& data, const ConstraintEmbedding& embedding, const VecX& y,
                        const VecX& q, const VecX& qd, const VecX& tau, const ExternalForces* f_ext,
                        VecX& r) {
  const Model& model = model_;
  r.setZero(model.nv);
  for (std::size_t k = 0; k < nodes_.size(); ++k)
    gather_x(nodes_[k], static_cast<int>(k), embedding);
  aba_pass1(model, data, q, qd, f_ext);
  for (int i = model.nb; i >= 1; --i) {
    const int node = node_of_body_[i];
    if (node < 0)
      aba_pass2_body(model, data, i, tau);
    else if (first_[i] && !tip_to_base(data, nodes_[node], y, tau))
      return false;
  }
  data.oa[0] = -model.a_grav;
  for (int i = 1; i <= model.nb; ++i) {
    const int node = node_of_body_[i];
    if (node < 0)
      aba_pass3_body(model, data, i);
    else if (first_[i])
      base_to_tip(data, nodes_[node], r);
  }
  return true;
}

}  // namespace articula
