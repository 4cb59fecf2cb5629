#pragma once
// Factors of a square matrix that is block diagonal up to a permutation of its rows and columns
// (issue 18, session 30). An embedding node's dependent block Y₁ often splits so: on the Stewart
// platform, with the top plate's pose independent, each leg's cut joint involves that leg's own
// dependent coordinates only, and Y₁ (15 x 15) is five 3 x 3 blocks. The blocks are the connected
// components of the rows' structural pattern over the block's columns (block_components); each is
// factored and solved alone, which is the dense solve with the zero coupling skipped.
#include <Eigen/LU>
#include <vector>

#include "core/spatial/types.hpp"

namespace articula {

// Rows and columns of each block, as positions in the matrix (each block square).
struct LuBlocks {
  std::vector<std::vector<int>> rows, cols;
};

// The connected components of the bipartite graph rows-columns, where local row i touches the
// columns pattern[i] (column identifiers, e.g. coordinates) that are among `cols`. One block of
// everything when a component is not square (then the matrix is singular anyway) or when
// `split` is false.
LuBlocks block_components(const std::vector<std::vector<int>>& pattern,
                          const std::vector<int>& cols, bool split);

class BlockLu {
 public:
  void set_blocks(LuBlocks blocks);
  int blocks() const { return static_cast<int>(blocks_.size()); }
  const LuBlocks& structure() const { return structure_; }

  // Factors of A (its entries outside the blocks are not read: zero by structure).
  void compute(const MatX& A);
  // The factors of `other`, which has the same structure (no allocation once sized).
  void copy_factors(const BlockLu& other);
  // x with A x = b; X with A X = B; x with Aᵀ x = b.
  void solve(const VecX& b, VecX& x) const;
  void solve(const MatX& B, MatX& X) const;
  void solve_transposed(const VecX& b, VecX& x) const;
  // The blocks' reciprocal condition estimates (LAPACK's, as PartialPivLU::rcond).
  void rconds(std::vector<double>& out) const;
  double min_rcond() const;
  // min over blocks of rcond / reference[block] (reference from rconds() of the same structure).
  double degradation(const std::vector<double>& reference) const;

 private:
  // Blocks of up to kSmall rows (a leg's 3, a planar loop's 2) keep their explicit inverse
  // (closed form, fixed size) and its exact 1-norm condition; larger ones their LU factors.
  static constexpr int kSmall = 4;
  struct Block {
    std::vector<int> rows, cols;
    MatX a;
    Eigen::PartialPivLU<MatX> lu;
    Eigen::Matrix4d inv = Eigen::Matrix4d::Zero();  // small blocks: A_b⁻¹ (top-left n x n)
    double small_rcond = 0.0;
    mutable VecX rhs, x;
    int n() const { return static_cast<int>(rows.size()); }
    bool small() const { return n() <= kSmall; }
    double rcond() const;
  };
  static void invert_small(Block& b, const MatX& A, bool whole);
  template <class In, class Out>
  static void apply(const Block& b, const In& rhs, Out& x, bool transposed);
  LuBlocks structure_;
  std::vector<Block> blocks_;
  bool whole_ = false;  // one block of every row and column in order: A itself is factored
};

}  // namespace articula
