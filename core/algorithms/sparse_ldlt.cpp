#include "core/algorithms/sparse_ldlt.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <map>
#include <limits>
#include <set>
#include <cstdio>
#include <cstdlib>

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
          if (first < 0) first = b;
          else parts.join(first, b);
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

bool sparse_ldlt_analyse(const std::vector<int>& dim, const std::vector<char>& body,
                         const std::vector<std::array<int, 2>>& joint_bodies,
                         SparseLdltPattern& p, const SparseLdltBlocks& blocks) {
  const int n = static_cast<int>(dim.size());
  Ordering o{dim, body, joint_bodies, std::vector<std::set<int>>(n), std::vector<char>(n, 0),
             Parts{std::vector<int>(n), std::vector<int>(n, 0)}, std::vector<std::vector<int>>(n)};
  for (int u = 0; u < n; ++u) o.parts.parent[u] = u;
  if (blocks) {
    o.numeric = true;
    o.scale.assign(n, 0.0);
    o.well_conditioned.assign(n, -1);
    for (int u = 0; u < n; ++u) {
      if (body[u]) o.subtract(u, u, -blocks(u, u));
      else
        for (int b : joint_bodies[u])
          if (b >= 0) o.S[{std::min(u, b), std::max(u, b)}] = blocks(std::min(u, b), std::max(u, b));
    }
  }
  for (int u = 0; u < n; ++u) {
    if (body[u]) continue;
    for (int b : joint_bodies[u])
      if (b >= 0) {
        o.adj[u].insert(b);
        o.adj[b].insert(u);
        o.joints_of[b].push_back(u);
      }
  }
  p = SparseLdltPattern{};
  p.dim = dim;
  p.body = body;
  p.x_offset.resize(n);
  for (int u = 0; u < n; ++u) p.x_offset[u] = p.size, p.size += dim[u];
  std::vector<std::vector<int>> below(n);
  for (int k = 0; k < n; ++k) {  // minimum (weighted) degree among the admissible nodes
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
  p.diag_offset.resize(n);
  p.col_begin.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) {
    const int u = p.order[k];
    p.diag_offset[u] = p.values;
    p.values += dim[u] * dim[u];
    p.col_begin[k] = static_cast<int>(p.below_node.size());
    for (int i : below[u]) {
      p.below_node.push_back(i);
      p.below_offset.push_back(p.values);
      p.values += dim[i] * dim[u];
    }
  }
  p.col_begin[n] = static_cast<int>(p.below_node.size());
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
        p.updates.push_back({target, p.below_offset[e], p.below_offset[f], dim[a], dim[b], m});
        p.flops += static_cast<double>(dim[a]) * dim[b] * m;
      }
    }
  }
  p.update_begin[n] = static_cast<int>(p.updates.size());
  return true;
}

void SparseLdltFactor::resize(const SparseLdltPattern& p) {
  values.assign(p.values, 0.0);
  reference.assign(p.dim.size(), 0.0);
  work.assign(p.size, 0.0);
}

