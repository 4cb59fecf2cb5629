#pragma once
// The embedded articulated-body algorithm (Jain, Part II §6-7, Eqs. 46-57): ABA on the tree of
// aggregated nodes. Bodies outside every node are as in aba() (base coordinates, aba.hpp's
// passes). An aggregated node S (member bodies b, coordinates q_S of their joints, n_S of them,
// hanging from one outside body P) with q̈_S = X_S θ̈_S + y_S (y_S = Ẋ_S θ̇ and the drives' terms,
// partition.hpp) is one step of each pass:
//   tip to base: the members' articulated inertias I^A_b (their own, plus what their outside
//     children passed in) give the node's local mass matrix M̃_S (n_S x n_S, CRBA over the
//     members with I^A_b for inertias), U_S (6 x n_S, column j = I^C_{b(j)} s_j: the force at P
//     per unit q̈_j), I^C_S = Σ over base members of I^C_b, and the bias h_S and force p_S of a
//     local RNEA at q̈_S = y_S, a_P = 0. Then D_S = X_Sᵀ M̃_S X_S (k x k), W_S = U_S X_S (the
//     node's gain, 6 x k), u_S = X_Sᵀ (τ_S - h_S), and P receives
//       P_S = I^C_S - W_S D_S⁻¹ W_Sᵀ,   p_S + W_S D_S⁻¹ u_S,
//     the paper's articulated inertia of the node at its parent-attached body (Eqs. 50-53 in
//     base coordinates, where P_S is transported to P by plain addition);
//   base to tip: θ̈_S = D_S⁻¹ (u_S - W_Sᵀ a_P), q̈_S = X_S θ̈_S + y_S, member accelerations.
// The paper states these with the node's stacked 6m-vectors and M̃_S = blockdiag(I^A_b); the
// form here multiplies its Φ_S and H_S out into M̃_S (n_S x n_S) and U_S, which is the same
// D_S and gain with no 6m x 6m matrix (derived: the node's joint forces are
// M̃_S (q̈_S - y_S) + U_Sᵀ a_P + h_S, and the force it passes to P is
// I^C_S a_P + U_S (q̈_S - y_S) + p_S; substitute q̈_S and project by X_Sᵀ). Cost per node
// O(m² + n_S² k + k³): linear in the number of nodes, never forming the n x n H.
// M̃_S is kept sparse: only coordinates on one path of the node's tree couple (a Stewart
// platform's legs hang from ground side by side, so its 21 x 21 M̃_S is one 6 x 6 block for the
// plate's chain and five 3 x 3 ones). D_S = Σ over the coupled pairs, with X_S's rows at the
// independent coordinates unit rows, so each leg adds X_lᵀ M̃_l X_l and no n_S x n_S product is
// formed. dense_node_step(true) forms M̃_S and the products whole (the cross-check).
#include <Eigen/Cholesky>
#include <vector>

#include "core/algorithms/rnea.hpp"
#include "core/model/model.hpp"
#include "core/sim/embedding/partition.hpp"

namespace articula {

class EmbeddedAba {
 public:
  // The nodes of `embedding` (their member bodies from their coordinates). Throws SetupError when
  // a node's base bodies hang from different outside bodies (not a tree of nodes).
  EmbeddedAba(const Model& model, const ConstraintEmbedding& embedding);

  // q̈ into data.qdd at (q, qd, tau, f_ext) with the embedding factored at this state (X) and y
  // its particular solution (ConstraintEmbedding::particular). r receives H q̈ + C - τ on the
  // nodes' coordinates (the constraint forces G^T μ there; 0 elsewhere), for multipliers().
  // Returns false when a node's D_S is not positive definite (a singular embedded mass matrix).
  bool solve(Data& data, const ConstraintEmbedding& embedding, const VecX& y, const VecX& q,
             const VecX& qd, const VecX& tau, const ExternalForces* f_ext, VecX& r);
  // The node step with M̃_S (n_S x n_S) formed and multiplied whole: the tests' cross-check of the
  // sparse step.
  void dense_node_step(bool on) { dense_ = on; }

 private:
  struct Node {
    std::vector<int> bodies;  // model bodies, increasing (parents first)
    std::vector<int> up;      // per member: its parent's member index, -1 for a base member
    std::vector<int> cols;    // coordinates (nv indices) of the members, increasing
    std::vector<int> owner;   // per coordinate: its member index
    int parent = 0;           // the outside body P every base member hangs from
    // The coupled coordinate pairs (i >= j, owner[j] on the path from owner[i] to the node's
    // base): M̃_S's structural non-zeros in its lower triangle, diagonal included.
    std::vector<int> pair_i, pair_j;
    std::vector<double> mp;  // M̃_S on the pairs
    std::vector<int> xcol;   // per coordinate: its column of X_S if independent, else -1
    // Per evaluation (sized at construction or on a change of independent coordinates):
    std::vector<Mat6> IC;      // members' composite inertias within the node (base coords)
    std::vector<Motion> acc;   // local RNEA accelerations (a_P = 0, q̈ = y)
    std::vector<Force> force;  // local RNEA forces, accumulated tip to base
    Eigen::Matrix<double, 6, Eigen::Dynamic>
        S;  // 6 x n_S: the coordinates' motion subspaces (base coords)
    Eigen::Matrix<double, 6, Eigen::Dynamic> U, W;  // U_S (6 x n_S), W_S (6 x k)
    MatX M, X, DinvWt;  // M̃_S (n_S x n_S, dense step only), X_S (n_S x k), D_S⁻¹ W_Sᵀ (k x 6)
    MatX Xt, MXt, D;    // X_Sᵀ, (M̃_S X_S)ᵀ (columns per coordinate), D_S (scratch)
    VecX h, ys, Dinv_u, theta, qdd, Xh, rs;
    Eigen::LLT<MatX> llt;  // of D_S
  };
  bool tip_to_base(Data& data, Node& n, const VecX& y, const VecX& tau);
  static bool node_inverse(Node& n);
  void local_mass(const Data& data, Node& n);
  void node_mass_sparse(Node& n);
  void node_mass_dense(Node& n);
  void add_mass_times(const Node& n, VecX& r) const;
  void local_bias(const Data& data, Node& n, const VecX& y);
  void base_to_tip(Data& data, Node& n, VecX& r);
  void gather_x(Node& n, int index, const ConstraintEmbedding& embedding);

  const Model& model_;
  std::vector<Node> nodes_;
  std::vector<int> node_of_body_;  // per body: its node, -1 outside every node
  std::vector<char> first_;        // per body: it is its node's first member
  bool dense_ = false;             // dense_node_step()
};

}  // namespace articula
