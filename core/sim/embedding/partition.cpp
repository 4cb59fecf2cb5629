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
// Y₁ is chosen again when its reciprocal condition estimate has fallen below this fraction of
// its value when chosen: well before it is singular, so a step never crosses a singularity of
// the choice (Jain §9).
constexpr double kRechoose = 0.5;

void sub_into(const MatX& G, const std::vector<int>& rows, const std::vector<int>& cols, MatX& A) {
  A.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) A(i, j) = G(rows[i], cols[j]);
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
  structural_rows(mech, G);
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
      n.lu.copy_factors(n.jlu);
    else
      n.lu.compute(n.Y1);
    if (estimate) {
      n.ratio = n.lu.degradation(n.rcond0);
      worst = std::min(worst, n.ratio);
    }
    if (n.ind.empty()) continue;
    sub_into(G, n.sel, n.ind, n.Y2);
    n.lu.solve(n.Y2, n.Xd);  // Eq. 60: X_d = -Y₁⁻¹ Y₂ (the sign below)
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
  for (const Node& n : nodes_) count += n.ratio < kRechoose;
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
    VecX yd;
    n.lu.solve(gs, yd);
    for (std::size_t i = 0; i < n.dep.size(); ++i) y[n.dep[i]] = yd[i];
  }
}

void ConstraintEmbedding::multipliers(const VecX& r, VecX& mu) const {
  mu.setZero(set_.rows());
  for (const Node& n : nodes_) {
    VecX rd(n.dep.size());
    for (std::size_t i = 0; i < n.dep.size(); ++i) rd[i] = r[n.dep[i]];
    VecX m;
    n.lu.solve_transposed(rd, m);  // Y₁^T μ = r on the dependent coordinates
    for (std::size_t i = 0; i < n.sel.size(); ++i) mu[n.sel[i]] = m[i];
  }
}

std::string ConstraintEmbedding::describe() const {
  std::ostringstream os;
  for (const Node& n : nodes_)
    os << "[" << joints_of(n.ind) << " rcond " << n.lu.min_rcond() << ", " << n.ratio
       << " of its value when chosen, " << n.lu.blocks() << " block(s)] ";
  return os.str();
}

}  // namespace articula
