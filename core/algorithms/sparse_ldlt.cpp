#include "core/algorithms/sparse_ldlt.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace articula {

namespace {
// Connected parts of the eliminated bodies (joined by eliminated joints) with their remaining
// degrees of freedom: the count that keeps joint pivots nonsingular (header comment).
struct Parts {
  std::vector<int> parent, freedom;
  int find(int b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  }
  void join(int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return;
    parent[b] = a;
    freedom[a] += freedom[b];
  }
};

struct Ordering {
  const std::vector<int>& dim;
  const std::vector<char>& body;
  const std::vector<std::array<int, 2>>& ends;
  std::vector<std::set<int>> adj;
  std::vector<char> done;
  Parts parts;
  std::vector<std::vector<int>> joints_of;  // per body node: its joint nodes
  // The Schur complement at the representative state (when given): blocks keyed (a, b), a <= b,
  // and per node the largest diagonal magnitude its block has had (the pivot's scale).
  bool numeric = false;
  std::map<std::pair<int, int>, Eigen::MatrixXd> S;
  std::vector<double> scale;
  std::vector<signed char> well_conditioned;  // per joint: -1 unknown, else the cached check

  Eigen::MatrixXd get(int a, int b) const {
    if (a <= b) {
      auto it = S.find({a, b});
      return it == S.end() ? Eigen::MatrixXd::Zero(dim[a], dim[b]) : it->second;
    }
    return get(b, a).transpose();
  }
  void subtract(int a, int b, const Eigen::MatrixXd& M) {  // S_ab -= M (a <= b)
    auto it = S.find({a, b});
    if (it == S.end()) it = S.emplace(std::pair{a, b}, Eigen::MatrixXd::Zero(dim[a], dim[b])).first;
    it->second -= M;
    if (a == b) {
      scale[a] = std::max(scale[a], it->second.diagonal().cwiseAbs().maxCoeff());
      if (!body[a]) well_conditioned[a] = -1;
    }
  }
  bool pivot_ok(int u) {
    if (!numeric) return true;
    if (well_conditioned[u] < 0) {
      const Eigen::MatrixXd P = -get(u, u);
      const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(P).eigenvalues();
      well_conditioned[u] = ev.size() == 0 || ev.minCoeff() > 1e-8 * scale[u];
    }
    return well_conditioned[u] == 1;
  }
  void eliminate_numeric(int u) {
    const Eigen::MatrixXd P = get(u, u);
    const std::vector<int> nb(adj[u].begin(), adj[u].end());
    std::vector<Eigen::MatrixXd> W;  // S_au P^-1
    for (int a : nb) W.push_back(P.ldlt().solve(get(u, a)).transpose());
    for (std::size_t i = 0; i < nb.size(); ++i)
      for (std::size_t j = 0; j < nb.size(); ++j)
        if (nb[i] <= nb[j]) subtract(nb[i], nb[j], W[i] * get(u, nb[j]));
  }

  // Eliminated bodies of joint u, and the freedom left in their parts once u is eliminated.
  bool admissible(int u) {
    if (body[u]) return true;
    int roots[2] = {-1, -1}, n = 0, freedom = 0;
    for (int b : ends[u]) {
      if (b < 0 || !done[b]) continue;
      const int r = parts.find(b);
      if (n == 1 && roots[0] == r) continue;
      roots[n++] = r;
      freedom += parts.freedom[r];
    }
    return n > 0 && freedom - dim[u] >= 0 && pivot_ok(u);
  }
  void eliminate(int u) {
    if (numeric) eliminate_numeric(u);
    done[u] = 1;
    if (body[u]) {
      parts.freedom[u] = dim[u];
      for (int j : joints_of[u])
        if (done[j])
          for (int b : ends[j])
            if (b >= 0 && b != u && done[b]) parts.join(b, u);
    } else {
      int first = -1;
      for (int b : ends[u])
        if (b >= 0 && done[b]) {
          if (first < 0)
            first = b;
          else
            parts.join(first, b);
        }
      parts.freedom[parts.find(first)] -= dim[u];
    }
    // The remaining neighbours become a clique (the fill of eliminating u).
    for (int a : adj[u]) {
      adj[a].erase(u);
      for (int b : adj[u])
        if (a != b) adj[a].insert(b);
    }
  }
  int degree(int u) const {
    int w = 0;
    for (int a : adj[u]) w += dim[a];
    return w;
  }
};
}  // namespace

