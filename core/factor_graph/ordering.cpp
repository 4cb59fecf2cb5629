#include "core/factor_graph/ordering.hpp"

#include <algorithm>
#include <set>

#ifdef ARTICULA_HAVE_SUITESPARSE
#include <suitesparse/amd.h>
#include <suitesparse/colamd.h>
#endif

namespace articula::fg {

namespace {

// Per factor: the unknowns it touches, as column numbers 0..n-1 (columns[i] = variable id).
struct Structure {
  std::vector<int> columns;
  std::vector<std::vector<int>> rows;
};

Structure structure(const FactorGraph& graph) {
  Structure s;
  s.columns = graph.unknowns();
  std::vector<int> col(graph.num_variables(), -1);
  for (size_t c = 0; c < s.columns.size(); ++c) col[s.columns[c]] = static_cast<int>(c);
  for (int f = 0; f < graph.num_factors(); ++f) {
    std::vector<int> r;
    for (int v : graph.factor(f).vars())
      if (col[v] >= 0) r.push_back(col[v]);
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    if (!r.empty()) s.rows.push_back(std::move(r));
  }
  return s;
}

// Symmetric adjacency of the columns (two unknowns sharing a factor).
std::vector<std::set<int>> adjacency(const Structure& s) {
  std::vector<std::set<int>> adj(s.columns.size());
  for (const auto& r : s.rows)
    for (int a : r)
      for (int b : r)
        if (a != b) adj[a].insert(b);
  return adj;
}

// Greedy minimum degree on the elimination graph (ties by column number).
std::vector<int> min_degree(const Structure& s) {
  std::vector<std::set<int>> adj = adjacency(s);
  const int n = static_cast<int>(adj.size());
  std::vector<bool> done(n, false);
  std::vector<int> order;
  for (int step = 0; step < n; ++step) {
    int best = -1;
    for (int c = 0; c < n; ++c)
      if (!done[c] && (best < 0 || adj[c].size() < adj[best].size())) best = c;
    done[best] = true;
    order.push_back(best);
    for (int a : adj[best]) {  // the neighbours become a clique (fill-in)
      adj[a].erase(best);
      for (int b : adj[best])
        if (a != b) adj[a].insert(b);
    }
  }
  return order;
}

#ifdef ARTICULA_HAVE_SUITESPARSE
std::vector<int> colamd_order(const Structure& s) {
  const int n_row = static_cast<int>(s.rows.size()), n_col = static_cast<int>(s.columns.size());
  std::vector<std::vector<int>> by_col(n_col);
  int nnz = 0;
  for (int r = 0; r < n_row; ++r)
    for (int c : s.rows[r]) by_col[c].push_back(r), ++nnz;
  const size_t alen = colamd_recommended(nnz, n_row, n_col);
  std::vector<int> A(alen), p(n_col + 1);
  int k = 0;
  for (int c = 0; c < n_col; ++c) {
    p[c] = k;
    for (int r : by_col[c]) A[k++] = r;
  }
  p[n_col] = k;
  double knobs[COLAMD_KNOBS];
  int stats[COLAMD_STATS];
  colamd_set_defaults(knobs);
  if (!colamd(n_row, n_col, static_cast<int>(alen), A.data(), p.data(), knobs, stats))
    return min_degree(s);
  return std::vector<int>(p.begin(), p.begin() + n_col);
}

std::vector<int> amd_order_of(const Structure& s) {
  const std::vector<std::set<int>> adj = adjacency(s);
  const int n = static_cast<int>(adj.size());
  std::vector<int> Ap(n + 1), Ai, P(n);
  for (int c = 0; c < n; ++c) {
    Ap[c] = static_cast<int>(Ai.size());
    Ai.insert(Ai.end(), adj[c].begin(), adj[c].end());
  }
  Ap[n] = static_cast<int>(Ai.size());
  if (amd_order(n, Ap.data(), Ai.data(), P.data(), nullptr, nullptr) < AMD_OK) return min_degree(s);
  return P;
}
#endif

}  // namespace

bool have_suitesparse() {
#ifdef ARTICULA_HAVE_SUITESPARSE
  return true;
#else
  return false;
#endif
}

std::vector<int> structural_order(const FactorGraph& graph, StructuralOrder kind) {
  const Structure s = structure(graph);
  std::vector<int> cols;
  (void)kind;  // without SuiteSparse every kind is minimum degree
#ifdef ARTICULA_HAVE_SUITESPARSE
  if (kind == StructuralOrder::Colamd) cols = colamd_order(s);
  if (kind == StructuralOrder::Amd) cols = amd_order_of(s);
#endif
  if (cols.empty() && !s.columns.empty()) cols = min_degree(s);
  std::vector<int> order;
  for (int c : cols) order.push_back(s.columns[c]);
  return order;
}

}  // namespace articula::fg
