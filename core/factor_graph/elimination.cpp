#include "core/factor_graph/elimination.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

namespace articula::fg {

namespace {

// R^-1 B for an upper-triangular view R; empty when B is (Eigen's triangular solve binds a
// reference to an empty operand's null data, undefined behaviour).
template <class Tri, class Rhs>
MatX upper_solve(const Tri& R, const Rhs& B) {
  if (B.rows() == 0 || B.cols() == 0) return MatX::Zero(B.rows(), B.cols());
  return R.solve(B);
}

// The original factors a linearised factor came from, for diagnostics: a factor made by
// eliminating a variable shares its sources' sets instead of copying them (along a chain of N
// steps a copied set would grow to N ids at every elimination: O(N²) work for a message that is
// only written when something fails).
struct Origins {
  int id = -1;                                  // an original factor, or -1
  std::vector<std::shared_ptr<Origins>> parts;  // the sets merged into this one
  Origins(int id_, std::vector<std::shared_ptr<Origins>> parts_)
      : id(id_), parts(std::move(parts_)) {}
  Origins(const Origins&) = delete;
  Origins& operator=(const Origins&) = delete;
  ~Origins() {  // iteratively: a chain's sets nest as deep as it is long (no deep recursion)
    std::vector<std::shared_ptr<Origins>> todo = std::move(parts);
    while (!todo.empty()) {
      std::shared_ptr<Origins> o = std::move(todo.back());
      todo.pop_back();
      if (o.use_count() != 1) continue;  // still shared: its owner releases it
      for (auto& p : o->parts) todo.push_back(std::move(p));
      o->parts.clear();
    }
  }
};
using OriginsPtr = std::shared_ptr<Origins>;

// A linearised factor on unknowns only: Σ A_j δ_{vars[j]} = b (soft rows already whitened).
struct LinearFactor {
  std::vector<int> vars;
  std::vector<MatX> A;
  VecX b;
  bool hard = true;
  OriginsPtr origins;
  bool alive = true;
};

struct Workspace {
  const FactorGraph& graph;
  std::vector<LinearFactor> factors;
  std::vector<std::vector<int>> involved;  // per variable: factor ids touching it
  std::vector<int> pos;                    // per variable: position in the order, -1 known
  double scale = 1.0;                      // largest coefficient: sets the rank tolerance
  double b_scale = 1.0;                    // largest right-hand side: the consistency check
};

void add_linear(Workspace& w, LinearFactor f) {
  const int id = static_cast<int>(w.factors.size());
  for (int v : f.vars) w.involved[v].push_back(id);
  w.factors.push_back(std::move(f));
}

void linearize(Workspace& w, const std::vector<VecX>& x) {
  VecX r;
  std::vector<MatX> J;
  for (int fi = 0; fi < w.graph.num_factors(); ++fi) {
    const Factor& f = w.graph.factor(fi);
    f.evaluate(x, r, &J);
    const double weight = f.sigma() > 0 ? 1.0 / f.sigma() : 1.0;
    LinearFactor lf;
    lf.hard = f.sigma() <= 0;
    lf.b = -weight * r;
    lf.origins = std::make_shared<Origins>(fi, std::vector<OriginsPtr>{});
    for (size_t k = 0; k < f.vars().size(); ++k) {
      const int v = f.vars()[k];
      if (w.pos[v] < 0) continue;
      lf.vars.push_back(v);
      lf.A.push_back(weight * J[k]);
      w.scale = std::max(w.scale, J[k].cwiseAbs().maxCoeff() * weight);
    }
    if (lf.hard && lf.b.size() > 0) w.b_scale = std::max(w.b_scale, lf.b.cwiseAbs().maxCoeff());
    if (!lf.vars.empty() || lf.hard) add_linear(w, std::move(lf));
  }
}

// The names of the original factors in a set, each once, in factor order (an explicit stack:
// a long chain's sets nest as deep as the chain is long).
std::vector<std::string> factor_names(const Workspace& w, const OriginsPtr& origins) {
  std::vector<int> ids;
  std::set<const Origins*> seen;
  std::vector<const Origins*> todo{origins.get()};
  while (!todo.empty()) {
    const Origins* o = todo.back();
    todo.pop_back();
    if (!o || !seen.insert(o).second) continue;
    if (o->id >= 0) ids.push_back(o->id);
    for (const OriginsPtr& p : o->parts) todo.push_back(p.get());
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<std::string> out;
  for (int id : ids) out.push_back(w.graph.factor(id).name());
  return out;
}

std::string var_name(const FactorGraph& g, int v) {
  const Variable& var = g.variable(v);
  std::string s = key_name(var.key);
  if (!var.label.empty()) s += " (" + var.label + ")";
  return s;
}

// Rank of a column-pivoted R: pivots above the relative and absolute tolerances.
template <class QR>
int pivot_rank(const QR& qr, double abs_tol) {
  const auto& R = qr.matrixQR();
  const int n = static_cast<int>(std::min(R.rows(), R.cols()));
  if (n == 0) return 0;
  const double rel = 1e-11 * std::abs(R(0, 0));
  int k = 0;
  while (k < n && std::abs(R(k, k)) > std::max(rel, abs_tol)) ++k;
  return k;
}

// The rows of the factors gathered for one variable, split hard/soft: [X | Rest | b].
struct Gathered {
  std::vector<int> rest;  // other variables, in elimination order
  std::vector<int> offset;
  int n = 0, nr = 0;
  MatX H, S;  // hard and soft rows, columns [x (n) | rest (nr) | b]
  OriginsPtr origins;
};

Gathered gather(Workspace& w, int x, const std::vector<int>& fids) {
  Gathered g;
  g.n = w.graph.variable(x).dim;
  std::set<std::pair<int, int>> others;
  std::vector<OriginsPtr> parts;
  int mh = 0, ms = 0;
  for (int f : fids) {
    for (int v : w.factors[f].vars)
      if (v != x) others.insert({w.pos[v], v});
    (w.factors[f].hard ? mh : ms) += static_cast<int>(w.factors[f].b.size());
    parts.push_back(w.factors[f].origins);
  }
  g.origins = parts.size() == 1 ? parts[0] : std::make_shared<Origins>(-1, parts);
  g.nr = 0;
  for (const auto& [p, v] : others) {
    g.rest.push_back(v);
    g.offset.push_back(g.n + g.nr);
    g.nr += w.graph.variable(v).dim;
  }
  auto col = [&](int v) {  // a handful of variables: a linear search beats an O(N) table
    if (v == x) return 0;
    return g.offset[std::find(g.rest.begin(), g.rest.end(), v) - g.rest.begin()];
  };
  const int cols = g.n + g.nr + 1;
  g.H = MatX::Zero(mh, cols);
  g.S = MatX::Zero(ms, cols);
  int rh = 0, rs = 0;
  for (int f : fids) {
    LinearFactor& lf = w.factors[f];
    const int m = static_cast<int>(lf.b.size());
    MatX& M = lf.hard ? g.H : g.S;
    int& r = lf.hard ? rh : rs;
    for (size_t k = 0; k < lf.vars.size(); ++k)
      M.block(r, col(lf.vars[k]), m, lf.A[k].cols()) += lf.A[k];
    M.block(r, cols - 1, m, 1) = lf.b;
    r += m;
    lf.alive = false;
  }
  return g;
}

// Splits rows [A | b] over the rest variables into a new factor (rows that are numerically
// empty are dropped; a hard one whose right side is not is an inconsistency).
void emit(Workspace& w, const Gathered& g, const MatX& rows, bool hard) {
  if (rows.rows() == 0) return;
  std::vector<int> keep;
  for (int r = 0; r < rows.rows(); ++r) {
    const double a = g.nr > 0 ? rows.row(r).head(g.nr).cwiseAbs().maxCoeff() : 0.0;
    const double b = std::abs(rows(r, g.nr));
    if (a > 1e-12 * w.scale) {
      keep.push_back(r);
    } else if (hard && b > 1e-9 * w.b_scale) {
      throw EliminationError("contradictory equations (residual " + std::to_string(b) + ")", {},
                             factor_names(w, g.origins), b);
    }
  }
  if (keep.empty()) return;
  LinearFactor f;
  f.hard = hard;
  f.origins = g.origins;
  f.b.resize(static_cast<int>(keep.size()));
  for (size_t j = 0; j < g.rest.size(); ++j) {
    const int dim = w.graph.variable(g.rest[j]).dim;
    MatX A(static_cast<int>(keep.size()), dim);
    for (size_t i = 0; i < keep.size(); ++i)
      A.row(static_cast<int>(i)) = rows.row(keep[i]).segment(g.offset[j] - g.n, dim);
    f.vars.push_back(g.rest[j]);
    f.A.push_back(std::move(A));
  }
  for (size_t i = 0; i < keep.size(); ++i) f.b[static_cast<int>(i)] = rows(keep[i], g.nr);
  add_linear(w, std::move(f));
}

// Least squares on soft rows [A2 | B2 s2] for y2 (p columns): y2 = g2 - G2 r; the leftover rows
// go to a new soft factor. Throws when the soft rows do not determine y2.
void eliminate_soft(Workspace& w, const Gathered& g, int x, const MatX& A2, const MatX& B2s,
                    MatX& G2, VecX& g2) {
  const int p = static_cast<int>(A2.cols()), nr = g.nr;
  if (p == 0) {
    if (B2s.rows() > nr + 1) {  // compress: only R of [B2 s2] matters for the rest
      Eigen::HouseholderQR<MatX> qr(B2s);
      emit(w, g, qr.matrixQR().topRows(nr + 1).triangularView<Eigen::Upper>(), false);
    } else {
      emit(w, g, B2s, false);
    }
    G2.resize(0, nr);
    g2.resize(0);
    return;
  }
  Eigen::ColPivHouseholderQR<MatX> qr(A2);
  if (A2.rows() < p || pivot_rank(qr, 1e-12 * w.scale) < p)
    throw EliminationError(var_name(w.graph, x) + " is not determined by the equations",
                           {var_name(w.graph, x)}, factor_names(w, g.origins));
  const MatX M = qr.householderQ().transpose() * B2s;
  const auto R = qr.matrixQR().topLeftCorner(p, p).triangularView<Eigen::Upper>();
  const MatX Z = upper_solve(R, M.topRows(p));  // [T d] -> R^{-1}[T d]
  const auto& P = qr.colsPermutation();
  G2 = MatX::Zero(p, nr);
  if (nr > 0) G2 = P * Z.leftCols(nr);  // (see upper_solve: no blocks of empty matrices)
  g2 = P * Z.col(nr);
  if (M.rows() > p) emit(w, g, M.bottomRows(M.rows() - p), false);
}

Conditional eliminate_one(Workspace& w, int x, const std::vector<int>& fids) {
  const Gathered g = gather(w, x, fids);
  const int n = g.n, nr = g.nr;
  Conditional c;
  c.var = x;
  c.hard_rows = static_cast<int>(g.H.rows());
  c.soft_rows = static_cast<int>(g.S.rows());
  // Hard rows: Q^T H_x P = [R11 R12; 0 0], y = P^T x, y1 = e1 - E1 r - F1 y2.
  int k = 0;
  MatX E1(0, nr), F1(0, n);
  VecX e1(0);
  Eigen::PermutationMatrix<Eigen::Dynamic> P(n);
  P.setIdentity();
  if (g.H.rows() > 0) {
    Eigen::ColPivHouseholderQR<MatX> qr(g.H.leftCols(n));
    k = pivot_rank(qr, 1e-12 * w.scale);
    P = qr.colsPermutation();
    const MatX M = qr.householderQ().transpose() * g.H.rightCols(nr + 1);
    const auto R11 = qr.matrixQR().topLeftCorner(k, k).triangularView<Eigen::Upper>();
    E1 = upper_solve(R11, M.topLeftCorner(k, nr));
    e1 = upper_solve(R11, M.col(nr).head(k));
    F1 = upper_solve(R11, qr.matrixQR().topRightCorner(k, n - k));
    emit(w, g, M.bottomRows(M.rows() - k), true);
  }
  // Soft rows with y1 substituted: (Sy2 - Sy1 F1) y2 + (Sr - Sy1 E1) r = s - Sy1 e1.
  const MatX SxP = g.S.leftCols(n) * P;
  MatX B2s = g.S.rightCols(nr + 1);
  B2s.leftCols(nr) -= SxP.leftCols(k) * E1;
  B2s.col(nr) -= SxP.leftCols(k) * e1;
  const MatX A2 = SxP.rightCols(n - k) - SxP.leftCols(k) * F1;
  MatX G2;
  VecX g2;
  eliminate_soft(w, g, x, A2, B2s, G2, g2);
  MatX G = MatX::Zero(n, nr);
  VecX gv(n);
  gv.head(k) = e1 - F1 * g2;  // the bottom n-k rows: y2
  gv.tail(n - k) = g2;
  c.g = P * gv;
  if (nr > 0) {  // (a block of an empty matrix offsets its null data: undefined behaviour)
    G.topRows(k) = E1 - F1 * G2;
    G.bottomRows(n - k) = G2;
    G = P * G;
  }
  for (size_t j = 0; j < g.rest.size(); ++j) {
    c.parents.push_back(g.rest[j]);
    c.G.push_back(G.middleCols(g.offset[j] - n, w.graph.variable(g.rest[j]).dim));
  }
  return c;
}

}  // namespace

void BayesNet::solve(std::vector<VecX>& x) const {
  for (auto it = conditionals.rbegin(); it != conditionals.rend(); ++it) {
    VecX v = it->g;
    for (size_t j = 0; j < it->parents.size(); ++j) v.noalias() -= it->G[j] * x[it->parents[j]];
    x[it->var] = v;
  }
}

long long BayesNet::nonzeros() const {
  long long n = 0;
  for (const Conditional& c : conditionals)
    for (const MatX& G : c.G) n += G.size();
  return n;
}

BayesNet eliminate(const FactorGraph& graph, const std::vector<int>& order) {
  Workspace w{graph,
              {},
              std::vector<std::vector<int>>(graph.num_variables()),
              std::vector<int>(graph.num_variables(), -1)};
  for (size_t i = 0; i < order.size(); ++i) {
    const int v = order[i];
    if (v < 0 || v >= graph.num_variables() || graph.variable(v).known || w.pos[v] >= 0)
      throw std::invalid_argument("elimination order: bad or repeated variable");
    w.pos[v] = static_cast<int>(i);
  }
  for (int v : graph.unknowns())
    if (w.pos[v] < 0)
      throw std::invalid_argument("elimination order misses " + key_name(graph.variable(v).key));
  linearize(w, graph.values());
  for (const LinearFactor& f : w.factors)  // hard factors on known variables only
    if (f.vars.empty() && f.b.size() > 0 && f.b.cwiseAbs().maxCoeff() > 1e-9 * w.b_scale)
      throw EliminationError("known values violate an equation", {}, factor_names(w, f.origins),
                             f.b.cwiseAbs().maxCoeff());
  BayesNet net;
  net.conditionals.reserve(order.size());
  for (int x : order) {
    std::vector<int> fids;
    for (int f : w.involved[x])
      if (w.factors[f].alive) fids.push_back(f);
    net.conditionals.push_back(eliminate_one(w, x, fids));
  }
  return net;
}

int solve_gauss_newton(FactorGraph& graph, const std::vector<int>& order, int max_iterations,
                       double tol, BayesNet* net_out) {
  for (int it = 1; it <= max_iterations; ++it) {
    BayesNet net = eliminate(graph, order);
    std::vector<VecX> dx(graph.num_variables());
    net.solve(dx);
    double step = 0.0, size = 1.0;
    for (int v : order) {
      const VecX x = graph.variable(v).value + dx[v];
      step = std::max(step, dx[v].cwiseAbs().maxCoeff());
      size = std::max(size, x.cwiseAbs().maxCoeff());
      graph.set_value(v, x);
    }
    if (net_out) *net_out = std::move(net);
    if (step <= tol * size) return it;
  }
  return max_iterations;
}

}  // namespace articula::fg
