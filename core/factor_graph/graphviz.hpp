#pragma once
// Graphviz (DOT) pictures for teaching (Xie-Dellaert Figs. 3-10): the factor graph (variables as
// circles, known ones as squares, factors as small black dots) and the Bayes net an elimination
// order leaves (an arrow from each parent to the variable it determines, variables numbered in
// elimination order, so back-substitution runs against the numbers). Colours by kind: twists
// grey, accelerations green, wrenches blue, joint accelerations orange, forces red, loop forces
// purple. Render with `dot -Tsvg`.
#include <string>

#include "core/factor_graph/elimination.hpp"

namespace articula::fg {

std::string factor_graph_dot(const FactorGraph& graph, const std::string& title);
std::string bayes_net_dot(const FactorGraph& graph, const BayesNet& net, const std::string& title);

}  // namespace articula::fg