int SparseLdltPattern::block_offset(int a, int b, bool& transposed) const {
  transposed = position[a] < position[b];  // stored in the column of the earlier node
  const int row = transposed ? b : a, col = transposed ? a : b;
  const int k = position[col];
  for (int e = col_begin[k]; e < col_begin[k + 1]; ++e)
    if (below_node[e] == row) return below_offset[e];
  return -1;
}

namespace {
// Minimum (weighted) degree among the admissible nodes, with the fill of each elimination: the
// order, and per node the later nodes it is coupled to. False when no node is admissible.
bool order_nodes(Ordering& o, SparseLdltPattern& p, std::vector<std::vector<int>>& below) {
  const int n = static_cast<int>(o.dim.size());
  below.assign(n, {});
  for (int k = 0; k < n; ++k) {
    int best = -1, best_degree = std::numeric_limits<int>::max();
    for (int u = 0; u < n; ++u) {
      if (o.done[u] || !o.admissible(u)) continue;
      const int d = o.degree(u);
      if (d < best_degree) best = u, best_degree = d;
    }
    if (best < 0) return false;
    below[best].assign(o.adj[best].begin(), o.adj[best].end());
    p.order.push_back(best);
    o.eliminate(best);
  }
  p.position.resize(n);
  for (int k = 0; k < n; ++k) p.position[p.order[k]] = k;
  return true;
}

// Block storage in elimination order, and the ranges the assembly does not overwrite.
void layout(const std::vector<std::array<int, 2>>& ends, const std::vector<std::vector<int>>& below,
            SparseLdltPattern& p) {
  const int n = static_cast<int>(p.dim.size());
  p.diag_offset.resize(n);
  p.col_begin.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) {
    const int u = p.order[k];
    p.diag_offset[u] = p.values;
    p.values += p.dim[u] * p.dim[u];
    p.col_begin[k] = static_cast<int>(p.below_node.size());
    for (int i : below[u]) {
      p.below_node.push_back(i);
      p.below_offset.push_back(p.values);
      p.values += p.dim[i] * p.dim[u];
    }
  }
  p.col_begin[n] = static_cast<int>(p.below_node.size());
  auto add_fill = [&](int b, int e) {
    if (!p.fill_ranges.empty() && p.fill_ranges.back().second == b)
      p.fill_ranges.back().second = e;
    else
      p.fill_ranges.push_back({b, e});
  };
  auto coupled = [&](int a, int b) {  // an entry of the original matrix (body-joint)
    const int j = p.body[a] ? b : a, bd = p.body[a] ? a : b;
    return p.body[a] != p.body[b] && (ends[j][0] == bd || ends[j][1] == bd);
  };
  for (int k = 0; k < n; ++k) {
    const int u = p.order[k];
    if (!p.body[u]) add_fill(p.diag_offset[u], p.diag_offset[u] + p.dim[u] * p.dim[u]);
    for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e)
      if (!coupled(p.below_node[e], u))
        add_fill(p.below_offset[e], p.below_offset[e] + p.dim[p.below_node[e]] * p.dim[u]);
  }
}

// The Schur-complement updates of each pivot, with their kernels, and the operation count.
bool list_updates(SparseLdltPattern& p) {
  const int n = static_cast<int>(p.dim.size());
  const std::vector<int>& dim = p.dim;
  p.update_begin.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) {
    const int u = p.order[k], m = dim[u];
    p.update_begin[k] = static_cast<int>(p.updates.size());
    p.flops += m * m * m / 3.0 + 2.0 * m * m;  // Cholesky of the pivot, its two solves
    for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e) {
      const int a = p.below_node[e];
      p.flops += dim[a] * m * m / 2.0 + 4.0 * dim[a] * m;  // L(a, u), and solve
      for (int f = p.col_begin[k]; f < p.col_begin[k + 1]; ++f) {
        const int b = p.below_node[f];
        if (p.position[a] < p.position[b]) continue;
        bool t = false;
        const int target = a == b ? p.diag_offset[a] : p.block_offset(a, b, t);
        if (target < 0 || t) return false;  // cannot happen: the pattern is closed under fill
        const int kernel = (dim[a] - 1) * 36 + (dim[b] - 1) * 6 + (m - 1);
        p.updates.push_back({target, p.below_offset[e], p.below_offset[f], kernel});
        p.flops += static_cast<double>(dim[a]) * dim[b] * m;
      }
    }
  }
  p.update_begin[n] = static_cast<int>(p.updates.size());
  return true;
}
}  // namespace