namespace {
// In place: the lower triangle of s * D becomes its Cholesky factor C (column-major, m x m).
// False when a pivot (squared diagonal of C) is not above rel_tol * ref, ref being D's largest
// diagonal magnitude when not given; scale returns that magnitude.
bool cholesky(double* D, int m, double s, double ref, double rel_tol, double& scale) {
  scale = 0.0;
  for (int j = 0; j < m; ++j) scale = std::max(scale, std::abs(D[j + j * m]));
  if (ref <= 0.0) ref = scale;
  for (int j = 0; j < m; ++j) {
    double d = s * D[j + j * m];
    for (int l = 0; l < j; ++l) d -= D[j + l * m] * D[j + l * m];
    if (!(d > rel_tol * ref)) return false;
    const double c = std::sqrt(d);
    D[j + j * m] = c;
    for (int i = j + 1; i < m; ++i) {
      double a = s * D[i + j * m];
      for (int l = 0; l < j; ++l) a -= D[i + l * m] * D[j + l * m];
      D[i + j * m] = a / c;
    }
  }
  return true;
}

// B := B C^-T for a rows x m block B (each row solves C y = b).
void right_solve(double* B, int rows, const double* C, int m) {
  for (int j = 0; j < m; ++j) {
    const double inv = 1.0 / C[j + j * m];
    for (int r = 0; r < rows; ++r) {
      double y = B[r + j * rows];
      for (int l = 0; l < j; ++l) y -= C[j + l * m] * B[r + l * rows];
      B[r + j * rows] = y * inv;
    }
  }
}

bool factor(const SparseLdltPattern& p, SparseLdltFactor& f, double rel_tol, bool calibrate) {
  double* v = f.values.data();
  const int n = static_cast<int>(p.order.size());
  for (int k = 0; k < n; ++k) {
    const int u = p.order[k], m = p.dim[u];
    const double s = p.body[u] ? 1.0 : -1.0;
    double scale = 0.0;
    if (!cholesky(v + p.diag_offset[u], m, s, calibrate ? 0.0 : f.reference[u], rel_tol, scale)) {
      if (getenv("SPDBG")) fprintf(stderr, "pivot fail at position %d node %d dim %d scale %g\n", k, u, m, scale);
      return false;
    }
    if (calibrate) f.reference[u] = scale;
    const double* C = v + p.diag_offset[u];
    for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e)
      right_solve(v + p.below_offset[e], p.dim[p.below_node[e]], C, m);
    for (int x = p.update_begin[k]; x < p.update_begin[k + 1]; ++x) {  // Schur complement
      const SparseLdltPattern::Update& up = p.updates[x];
      double* T = v + up.target;
      const double* L = v + up.left;
      const double* R = v + up.right;
      for (int c = 0; c < up.cols; ++c)
        for (int l = 0; l < up.depth; ++l) {
          const double w = s * R[c + l * up.cols];
          for (int r = 0; r < up.rows; ++r) T[r + c * up.rows] -= L[r + l * up.rows] * w;
        }
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
  for (int k = 0; k < n; ++k) {  // L z = b, then y = S z in place
    const int u = p.order[k], m = p.dim[u];
    const double* C = v + p.diag_offset[u];
    double* z = x + p.x_offset[u];
    for (int j = 0; j < m; ++j) {
      double t = z[j];
      for (int l = 0; l < j; ++l) t -= C[j + l * m] * z[l];
      z[j] = t / C[j + j * m];
    }
    if (!p.body[u])
      for (int j = 0; j < m; ++j) z[j] = -z[j];
    for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e) {
      const int i = p.below_node[e], rows = p.dim[i];
      const double* Y = v + p.below_offset[e];
      double* b = x + p.x_offset[i];
      for (int l = 0; l < m; ++l)
        for (int r = 0; r < rows; ++r) b[r] -= Y[r + l * rows] * z[l];
    }
  }
  for (int k = n - 1; k >= 0; --k) {  // L^T x = y
    const int u = p.order[k], m = p.dim[u];
    const double s = p.body[u] ? 1.0 : -1.0;
    const double* C = v + p.diag_offset[u];
    double* z = x + p.x_offset[u];
    for (int e = p.col_begin[k]; e < p.col_begin[k + 1]; ++e) {
      const int i = p.below_node[e], rows = p.dim[i];
      const double* Y = v + p.below_offset[e];
      const double* xi = x + p.x_offset[i];
      for (int l = 0; l < m; ++l) {
        double t = 0.0;
        for (int r = 0; r < rows; ++r) t += Y[r + l * rows] * xi[r];
        z[l] -= s * t;
      }
    }
    for (int j = m - 1; j >= 0; --j) {
      double t = z[j];
      for (int l = j + 1; l < m; ++l) t -= C[l + j * m] * z[l];
      z[j] = t / C[j + j * m];
    }
  }
}

}  // namespace articula
