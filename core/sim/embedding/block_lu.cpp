#include "core/sim/embedding/block_lu.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace articula {

namespace {
int block_lu_root(std::vector<int>& up, int i) {
  while (up[i] != i) i = up[i] = up[up[i]];
  return i;
}

LuBlocks block_lu_single(int rows, int cols) {
  LuBlocks out;
  out.rows.emplace_back(rows);
  out.cols.emplace_back(cols);
  std::iota(out.rows[0].begin(), out.rows[0].end(), 0);
  std::iota(out.cols[0].begin(), out.cols[0].end(), 0);
  return out;
}
}  // namespace

LuBlocks block_components(const std::vector<std::vector<int>>& pattern,
                          const std::vector<int>& cols, bool split) {
  const int nr = static_cast<int>(pattern.size()), nc = static_cast<int>(cols.size());
  if (!split || nr == 0) return block_lu_single(nr, nc);
  std::unordered_map<int, int> local;  // column identifier -> its position in cols
  for (int j = 0; j < nc; ++j) local[cols[j]] = j;
  std::vector<int> up(nr + nc);  // union-find over rows, then columns
  std::iota(up.begin(), up.end(), 0);
  for (int i = 0; i < nr; ++i)
    for (int c : pattern[i]) {
      const auto it = local.find(c);
      if (it != local.end()) up[block_lu_root(up, i)] = block_lu_root(up, nr + it->second);
    }
  LuBlocks out;
  std::vector<int> block_of(nr + nc, -1);
  for (int k = 0; k < nr + nc; ++k) {
    const int root = block_lu_root(up, k);
    if (block_of[root] < 0) {
      block_of[root] = static_cast<int>(out.rows.size());
      out.rows.emplace_back();
      out.cols.emplace_back();
    }
    if (k < nr)
      out.rows[block_of[root]].push_back(k);
    else
      out.cols[block_of[root]].push_back(k - nr);
  }
  for (std::size_t b = 0; b < out.rows.size(); ++b)
    if (out.rows[b].size() != out.cols[b].size()) return block_lu_single(nr, nc);
  return out;
}

void BlockLu::set_blocks(LuBlocks blocks) {
  structure_ = std::move(blocks);
  blocks_.assign(structure_.rows.size(), Block{});
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    blocks_[b].rows = structure_.rows[b];
    blocks_[b].cols = structure_.cols[b];
  }
  whole_ = blocks_.size() == 1;
  for (std::size_t i = 0; whole_ && i < blocks_[0].rows.size(); ++i)
    whole_ = blocks_[0].rows[i] == static_cast<int>(i);
  for (std::size_t j = 0; whole_ && j < blocks_[0].cols.size(); ++j)
    whole_ = blocks_[0].cols[j] == static_cast<int>(j);
}

double BlockLu::Block::rcond() const {
  if (rows.empty()) return 1.0;
  return small() ? small_rcond : lu.rcond();
}

// A_b⁻¹ in closed form (Eigen's fixed-size inverse) and 1 / (‖A_b‖₁ ‖A_b⁻¹‖₁); rcond 0 when
// A_b is singular (its inverse not finite).
void BlockLu::invert_small(Block& b, const MatX& A, bool whole) {
  const int n = b.n();
  Eigen::Matrix4d a = Eigen::Matrix4d::Identity();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a(i, j) = whole ? A(i, j) : A(b.rows[i], b.cols[j]);
  switch (n) {
    case 1:
      b.inv(0, 0) = 1.0 / a(0, 0);
      break;
    case 2:
      b.inv.topLeftCorner<2, 2>() = a.topLeftCorner<2, 2>().inverse();
      break;
    case 3:
      b.inv.topLeftCorner<3, 3>() = a.topLeftCorner<3, 3>().inverse();
      break;
    default:
      b.inv = a.inverse();
      break;
  }
  const double norm = a.topLeftCorner(n, n).cwiseAbs().colwise().sum().maxCoeff();
  const double inv_norm = b.inv.topLeftCorner(n, n).cwiseAbs().colwise().sum().maxCoeff();
  b.small_rcond = std::isfinite(inv_norm) && inv_norm > 0.0 ? 1.0 / (norm * inv_norm) : 0.0;
}