bool sparse_ldlt_analyse(const std::vector<int>& dim, const std::vector<char>& body,
                         const std::vector<std::array<int, 2>>& joint_bodies, SparseLdltPattern& p,
                         const SparseLdltBlocks& blocks) {
  const int n = static_cast<int>(dim.size());
  for (int u = 0; u < n; ++u)
    if (dim[u] < 1 || dim[u] > 6) return false;  // the kernels' block sizes
  Ordering o{dim,
             body,
             joint_bodies,
             std::vector<std::set<int>>(n),
             std::vector<char>(n, 0),
             Parts{std::vector<int>(n), std::vector<int>(n, 0)},
             std::vector<std::vector<int>>(n),
             false,
             {},
             {},
             {}};
  for (int u = 0; u < n; ++u) o.parts.parent[u] = u;
  for (int u = 0; u < n; ++u) {
    if (body[u]) continue;
    for (int b : joint_bodies[u])
      if (b >= 0) {
        o.adj[u].insert(b);
        o.adj[b].insert(u);
        o.joints_of[b].push_back(u);
      }
  }
  if (blocks) {
    o.numeric = true;
    o.scale.assign(n, 0.0);
    o.well_conditioned.assign(n, -1);
    for (int u = 0; u < n; ++u) {
      if (body[u])
        o.subtract(u, u, -blocks(u, u));
      else
        for (int b : joint_bodies[u])
          if (b >= 0)
            o.S[{std::min(u, b), std::max(u, b)}] = blocks(std::min(u, b), std::max(u, b));
    }
  }
  p = SparseLdltPattern{};
  p.dim = dim;
  p.body = body;
  p.x_offset.resize(n);
  for (int u = 0; u < n; ++u) p.x_offset[u] = p.size, p.size += dim[u];
  std::vector<std::vector<int>> below;
  if (!order_nodes(o, p, below)) return false;
  layout(joint_bodies, below, p);
  return list_updates(p);
}

void SparseLdltFactor::resize(const SparseLdltPattern& p) {
  values.assign(p.values, 0.0);
  reference.assign(p.dim.size(), 0.0);
}

