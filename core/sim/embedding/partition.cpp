#include "core/sim/embedding/partition.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <set>
#include <sstream>

#include "core/algorithms/kinematics.hpp"
#include "core/model/configuration.hpp"
#include "core/sim/constraints/motion_drives.hpp"

namespace articula {

namespace {
// Numerical rank of a node's rows, relative to the largest pivot of their pivoted QR (the
// mobility analysis uses 1e-9 of the largest singular value).
constexpr double kRankThreshold = 1e-9;
// Y₁ is chosen again when its reciprocal condition estimate has fallen below this fraction of
// its value when chosen: well before it is singular, so a step never crosses a singularity of
// the choice (Jain §9).
constexpr double kRechoose = 0.5;

void sub_into(const MatX& G, const std::vector<int>& rows, const std::vector<int>& cols, MatX& A) {
  A.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) A(i, j) = G(rows[i], cols[j]);
}

MatX sub(const MatX& G, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX A;
  sub_into(G, rows, cols, A);
  return A;
}

// The first k columns of A in the order of a column-pivoted QR (largest residual first).
std::vector<int> best_columns(const MatX& A, int k) {
  std::vector<int> out;
  if (k <= 0 || A.size() == 0) return out;
  Eigen::ColPivHouseholderQR<MatX> qr(A);
  for (int j = 0; j < k; ++j) out.push_back(qr.colsPermutation().indices()[j]);
  return out;
}

int rank_of(const MatX& A) {
  if (A.size() == 0) return 0;
  Eigen::ColPivHouseholderQR<MatX> qr(A);
  qr.setThreshold(kRankThreshold);
  return static_cast<int>(qr.rank());
}
}  // namespace

ConstraintEmbedding::ConstraintEmbedding(const Mechanism& mech, ConstraintSet& constraints,
                                         const MatX& G)
    : mech_(mech), set_(constraints) {
  const Model& model = mech.model();
  prescribed_.assign(model.nv, false);
  forced_.assign(model.nv, false);
  for (int v : constraints.prescribed_coordinates()) prescribed_[v] = forced_[v] = true;
  for (int v = 0; v < model.nv; ++v) {
    const Joint& j = model.joints[model.v_body[v]];
    if (j.nq() != j.nv())
      forced_[v] = true;  // quaternions: not integrable coordinate by coordinate
  }
  prescribing_row_.assign(constraints.rows(), false);
  for (int r : constraints.prescribing_rows()) prescribing_row_[r] = true;
  const EmbeddingTree tree = aggregate(mech);
  std::vector<int> node_of(model.nb + 1, -1);
  auto add_body = [&](int node, int b) {
    node_of[b] = node;
    for (int k = 0; k < model.joints[b].nv(); ++k)
      nodes_[node].cols.push_back(model.v_index[b] + k);
  };
  for (const EmbeddingNode& n : tree.nodes) {
    nodes_.emplace_back();
    for (int b : n.bodies) add_body(static_cast<int>(nodes_.size()) - 1, b);
  }
  const int loop_rows = constraint_rows(mech.compiled.loops);
  for (int r = 0; r < constraints.rows(); ++r) {
    int node = -1;
    if (r < loop_rows) {  // loop closure rows come first, at LoopJoint::row (constraint_set.cpp)
      for (const LoopJoint& l : mech.compiled.loops)
        if (r >= l.row && r < l.row + l.joint.nc() && !(l.zero_rows >> (r - l.row) & 1u))
          node = node_of[node_of[l.successor] >= 0 ? l.successor : l.predecessor];
      if (node < 0) continue;  // structurally zero (a planar loop's out-of-plane rows)
    }
    for (int c = 0; c < model.nv; ++c) {
      if (G(r, c) == 0.0 || r < loop_rows) continue;
      int b = model.v_body[c];
      if (node_of[b] < 0) {  // a drive on a body outside every loop: a node of its own
        nodes_.emplace_back();
        add_body(static_cast<int>(nodes_.size()) - 1, b);
      }
      if (node >= 0 && node_of[b] != node)
        throw SetupError("constraint embedding does not apply: the constraint of " +
                         constraints.row_owner(r) + " spans two aggregated nodes");
      node = node_of[b];
    }
    if (node >= 0) nodes_[node].rows.push_back(r);
  }
  std::erase_if(nodes_, [](const Node& n) { return n.rows.empty(); });
  for (Node& n : nodes_) std::sort(n.cols.begin(), n.cols.end());
}

