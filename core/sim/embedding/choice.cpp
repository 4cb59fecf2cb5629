// The choice of each node's dependent coordinates (ConstraintEmbedding::choose_node; Jain Part
// II §8-9): the best-conditioned columns by pivoted QR, or, where the node's loops share
// coordinates, the choice that makes the shared ones independent so that Y₁ splits into one
// block per loop (partition.hpp), when it is about as well conditioned.
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/sim/embedding/partition.hpp"

namespace articula {

namespace {
// Numerical rank of a node's rows, relative to the largest pivot of their pivoted QR (the
// mobility analysis uses 1e-9 of the largest singular value).
constexpr double kChoiceRankThreshold = 1e-9;
// The split choice is taken when its worst block's reciprocal condition estimate is at least
// this fraction of the pivoted QR choice's (whole Y₁): the QR choice is the best-conditioned
// one only up to the estimate, and a split Y₁ is factored and watched block by block.
constexpr double kSplitConditioning = 0.1;

MatX choice_sub(const MatX& G, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX A(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) A(i, j) = G(rows[i], cols[j]);
  return A;
}

// The first k columns of A in the order of a column-pivoted QR (largest residual first).
std::vector<int> choice_best_columns(const MatX& A, int k) {
  std::vector<int> out;
  if (k <= 0 || A.size() == 0) return out;
  Eigen::ColPivHouseholderQR<MatX> qr(A);
  for (int j = 0; j < k; ++j) out.push_back(qr.colsPermutation().indices()[j]);
  return out;
}

int choice_rank(const MatX& A) {
  if (A.size() == 0) return 0;
  Eigen::ColPivHouseholderQR<MatX> qr(A);
  qr.setThreshold(kChoiceRankThreshold);
  return static_cast<int>(qr.rank());
}

int choice_common_ancestor(const Model& model, int a, int b) {
  while (a != b) {  // parents have lower indices
    if (a > b)
      a = model.parent[a];
    else
      b = model.parent[b];
  }
  return a;
}
}  // namespace

// Loop rows involve the joints on the paths from the loop's ends to their common ancestor (the
// rows stop there, loop_constraints); prescribing rows their one coordinate; any other row
// (couplings, drives on loop joints) is taken to involve every coordinate, which only keeps its
// node whole.
void ConstraintEmbedding::structural_rows(const Mechanism& mech, const MatX& G) {
  const Model& model = mech.model();
  const int rows = set_.rows();
  row_cols_.assign(rows, {});
  row_group_.resize(rows);
  std::vector<int> every(model.nv);
  for (int v = 0; v < model.nv; ++v) every[v] = v;
  for (int r = 0; r < rows; ++r) {
    row_group_[r] = -1 - r;
    if (prescribing_row_[r]) {
      for (int c = 0; c < model.nv; ++c)
        if (G(r, c) != 0.0) row_cols_[r].push_back(c);
    } else {
      row_cols_[r] = every;
    }
  }
  for (std::size_t k = 0; k < mech.compiled.loops.size(); ++k) {
    const LoopJoint& l = mech.compiled.loops[k];
    const int root = choice_common_ancestor(model, l.successor, l.predecessor);
    std::vector<int> cols;
    for (int end : {l.successor, l.predecessor})
      for (int b = end; b > 0 && b != root; b = model.parent[b])
        for (int j = 0; j < model.joints[b].nv(); ++j) cols.push_back(model.v_index[b] + j);
    std::sort(cols.begin(), cols.end());
    for (int r = l.row; r < l.row + l.joint.nc(); ++r) {
      row_cols_[r] = cols;
      row_group_[r] = static_cast<int>(k);
    }
  }
}

// The dependent columns among forced (always dependent) and others for rank `rank`: the forced
// ones, then the best-conditioned others once the forced columns' span is removed (pivoted QR of
// the projected rows).
std::vector<int> ConstraintEmbedding::free_columns(const MatX& G, const std::vector<int>& rows,
                                                   const std::vector<int>& forced,
                                                   const std::vector<int>& others, int rank) const {
  const MatX B = choice_sub(G, rows, forced);
  MatX P = choice_sub(G, rows, others);
  if (!forced.empty()) {
    Eigen::HouseholderQR<MatX> qr(B);
    const MatX Q1 = qr.householderQ() * MatX::Identity(B.rows(), B.cols());
    P -= Q1 * (Q1.transpose() * P);
  }
  std::vector<int> out = forced;
  for (int j : choice_best_columns(P, rank - static_cast<int>(forced.size())))
    out.push_back(others[j]);
  return out;
}

// Rows selected for the dependent columns n.free_dep (|sel| = |dep|), then the independent
// columns, the blocks and Y₁'s factors.
void ConstraintEmbedding::select_rows(Node& n, const MatX& G, const std::vector<int>& rows,
                                      int rank) {
  for (int j : choice_best_columns(choice_sub(G, rows, n.free_dep).transpose(), rank)) {
    n.sel.push_back(rows[j]);
    n.sel_proj.push_back(set_.projected_row(rows[j]));
  }
  n.dep.insert(n.dep.end(), n.free_dep.begin(), n.free_dep.end());
  for (int c : n.cols)
    if (std::find(n.dep.begin(), n.dep.end(), c) == n.dep.end()) n.ind.push_back(c);
  form_blocks(n);
  n.lu.compute(choice_sub(G, n.sel, n.dep));
}

// The worst reciprocal condition estimate of n's Y₁ over its structural blocks (whether or not
// they are factored apart: the choice does not depend on split_).
double ConstraintEmbedding::block_rcond(const Node& n, const MatX& G) const {
  std::vector<std::vector<int>> pattern;
  for (int r : n.sel) pattern.push_back(row_cols_[r]);
  BlockLu probe;
  probe.set_blocks(block_components(pattern, n.dep, true));
  probe.compute(choice_sub(G, n.sel, n.dep));
  return probe.blocks() > 1 ? probe.min_rcond() : -probe.min_rcond();  // negative: one block
}

void ConstraintEmbedding::form_blocks(Node& n) {
  std::vector<std::vector<int>> pattern;
  for (int r : n.sel) pattern.push_back(row_cols_[r]);
  n.lu.set_blocks(block_components(pattern, n.dep, split_));
  pattern.clear();
  for (int r : n.sel)
    if (!prescribing_row_[r]) pattern.push_back(row_cols_[r]);
  n.jlu.set_blocks(block_components(pattern, n.free_dep, split_));
}

// The split choice: the coordinates that rows of two loops involve are independent, the rest
// carry the rows. False (n untouched) when there are none, when the rest cannot carry the rows
// (rank) or do not split Y₁, or when Y₁ is then worse conditioned than kSplitConditioning of
// the pivoted QR choice's.
bool ConstraintEmbedding::choose_split(Node& n, const Node& base, const MatX& G,
                                       const std::vector<int>& rows, int rank, double dense_rcond) {
  if (rows.empty()) return false;
  std::unordered_map<int, int> group_of;  // coordinate -> the first row group involving it
  std::vector<bool> shared(mech_.model().nv, false);
  for (int r : rows)
    for (int c : row_cols_[r]) {
      const auto [it, fresh] = group_of.emplace(c, row_group_[r]);
      if (!fresh && it->second != row_group_[r]) shared[c] = true;
    }
  std::vector<int> forced, others;
  bool any_shared = false;
  for (int c : n.cols) {
    any_shared = any_shared || (shared[c] && !prescribed_[c]);
    if (!prescribed_[c] && !shared[c]) (forced_[c] ? forced : others).push_back(c);
  }
  if (!any_shared || choice_rank(choice_sub(G, rows, forced)) < static_cast<int>(forced.size()))
    return false;
  std::vector<int> both = forced;
  both.insert(both.end(), others.begin(), others.end());
  if (choice_rank(choice_sub(G, rows, both)) < rank) return false;
  Node trial = base;
  trial.free_dep = free_columns(G, rows, forced, others, rank);
  select_rows(trial, G, rows, rank);
  const double split_rcond = block_rcond(trial, G);  // negative when Y₁ does not split
  if (!(split_rcond >= kSplitConditioning * dense_rcond)) return false;
  n = std::move(trial);
  return true;
}

void ConstraintEmbedding::choose_node(Node& n, const MatX& G, const std::string& when) {
  n.dep.clear(), n.sel.clear(), n.free_dep.clear(), n.sel_proj.clear(), n.ind.clear();
  n.jrcond0.clear();                      // measured again at the next position solve
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
  std::vector<int> free_cols = forced;
  free_cols.insert(free_cols.end(), others.begin(), others.end());
  const int r = choice_rank(choice_sub(G, rows, free_cols));
  if (n.rank < 0) n.rank = r;
  if (r < n.rank)
    singular(n, when,
             "their constraint rows have lost rank (a dead point or a branch point of the "
             "loops)");
  if (choice_rank(choice_sub(G, rows, forced)) < static_cast<int>(forced.size()))
    singular(n, when, "the loops do not determine the rotation of a spherical or free joint");
  const Node base = n;  // the prescribing rows and their coordinates so far
  n.free_dep = free_columns(G, rows, forced, others, r);
  select_rows(n, G, rows, r);
  choose_split(n, base, G, rows, r, std::abs(block_rcond(n, G)));
  n.lu.rconds(n.rcond0);
  n.ratio = 1.0;
  if (!(n.lu.min_rcond() > 1e-12)) singular(n, when, "Y1 is singular for the best choice");
}

}  // namespace articula