namespace {
// The numeric kernels take their block sizes (1..6, the spatial dimension bounds every block) as
// template arguments, so each small product is unrolled; the analysis stores the kernel index.
constexpr int kMaxBlock = 6;

// In place: the lower triangle of s * D becomes its Cholesky factor C (column-major, M x M), with
// C's diagonal stored as reciprocals (1 / C_jj), so that no solve divides.
// False when a pivot (squared diagonal of C) is not above rel_tol * ref, ref being D's largest
// diagonal magnitude when not given; scale returns that magnitude.
template <int M>
bool cholesky(double* D, double s, double ref, double rel_tol, double& scale) {
  scale = 0.0;
  for (int j = 0; j < M; ++j) scale = std::max(scale, std::abs(D[j + j * M]));
  if (ref <= 0.0) ref = scale;
  for (int j = 0; j < M; ++j) {
    double d = s * D[j + j * M];
    for (int l = 0; l < j; ++l) d -= D[j + l * M] * D[j + l * M];
    if (!(d > rel_tol * ref)) return false;
    // 1 / sqrt(d) as sqrt(d) * (1 / d): the root and the division run side by side, not one
    // after the other (the pivots are on the elimination's critical path).
    const double inv = std::sqrt(d) * (1.0 / d);
    D[j + j * M] = inv;  // stored as its reciprocal: the solves multiply
    for (int i = j + 1; i < M; ++i) {
      double a = s * D[i + j * M];
      for (int l = 0; l < j; ++l) a -= D[i + l * M] * D[j + l * M];
      D[i + j * M] = a * inv;
    }
  }
  return true;
}

// B := B C^-T for an R x M block B (each row solves C y = b).
template <int R, int M>
void right_solve(double* __restrict B, const double* __restrict C) {
  for (int j = 0; j < M; ++j) {
    const double inv = C[j + j * M];  // 1 / C_jj
    for (int r = 0; r < R; ++r) {
      double y = B[r + j * R];
      for (int l = 0; l < j; ++l) y -= C[j + l * M] * B[r + l * R];
      B[r + j * R] = y * inv;
    }
  }
}
// b -= Y z (R x M times M), and z -= s Y^T x (M x R times R): the solve's block operations.
template <int R, int M>
void lower_apply(const double* __restrict Y, const double* __restrict z, double* __restrict b) {
  for (int l = 0; l < M; ++l)
    for (int r = 0; r < R; ++r) b[r] -= Y[r + l * R] * z[l];
}
template <int R, int M>
void upper_apply(const double* __restrict Y, const double* __restrict x, double* __restrict z,
                 double s) {
  for (int l = 0; l < M; ++l) {
    double t = 0.0;
    for (int r = 0; r < R; ++r) t += Y[r + l * R] * x[r];
    z[l] -= s * t;
  }
}
using RightSolveFn = void (*)(double*, const double*);
using LowerFn = void (*)(const double*, const double*, double*);
using UpperFn = void (*)(const double*, const double*, double*, double);
template <int... I>
constexpr std::array<RightSolveFn, sizeof...(I)> right_solve_table(
    std::integer_sequence<int, I...>) {
  return {&right_solve<I / 6 + 1, I % 6 + 1>...};
}
template <int... I>
constexpr std::array<LowerFn, sizeof...(I)> lower_table(std::integer_sequence<int, I...>) {
  return {&lower_apply<I / 6 + 1, I % 6 + 1>...};
}
template <int... I>
constexpr std::array<UpperFn, sizeof...(I)> upper_table(std::integer_sequence<int, I...>) {
  return {&upper_apply<I / 6 + 1, I % 6 + 1>...};
}
constexpr auto kRightSolve = right_solve_table(std::make_integer_sequence<int, 36>{});
constexpr auto kLower = lower_table(std::make_integer_sequence<int, 36>{});
constexpr auto kUpper = upper_table(std::make_integer_sequence<int, 36>{});

// One pivot node: factor its block, scale its column, return false on a bad pivot.
template <int M>
bool pivot(const SparseLdltPattern& p, double* v, int k, double s, double ref, double rel_tol,
           double& scale) {
  const int u = p.order[k];
  if (!cholesky<M>(v + p.diag_offset[u], s, ref, rel_tol, scale)) return false;
  const double* C = v + p.diag_offset[u];
  for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e)
    kRightSolve[(p.dim[p.below_node[e]] - 1) * 6 + M - 1](v + p.below_offset[e], C);
  return true;
}

// Schur complement update T -= s L R^T (R x K times K x C).
template <int R, int C, int K>
void update(double* __restrict T, const double* __restrict L, const double* __restrict Rt,
            double s) {
  for (int c = 0; c < C; ++c)
    for (int l = 0; l < K; ++l) {
      const double w = s * Rt[c + l * C];
      for (int r = 0; r < R; ++r) T[r + c * R] -= L[r + l * R] * w;
    }
}

using UpdateFn = void (*)(double*, const double*, const double*, double);
using PivotFn = bool (*)(const SparseLdltPattern&, double*, int, double, double, double, double&);
template <int... I>
constexpr std::array<UpdateFn, sizeof...(I)> update_table(std::integer_sequence<int, I...>) {
  return {&update<I / 36 + 1, (I / 6) % 6 + 1, I % 6 + 1>...};
}
constexpr auto kUpdate = update_table(std::make_integer_sequence<int, 216>{});
constexpr PivotFn kPivot[kMaxBlock] = {&pivot<1>, &pivot<2>, &pivot<3>,
                                       &pivot<4>, &pivot<5>, &pivot<6>};