template <class In, class Out>
void BlockLu::apply(const Block& b, const In& rhs, Out& x, bool transposed) {
  const int n = b.n();
  const std::vector<int>& in = transposed ? b.cols : b.rows;
  const std::vector<int>& out = transposed ? b.rows : b.cols;
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int j = 0; j < n; ++j) sum += (transposed ? b.inv(j, i) : b.inv(i, j)) * rhs[in[j]];
    x[out[i]] = sum;
  }
}

void BlockLu::compute(const MatX& A) {
  if (whole_) {  // the dense factors themselves, as before the blocks
    if (blocks_[0].small())
      invert_small(blocks_[0], A, true);
    else
      blocks_[0].lu.compute(A);
    return;
  }
  for (Block& b : blocks_) {
    if (b.small()) {
      invert_small(b, A, false);
      continue;
    }
    const auto n = static_cast<Eigen::Index>(b.rows.size());
    b.a.resize(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) b.a(i, j) = A(b.rows[i], b.cols[j]);
    b.lu.compute(b.a);
  }
}

void BlockLu::copy_factors(const BlockLu& other) {
  for (std::size_t b = 0; b < blocks_.size() && b < other.blocks_.size(); ++b) {
    Block& to = blocks_[b];
    const Block& from = other.blocks_[b];
    if (to.small())
      to.inv = from.inv, to.small_rcond = from.small_rcond;
    else
      to.lu = from.lu;
  }
}

void BlockLu::solve(const VecX& rhs, VecX& x) const {
  if (whole_ && !blocks_[0].small()) {
    x.noalias() = blocks_[0].lu.solve(rhs);
    return;
  }
  x.resize(rhs.size());
  for (const Block& b : blocks_) {
    if (b.small()) {
      apply(b, rhs, x, false);
      continue;
    }
    b.rhs.resize(static_cast<Eigen::Index>(b.rows.size()));
    for (std::size_t i = 0; i < b.rows.size(); ++i) b.rhs[i] = rhs[b.rows[i]];
    b.x.noalias() = b.lu.solve(b.rhs);
    for (std::size_t j = 0; j < b.cols.size(); ++j) x[b.cols[j]] = b.x[j];
  }
}

void BlockLu::solve(const MatX& B, MatX& X) const {
  if (whole_ && !blocks_[0].small()) {
    X.noalias() = blocks_[0].lu.solve(B);
    return;
  }
  X.resize(B.rows(), B.cols());
  for (Eigen::Index k = 0; k < B.cols(); ++k)
    for (const Block& b : blocks_) {
      auto xk = X.col(k);
      if (b.small()) {
        apply(b, B.col(k), xk, false);
        continue;
      }
      b.rhs.resize(static_cast<Eigen::Index>(b.rows.size()));
      for (std::size_t i = 0; i < b.rows.size(); ++i) b.rhs[i] = B(b.rows[i], k);
      b.x.noalias() = b.lu.solve(b.rhs);
      for (std::size_t j = 0; j < b.cols.size(); ++j) X(b.cols[j], k) = b.x[j];
    }
}

void BlockLu::solve_transposed(const VecX& rhs, VecX& x) const {
  if (whole_ && !blocks_[0].small()) {
    x.noalias() = blocks_[0].lu.transpose().solve(rhs);
    return;
  }
  x.resize(rhs.size());
  for (const Block& b : blocks_) {  // Aᵀ x = rhs: block b's columns give its equations
    if (b.small()) {
      apply(b, rhs, x, true);
      continue;
    }
    b.rhs.resize(static_cast<Eigen::Index>(b.cols.size()));
    for (std::size_t j = 0; j < b.cols.size(); ++j) b.rhs[j] = rhs[b.cols[j]];
    b.x.noalias() = b.lu.transpose().solve(b.rhs);
    for (std::size_t i = 0; i < b.rows.size(); ++i) x[b.rows[i]] = b.x[i];
  }
}

void BlockLu::rconds(std::vector<double>& out) const {
  out.clear();
  for (const Block& b : blocks_) out.push_back(b.rcond());
}

double BlockLu::min_rcond() const {
  double out = 1.0;
  for (const Block& b : blocks_) out = std::min(out, b.rcond());
  return out;
}

double BlockLu::degradation(const std::vector<double>& reference) const {
  double worst = 1.0;
  for (std::size_t b = 0; b < blocks_.size() && b < reference.size(); ++b)
    if (!blocks_[b].rows.empty() && reference[b] > 0.0)
      worst = std::min(worst, blocks_[b].rcond() / reference[b]);
  return worst;
}

}  // namespace articula
