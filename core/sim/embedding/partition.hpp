#pragma once
// The embedding of each aggregated node (Jain, Part II §4.3 and §8, Eqs. 25, 36, 58-61): the
// node's constraint rows Y θ̈ = g (loop closures, drives and couplings inside it, from the
// constraint set) are partitioned into dependent and independent coordinates with Y₁ = Y[:, dep]
// square and invertible, so that θ̇ = X_S θ̇_R with X_S = [I; -Y₁⁻¹ Y₂] (Eq. 60), and the
// accelerations are θ̈ = X_S θ̈_R + Ẋ_S θ̇_R, where Ẋ_S θ̇_R is the particular solution
// Y₁⁻¹ g of the rows' velocity-product terms (Eq. 61 without forming Ẏ). Coordinates of
// motion-driven tree joints are always dependent (their law gives them), and so are those of
// joints whose coordinates are not their velocities' integrals (quaternions) unless the whole
// joint is independent (below): the independent coordinates are then true coordinates (or a
// whole joint's quaternion), integrated as such.
// The choice is made by pivoted QR (the best-conditioned columns) and made again when Y₁ has
// become ill-conditioned relative to when it was chosen (§9, singularity monitoring); when the
// rows themselves lose rank no choice works, and the diagnosis names the node's joints.
// Where a node's loops share coordinates (the Stewart platform's legs all meet the top plate),
// the shared coordinates are made independent when the others can carry the rows with Y₁ as well
// conditioned (choice.cpp): Y₁ then splits into one block per loop, and every solve with it and
// with the position solve's block is per block (block_lu.hpp), as is the conditioning watch.
// A spherical or free joint is independent only as a whole (all of its coordinates shared).
#include <Eigen/LU>
#include <cmath>
#include <string>
#include <vector>

#include "core/sim/constraints/constraint_set.hpp"
#include "core/sim/embedding/aggregation.hpp"
#include "core/sim/embedding/block_lu.hpp"

namespace articula {

class ConstraintEmbedding {
 public:
  // Rows are assigned to nodes by the columns they touch in G (computed by the caller at a
  // generic state, constraints.acceleration). Throws SetupError when a row spans two nodes or
  // when the rows cannot be partitioned (redundant rows other than structurally zero ones).
  ConstraintEmbedding(const Mechanism& mech, ConstraintSet& constraints, const MatX& G);

  // Partition of every node at rows G: sel rows, dep / ind coordinates. when: for diagnoses.
  void choose(const MatX& G, const std::string& when);
  // Y₁ factors and X_S at rows G (same rows as at the last choose). Returns the worst ratio of
  // a node's Y₁ reciprocal condition estimate to its value when chosen; with estimate = false
  // (the solver's calls, between monitor()s) the estimate is skipped and 1 returned.
  double factor(const MatX& G, bool estimate = true);
  // Re-chooses the nodes whose Y₁ has degraded by kRechoose since chosen; returns how many.
  int monitor(const MatX& G, const std::string& when);

  int minimal() const { return static_cast<int>(independent_.size()); }
  const std::vector<int>& independent() const { return independent_; }  // coordinates (nv)
  const MatX& X() const { return X_; }  // nv x minimal(): q̇ = X θ̇_R (+ drives' motion)
  // y with G y = g and y zero on the independent coordinates (Ẋ θ̇_R and drives' terms).
  void particular(const VecX& g, VecX& y) const;
  // μ with G^T μ = r on every node's dependent coordinates (rows not selected get 0): the
  // multipliers when r = H q̈ + C - τ.
  void multipliers(const VecX& r, VecX& mu) const;

  // Position level: the dependent coordinates of q from its independent ones and the drives'
  // laws at c.t, by Newton's method on each node's selected rows from q's present values (the
  // previous values when integrating); then q̇ on the dependent coordinates from the rows'
  // velocity targets. Runs forward kinematics into c.data. Returns the residual max |e| of
  // the selected rows; throws SetupError when it does not reach tol.
  double solve_dependent(ConstraintContext& c, double tol, VecX& q, VecX& qd);
  // How far the position solve's dependent block J[sel, free_dep] has lost conditioning since the
  // choice: the worst ratio of its reciprocal condition estimate at the last solve_dependent to
  // its value at the first solve after the choice (1 when nothing was solved since). A cheap
  // watch (the last solve's factors, no new rows) for when monitor() is worth its G.
  double closure_degradation() const;
  // The per-step watch: whether monitor() is worth its G now. True when closure_degradation()
  // is at or below the watch threshold (0.8 after a choice); each check that keeps the choice
  // lowers the threshold to 0.9 of the ratio it saw, and the threshold follows the ratio up when
  // it recovers, so Y₁ is checked every ~10 % of lost conditioning, not at every step while the
  // ratio sits between 0.8 and monitor()'s 0.5.
  bool closure_watch();