std::string ConstraintEmbedding::joints_of(const std::vector<int>& coords) const {
  std::set<std::string> names;
  for (int v : coords) names.insert(mech_.model().joint_names[mech_.model().v_body[v]]);
  std::string out;
  for (const std::string& s : names) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void ConstraintEmbedding::singular(const Node& n, const std::string& when, const char* why) const {
  throw SetupError(when + " no choice of independent coordinates embeds the loops through joints " +
                   joints_of(n.cols) + ": " + why);
}

void ConstraintEmbedding::choose_node(Node& n, const MatX& G, const std::string& when) {
  n.dep.clear(), n.sel.clear(), n.free_dep.clear(), n.sel_proj.clear(), n.ind.clear();
  n.jrcond0 = -1.0;                       // measured again at the next position solve
  n.jvalid = false;                       // the old block's factors are another choice's
  std::vector<int> rows, forced, others;  // non-prescribing rows, non-prescribed columns
  for (int r : n.rows) {
    if (!prescribing_row_[r]) {
      rows.push_back(r);
      continue;
    }
    n.sel.push_back(r);  // q̈_v = q̈_d(t): its coordinate is dependent, given by the law
    for (int c : n.cols)
      if (G(r, c) != 0.0) n.dep.push_back(c);
  }
  for (int c : n.cols)
    if (!prescribed_[c]) (forced_[c] ? forced : others).push_back(c);
  const MatX B = sub(G, rows, forced);
  const MatX A = sub(G, rows, others);
  MatX all(rows.size(), forced.size() + others.size());
  all << B, A;
  const int r = rank_of(all);
  if (n.rank < 0) n.rank = r;
  if (r < n.rank)
    singular(n, when,
             "their constraint rows have lost rank (a dead point or a branch point of the "
             "loops)");
  if (rank_of(B) < static_cast<int>(forced.size()))
    singular(n, when, "the loops do not determine the rotation of a spherical or free joint");
  // The other dependent columns: the best-conditioned ones once the forced columns' span is
  // removed (pivoted QR of the projected rows).
  MatX P = A;
  if (!forced.empty()) {
    Eigen::HouseholderQR<MatX> qr(B);
    const MatX Q1 = qr.householderQ() * MatX::Identity(B.rows(), B.cols());
    P -= Q1 * (Q1.transpose() * A);
  }
  n.free_dep = forced;
  for (int j : best_columns(P, r - static_cast<int>(forced.size())))
    n.free_dep.push_back(others[j]);
  for (int j : best_columns(sub(G, rows, n.free_dep).transpose(), r)) {
    n.sel.push_back(rows[j]);
    n.sel_proj.push_back(set_.projected_row(rows[j]));
  }
  n.dep.insert(n.dep.end(), n.free_dep.begin(), n.free_dep.end());
  for (int c : n.cols)
    if (std::find(n.dep.begin(), n.dep.end(), c) == n.dep.end()) n.ind.push_back(c);
  n.lu.compute(sub(G, n.sel, n.dep));
  n.rcond0 = n.rcond = n.lu.rcond();
  if (!(n.rcond0 > 1e-12)) singular(n, when, "Y1 is singular for the best choice");
}

void ConstraintEmbedding::choose(const MatX& G, const std::string& when) {
  for (Node& n : nodes_) choose_node(n, G, when);
  std::vector<bool> dependent(mech_.model().nv, false);
  for (const Node& n : nodes_)
    for (int c : n.dep) dependent[c] = true;
  independent_.clear();
  for (int c = 0; c < mech_.model().nv; ++c)
    if (!dependent[c]) independent_.push_back(c);
  X_.setZero(mech_.model().nv, minimal());
  for (int k = 0; k < minimal(); ++k) X_(independent_[k], k) = 1.0;
  factor(G);
}

double ConstraintEmbedding::factor(const MatX& G, bool estimate) {
  ++factorizations_;
  double worst = 1.0;
  for (Node& n : nodes_) {
    sub_into(G, n.sel, n.dep, n.Y1);
    if (n.jvalid && n.Y1.rows() == n.Jb.rows() && n.Y1.cols() == n.Jb.cols() &&
        n.Y1 == n.Jb)  // the position solve's last block (of this state): the same factors
      n.lu = n.jlu;
    else
      n.lu.compute(n.Y1);
    if (estimate) {
      n.rcond = n.lu.rcond();
      worst = std::min(worst, n.rcond / n.rcond0);
    }
    if (n.ind.empty()) continue;
    sub_into(G, n.sel, n.ind, n.Y2);
    n.Xd = n.lu.solve(n.Y2);  // Eq. 60: X_d = -Y₁⁻¹ Y₂ (the sign below)
    for (std::size_t j = 0; j < n.ind.size(); ++j) {
      const int k =
          static_cast<int>(std::lower_bound(independent_.begin(), independent_.end(), n.ind[j]) -
                           independent_.begin());
      for (std::size_t i = 0; i < n.dep.size(); ++i) X_(n.dep[i], k) = -n.Xd(i, j);
    }
  }
  return worst;
}

int ConstraintEmbedding::monitor(const MatX& G, const std::string& when) {
  factor(G);
  int count = 0;
  for (const Node& n : nodes_) count += n.rcond < kRechoose * n.rcond0;
  if (count == 0) return 0;
  rechosen_ += count;
  choose(G, when);  // every node again: the independent list is global
  watch_ = -1.0;    // the ratio starts again from 1 at the new choice
  return count;
}

void ConstraintEmbedding::particular(const VecX& g, VecX& y) const {
  y.setZero(mech_.model().nv);
  for (const Node& n : nodes_) {
    VecX gs(n.sel.size());
    for (std::size_t i = 0; i < n.sel.size(); ++i) gs[i] = g[n.sel[i]];
    const VecX yd = n.lu.solve(gs);
    for (std::size_t i = 0; i < n.dep.size(); ++i) y[n.dep[i]] = yd[i];
  }
}

void ConstraintEmbedding::multipliers(const VecX& r, VecX& mu) const {
  mu.setZero(set_.rows());
  for (const Node& n : nodes_) {
    VecX rd(n.dep.size());
    for (std::size_t i = 0; i < n.dep.size(); ++i) rd[i] = r[n.dep[i]];
    const VecX m = n.lu.transpose().solve(rd);  // Y₁^T μ = r on the dependent coordinates
    for (std::size_t i = 0; i < n.sel.size(); ++i) mu[n.sel[i]] = m[i];
  }
}

std::string ConstraintEmbedding::describe() const {
  std::ostringstream os;
  for (const Node& n : nodes_)
    os << "[" << joints_of(n.ind) << " rcond " << n.rcond << " of " << n.rcond0 << "] ";
  return os.str();
}

}  // namespace articula
