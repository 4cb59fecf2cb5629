#include "core/sim/embedding/aggregation.hpp"

#include <algorithm>
#include <numeric>

#include "core/sim/mechanism.hpp"

namespace articula {

namespace {
int depth(const Model& model, int i) {
  int d = 0;
  for (; i > 0; i = model.parent[i]) ++d;
  return d;
}

int common_ancestor(const Model& model, int a, int b) {
  int da = depth(model, a), db = depth(model, b);
  for (; da > db; --da) a = model.parent[a];
  for (; db > da; --db) b = model.parent[b];
  while (a != b) a = model.parent[a], b = model.parent[b];
  return a;
}

// One cut-edge's hinges: bodies whose paths to their common ancestor are aggregated; `kept`
// bodies are hinges themselves (a coupled joint), so the ancestor stays when it is one of them.
struct CutEdge {
  std::vector<int> ends, kept;
};

std::vector<int> sub_graph(const Model& model, const CutEdge& e) {
  int root = e.ends.front();
  for (int b : e.ends) root = common_ancestor(model, root, b);
  std::vector<int> out;
  for (int b : e.ends)
    for (int i = b; i > 0 && i != root; i = model.parent[i]) out.push_back(i);
  if (root > 0 && std::find(e.kept.begin(), e.kept.end(), root) != e.kept.end())
    out.push_back(root);
  return out;
}

int find(std::vector<int>& up, int i) {
  while (up[i] != i) i = up[i] = up[up[i]];
  return i;
}

std::vector<CutEdge> cut_edges(const std::vector<LoopJoint>& loops,
                               const std::vector<HingePair>& couplings) {
  std::vector<CutEdge> edges;
  for (const LoopJoint& l : loops) edges.push_back({{l.predecessor, l.successor}, {}});
  for (const HingePair& c : couplings) {
    CutEdge e;
    for (auto [body, loop] : {std::pair{c.body_a, c.loop_a}, std::pair{c.body_b, c.loop_b}}) {
      if (loop >= 0) {  // a coupled loop joint: its own ends
        e.ends.push_back(loops[loop].predecessor);
        e.ends.push_back(loops[loop].successor);
      } else {
        e.ends.push_back(body);
        e.kept.push_back(body);
      }
    }
    edges.push_back(e);
  }
  return edges;
}
}  // namespace

EmbeddingTree aggregate(const Model& model, const std::vector<LoopJoint>& loops,
                        const std::vector<HingePair>& couplings) {
  const std::vector<CutEdge> edges = cut_edges(loops, couplings);
  // Union-find over bodies: the sub-graphs of cut-edges sharing a body become one node.
  std::vector<int> up(model.nb + 1), first_edge(model.nb + 1, -1);
  std::iota(up.begin(), up.end(), 0);
  std::vector<bool> member(model.nb + 1, false);
  std::vector<int> edge_body(edges.size(), 0);
  for (std::size_t k = 0; k < edges.size(); ++k) {
    const std::vector<int> s = sub_graph(model, edges[k]);
    if (s.empty()) continue;  // both ends welded to the same body: nothing to embed
    edge_body[k] = s.front();
    for (int b : s) {
      member[b] = true;
      up[find(up, b)] = find(up, s.front());
    }
  }
  EmbeddingTree tree;
  tree.node_of_body.assign(model.nb + 1, -1);
  std::vector<int> node_of_root(model.nb + 1, -1);
  for (int b = 1; b <= model.nb; ++b) {
    if (!member[b]) continue;
    int& n = node_of_root[find(up, b)];
    if (n < 0) {
      n = static_cast<int>(tree.nodes.size());
      tree.nodes.emplace_back();
    }
    tree.nodes[n].bodies.push_back(b);
    tree.node_of_body[b] = n;
  }
  for (EmbeddingNode& n : tree.nodes) {
    // The parent of a base body (one whose parent is outside the node); all base bodies share
    // it, since merged sub-graphs hang from the highest of their roots.
    for (int b : n.bodies)
      if (model.parent[b] <= 0 || tree.node_of_body[model.parent[b]] != tree.node_of_body[b]) {
        n.parent_body = std::max(model.parent[b], 0);
        break;
      }
  }
  for (std::size_t k = 0; k < edges.size(); ++k) {
    if (edge_body[k] == 0) continue;
    EmbeddingNode& n = tree.nodes[tree.node_of_body[edge_body[k]]];
    if (k < loops.size())
      n.loops.push_back(static_cast<int>(k));
    else
      n.couplings.push_back(static_cast<int>(k - loops.size()));
  }
  int members = 0;
  for (const EmbeddingNode& n : tree.nodes) members += static_cast<int>(n.bodies.size());
  tree.tree_nodes = model.nb - members + static_cast<int>(tree.nodes.size());
  return tree;
}

EmbeddingTree aggregate(const Mechanism& mech) {
  const Model& model = mech.model();
  std::vector<HingePair> pairs;
  for (const CouplingBinding& c : mech.couplings) {
    HingePair p;
    p.body_a = c.a.v >= 0 ? model.v_body[c.a.v] : 0;
    p.body_b = c.b.v >= 0 ? model.v_body[c.b.v] : 0;
    p.loop_a = c.a.loop;
    p.loop_b = c.b.loop;
    pairs.push_back(p);
  }
  return aggregate(model, mech.compiled.loops, pairs);
}

}  // namespace articula