  // The nodes: their coordinates (increasing) and the independent ones among them (increasing,
  // each also in independent(); X's columns for node n are those coordinates' positions there).
  int nodes() const { return static_cast<int>(nodes_.size()); }
  const std::vector<int>& node_columns(int n) const { return nodes_[n].cols; }
  const std::vector<int>& node_independent(int n) const { return nodes_[n].ind; }

  // Whether Y₁ and the position block are factored per block (default) or whole, for the same
  // choice: the dense cross-check of the split (takes effect at the next choose()).
  void split_blocks(bool on) { split_ = on; }
  int blocks(int n) const { return nodes_[n].lu.blocks(); }  // Y₁'s blocks in node n

  int rechosen() const { return rechosen_; }               // choices re-made since construction
  long factorizations() const { return factorizations_; }  // factor() calls since construction
  std::string describe() const;  // per node: its independent coordinates' joints

 private:
  struct Node {
    std::vector<int> cols, rows;  // coordinates and constraint rows inside the node
    std::vector<int> dep, ind;    // the choice: dependent and independent coordinates
    std::vector<int> sel;         // rows kept (|sel| = |dep|), prescribing rows first
    std::vector<int> free_dep;    // dependent coordinates not prescribed (Newton unknowns)
    std::vector<int> sel_proj;    // projected rows of the selected non-prescribing rows
    int rank = -1;                // rank of the rows at the first choice
    std::vector<double> rcond0;   // Y₁'s blocks' conditioning when chosen
    double ratio = 1.0;           // the worst block's conditioning now / when chosen
    BlockLu lu;                   // of Y₁
    MatX Y1, Y2, Xd;              // factor()'s scratch: G[sel, dep], G[sel, ind], Y₁⁻¹ Y₂
    // Position solve (position_solve.cpp): Jb = J[sel_proj, free_dep] and its factors at the
    // last closed state (the velocity solve's), jrcond0 their blocks' conditioning after the
    // choice (empty until measured); jvalid: jlu holds factors of this choice's block (the chord
    // steps' Jacobian).
    MatX Jb;
    VecX en, dx;
    BlockLu jlu;
    std::vector<double> jrcond0;
    bool jvalid = false;
  };
  struct NewtonProgress {
    double err = INFINITY;  // the last evaluation's max |e|
    bool rows = false;      // J_ holds the rows at the present q
  };
  bool newton_step(ConstraintContext& c, double tol, NewtonProgress& p, VecX& q);
  void factor_position_block(Node& n);
  void solve_dependent_velocities(ConstraintContext& c, VecX& qd);
  void choose_node(Node& n, const MatX& G, const std::string& when);
  // choice.cpp: the structural columns of each row, and the choices of dependent columns.
  void structural_rows(const Mechanism& mech, const MatX& G);
  std::vector<int> free_columns(const MatX& G, const std::vector<int>& rows,
                                const std::vector<int>& forced, const std::vector<int>& others,
                                int rank) const;
  bool choose_split(Node& n, const Node& base, const MatX& G, const std::vector<int>& rows,
                    int rank, double dense_rcond);
  void select_rows(Node& n, const MatX& G, const std::vector<int>& rows, int rank);
  void form_blocks(Node& n);
  double block_rcond(const Node& n, const MatX& G) const;
  [[noreturn]] void singular(const Node& n, const std::string& when, const char* why) const;
  std::string joints_of(const std::vector<int>& coords) const;

  const Mechanism& mech_;
  ConstraintSet& set_;
  std::vector<Node> nodes_;
  std::vector<bool> prescribed_, prescribing_row_, forced_;
  std::vector<std::vector<int>> row_cols_;  // per row: the coordinates it can involve
  std::vector<int> row_group_;              // per row: its loop joint, or -1 - row
  bool split_ = true;
  std::vector<int> independent_;
  MatX X_, J_;
  VecX e_, y_, dv_;
  int rechosen_ = 0;
  double watch_ = -1.0;  // closure_watch()'s threshold, -1 until the first watch after a choice
  long factorizations_ = 0;
};

}  // namespace articula
