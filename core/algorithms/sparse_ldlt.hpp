#pragma once
// Block-sparse symmetric factorisation of the body-coordinate equations of motion (RBDA 8.13,
// Eq. 8.64): the four facilities the book lists for a sparse-matrix library, on blocks.
//   - symbolic analysis, once per mechanism: a minimum-degree elimination order on the block
//     graph of bodies and joints, the fill pattern, block storage and the list of block updates;
//   - numeric factorisation and back-substitution per step, with no heap allocation.
// Nodes are bodies (positive definite diagonal block) and joints (zero diagonal block, coupled to
// their one or two bodies only). The matrix is indefinite, so the factor is a signed block
// Cholesky K = L S L^T, S = diag(+1 for bodies, -1 for joints), each diagonal block of L a
// Cholesky factor of ±(pivot block). A joint may be eliminated only after one of its bodies, and
// only while the eliminated part is not over-constrained by a count (Grübler-Kutzbach on each
// connected part of the eliminated bodies): its pivot is then the negative definite
// -T^T I^-1 T-like Schur complement, never the zero block. A pivot that still falls below a
// relative tolerance (a singular configuration, a massless body) makes factor() return false,
// so the caller can fall back to a rank-revealing method; nothing becomes NaN.
//
// Why not a library: Eigen's SimplicialLDLT with AMD ordering and SuiteSparse (CHOLMOD's LDL^T,
// LDL) factor without pivoting in an order chosen from the pattern alone, which puts zero joint
// pivots first on this KKT matrix (a fill-reducing order does not know that a joint row must
// follow its body); they work on scalar CSC entries with index indirection where this matrix has
// dense 3x3/6x6 blocks; and Eigen's factorize() takes stack-or-heap temporaries per call. With a
// caller-given order SimplicialLDLT could work, but the blocks here are the cheaper route.
#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <functional>
#include <utility>
#include <vector>

namespace articula {

struct SparseLdltPattern {
  // Per node, natural numbering: block size, kind, first entry in the right-hand side.
  std::vector<int> dim;
  std::vector<char> body;  // 1: body (pivot sign +), 0: joint (pivot sign -)
  std::vector<int> x_offset;
  int size = 0;  // scalar order of the matrix
  // Elimination order and its inverse.
  std::vector<int> order, position;
  // Storage: the diagonal block of each node (dim x dim), and below it, per eliminated node k,
  // the blocks L(i, k) of the later nodes i it is coupled to (dim_i x dim_k), column-major.
  std::vector<int> diag_offset;  // by node
  std::vector<int> col_begin;    // by position k: range in below_node / below_offset
  std::vector<int> below_node, below_offset;
  struct Update {  // target -= sign * left * right^T (rows x depth times depth x cols)
    int target, left, right;
    int kernel;  // (rows - 1) * 36 + (cols - 1) * 6 + depth - 1
  };
  std::vector<Update> updates;
  std::vector<int> update_begin;  // by position k
  int values = 0;                 // doubles of storage
  // Storage that is not a body's diagonal block or a body-joint coupling block (joint diagonal
  // blocks and fill): [begin, end) ranges to zero before each assembly.
  std::vector<std::pair<int, int>> fill_ranges;
  double flops = 0.0;  // multiply-adds of one factorisation and one solve

  // Offset of the stored block coupling nodes a and b (a != b, coupled). transposed: the block
  // is stored as (b rows x a cols) rather than (a rows x b cols).
  int block_offset(int a, int b, bool& transposed) const;
};

// The blocks of the matrix at a representative state, for the pivot checks of the ordering:
// block(a, b) is dim_a x dim_b, for a == b or a joint and one of its bodies.
using SparseLdltBlocks = std::function<Eigen::MatrixXd(int a, int b)>;

// Elimination order, fill and storage for nodes of the given sizes. joint_bodies[u] holds the
// body nodes of joint node u (node indices of body nodes, -1 for the base; ignored for body
// nodes); joints are coupled to those bodies only. With blocks given, a joint is admissible only
// when its pivot at that state is also well conditioned (the count cannot see a sub-structure
// that is singular by its geometry, e.g. two collinear links pinned at their far ends).
// Returns false when no admissible order exists (a joint with no body, or joints
// over-constraining the bodies they act on).
bool sparse_ldlt_analyse(const std::vector<int>& dim, const std::vector<char>& body,
                         const std::vector<std::array<int, 2>>& joint_bodies,
                         SparseLdltPattern& pattern, const SparseLdltBlocks& blocks = nullptr);

struct SparseLdltFactor {
  std::vector<double> values;     // the matrix blocks, then the factor, in place
  std::vector<double> reference;  // per node: pivot scale from calibrate() (0: none yet)
  void resize(const SparseLdltPattern& p);
  void zero() { std::fill(values.begin(), values.end(), 0.0); }
  // Zeroes only p.fill_ranges: for an assembly that writes every body and coupling block.
  void zero_fill(const SparseLdltPattern& p) {
    for (const auto& [b, e] : p.fill_ranges) std::fill(values.begin() + b, values.begin() + e, 0.0);
  }
};

// Factor the blocks in f.values in place. A pivot below rel_tol times the node's reference scale
// (or times its own largest diagonal entry before calibration) fails: returns false.
bool sparse_ldlt_factor(const SparseLdltPattern& p, SparseLdltFactor& f, double rel_tol = 1e-10);
// As factor, and record each node's pivot scale as its reference for later factorisations.
bool sparse_ldlt_calibrate(const SparseLdltPattern& p, SparseLdltFactor& f);
// x := K^-1 x (natural node numbering, p.size entries).
void sparse_ldlt_solve(const SparseLdltPattern& p, const SparseLdltFactor& f, double* x);
// factor then solve, the forward substitution interleaved with the factorisation (the same
// result, bit for bit). On a failed pivot returns false with x partly transformed.
bool sparse_ldlt_factor_solve(const SparseLdltPattern& p, SparseLdltFactor& f, double* x,
                              double rel_tol = 1e-10);

}  // namespace articula