// Forward step of node k: z_k = C_k^-1 b_k, y_k = s_k z_k, b_i -= Y(i, k) y_k below it.
template <int M>
void solve_forward(const SparseLdltPattern& p, const double* v, double* x, int k) {
  const int u = p.order[k];
  const double* C = v + p.diag_offset[u];
  double* z = x + p.x_offset[u];
  for (int j = 0; j < M; ++j) {
    double t = z[j];
    for (int l = 0; l < j; ++l) t -= C[j + l * M] * z[l];
    z[j] = t * C[j + j * M];
  }
  if (!p.body[u])
    for (int j = 0; j < M; ++j) z[j] = -z[j];
  for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e) {
    const int i = p.below_node[e];
    kLower[(p.dim[i] - 1) * 6 + M - 1](v + p.below_offset[e], z, x + p.x_offset[i]);
  }
}
// Backward step: x_k = C_k^-T (y_k - s_k sum_i Y(i, k)^T x_i).
template <int M>
void solve_backward(const SparseLdltPattern& p, const double* v, double* x, int k) {
  const int u = p.order[k];
  const double s = p.body[u] ? 1.0 : -1.0;
  const double* C = v + p.diag_offset[u];
  double* z = x + p.x_offset[u];
  for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e) {
    const int i = p.below_node[e];
    kUpper[(p.dim[i] - 1) * 6 + M - 1](v + p.below_offset[e], x + p.x_offset[i], z, s);
  }
  for (int j = M - 1; j >= 0; --j) {
    double t = z[j];
    for (int l = j + 1; l < M; ++l) t -= C[l + j * M] * z[l];
    z[j] = t * C[j + j * M];
  }
}
using SolveFn = void (*)(const SparseLdltPattern&, const double*, double*, int);
constexpr SolveFn kForward[kMaxBlock] = {&solve_forward<1>, &solve_forward<2>, &solve_forward<3>,
                                         &solve_forward<4>, &solve_forward<5>, &solve_forward<6>};
constexpr SolveFn kBackward[kMaxBlock] = {&solve_backward<1>, &solve_backward<2>,
                                          &solve_backward<3>, &solve_backward<4>,
                                          &solve_backward<5>, &solve_backward<6>};

// With x given, the forward substitution of each node right after its pivot (the same operations
// in the same order as a separate forward pass, while the node's blocks are in cache).
bool factor(const SparseLdltPattern& p, SparseLdltFactor& f, double rel_tol, bool calibrate,
            double* x = nullptr) {
  double* v = f.values.data();
  const int n = static_cast<int>(p.order.size());
  for (int k = 0; k < n; ++k) {
    const int u = p.order[k];
    const double s = p.body[u] ? 1.0 : -1.0;
    double scale = 0.0;
    if (!kPivot[p.dim[u] - 1](p, v, k, s, calibrate ? 0.0 : f.reference[u], rel_tol, scale))
      return false;
    if (calibrate) f.reference[u] = scale;
    if (x) kForward[p.dim[u] - 1](p, v, x, k);
    for (int x = p.update_begin[k]; x < p.update_begin[k + 1]; ++x) {
      const SparseLdltPattern::Update& up = p.updates[x];
      kUpdate[up.kernel](v + up.target, v + up.left, v + up.right, s);
    }
  }
  return true;
}
}  // namespace

bool sparse_ldlt_factor(const SparseLdltPattern& p, SparseLdltFactor& f, double rel_tol) {
  return factor(p, f, rel_tol, false);
}

bool sparse_ldlt_calibrate(const SparseLdltPattern& p, SparseLdltFactor& f) {
  return factor(p, f, 1e-14, true);
}

void sparse_ldlt_solve(const SparseLdltPattern& p, const SparseLdltFactor& f, double* x) {
  // K = L S L^T, L(k,k) = C_k and L(i,k) = s_k Y(i,k) with Y stored.
  const double* v = f.values.data();
  const int n = static_cast<int>(p.order.size());
  for (int k = 0; k < n; ++k) kForward[p.dim[p.order[k]] - 1](p, v, x, k);
  for (int k = n - 1; k >= 0; --k) kBackward[p.dim[p.order[k]] - 1](p, v, x, k);
}

bool sparse_ldlt_factor_solve(const SparseLdltPattern& p, SparseLdltFactor& f, double* x,
                              double rel_tol) {
  if (!factor(p, f, rel_tol, false, x)) return false;
  const double* v = f.values.data();
  for (int k = static_cast<int>(p.order.size()) - 1; k >= 0; --k)
    kBackward[p.dim[p.order[k]] - 1](p, v, x, k);
  return true;
}

}  // namespace articula
