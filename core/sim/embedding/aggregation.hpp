#pragma once
// Sub-graph aggregation for constraint embedding (Jain, "Graph-theoretic foundations of
// multibody dynamics, Part II", §4.2 and §9): every cut-edge constraint of the spanning tree
// (a loop joint, or a joint coupling between two hinges) is made internal to one aggregated
// node. Its sub-graph is the smallest sub-tree holding the constrained hinges with its root
// removed: for a loop joint the paths from its predecessor and successor up to (excluding) their
// nearest common ancestor, ground included (a closure to the inertial frame); for a coupling the
// same paths with the coupled hinges themselves kept. Sub-graphs that share a body are merged
// (cut-edges sharing a node share the aggregated node). The result is a tree of nodes whose
// constraints are all internal, so each node can be embedded on its own (partition.hpp).
#include <string>
#include <vector>

#include "core/model/loop_joint.hpp"
#include "core/model/model.hpp"

namespace articula {

struct Mechanism;

struct EmbeddingNode {
  std::vector<int> bodies;     // model bodies, increasing index (so parents first)
  int parent_body = 0;         // the body outside the node its base bodies hang from (0: ground)
  std::vector<int> loops;      // indices into compiled.loops of the loop joints inside it
  std::vector<int> couplings;  // indices into Mechanism::couplings inside it
};

struct EmbeddingTree {
  // Aggregated nodes only (those with an internal constraint), in order of their first body;
  // every other body is a node of its own, as in the spanning tree.
  std::vector<EmbeddingNode> nodes;
  std::vector<int> node_of_body;  // per model body (NB+1): its aggregated node, or -1
  int tree_nodes = 0;             // nodes of the aggregated tree, singletons included
};

// The aggregated tree of a spanning tree with its loop joints and (pairs of hinges, as tree
// bodies owning the coupled coordinates; -1 for a side on a loop joint, given by `loop`).
struct HingePair {
  int body_a = 0, body_b = 0;  // model bodies whose joints are coupled (0: none)
  int loop_a = -1, loop_b = -1;
};
EmbeddingTree aggregate(const Model& model, const std::vector<LoopJoint>& loops,
                        const std::vector<HingePair>& couplings);
// The same for a prepared mechanism (its loops and couplings).
EmbeddingTree aggregate(const Mechanism& mech);

}  // namespace articula
