#pragma once
// Elimination orders from the graph's structure alone (variables as columns, factors as rows):
// COLAMD and AMD from SuiteSparse (as GTSAM uses them; Xie-Dellaert Tables I-II), and a plain
// minimum-degree order that needs no library. The orders that reproduce the classical
// algorithms (RNEA, CRBA, ABA) come from the dynamics graph itself (dynamics_graph.hpp).
#include <string>
#include <vector>

#include "core/factor_graph/factor_graph.hpp"

namespace articula::fg {

enum class StructuralOrder { Colamd, Amd, MinDegree };

// Whether COLAMD and AMD are built in (SuiteSparse found at configure time); without them both
// fall back to MinDegree.
bool have_suitesparse();

// Every unknown of the graph exactly once.
std::vector<int> structural_order(const FactorGraph& graph, StructuralOrder kind);

}  // namespace articula::fg
