#include "core/factor_graph/graphviz.hpp"

#include <sstream>

namespace articula::fg {

namespace {
const char* colour(Kind k) {
  switch (k) {
    case Kind::Twist:
      return "gray80";
    case Kind::Accel:
      return "palegreen";
    case Kind::Wrench:
      return "lightblue";
    case Kind::Qdd:
    case Kind::LoopQdd:
      return "orange";
    case Kind::Tau:
    case Kind::LoopTau:
      return "salmon";
    case Kind::LoopForce:
      return "plum";
    default:
      return "white";
  }
}

// Text inside a DOT string literal: quotes and backslashes escaped.
std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}
std::string quoted(const std::string& s) {
  return "\"" + escaped(s) + "\"";
}

void variable_node(std::ostringstream& os, const FactorGraph& g, int v, const std::string& extra) {
  const Variable& var = g.variable(v);
  std::string label = escaped(key_name(var.key));
  if (!var.label.empty()) label += "\\n" + escaped(var.label);  // a line break in the node
  os << "  v" << v << " [label=\"" << label << "\"" << extra
     << ", shape=" << (var.known ? "box" : "ellipse")
     << ", style=filled, fillcolor=" << colour(var.key.kind) << "];\n";
}
}  // namespace

std::string factor_graph_dot(const FactorGraph& graph, const std::string& title) {
  std::ostringstream os;
  os << "graph factor_graph {\n  label=" << quoted(title) << ";\n  node [fontsize=10];\n";
  for (int v = 0; v < graph.num_variables(); ++v) variable_node(os, graph, v, "");
  for (int f = 0; f < graph.num_factors(); ++f) {
    const Factor& fac = graph.factor(f);
    os << "  f" << f << " [label=\"\", xlabel=" << quoted(fac.name())
       << ", shape=point, width=0.12, color=" << (fac.sigma() > 0 ? "gray50" : "black") << "];\n";
    for (int v : fac.vars()) os << "  f" << f << " -- v" << v << ";\n";
  }
  os << "}\n";
  return os.str();
}

std::string bayes_net_dot(const FactorGraph& graph, const BayesNet& net, const std::string& title) {
  std::ostringstream os;
  os << "digraph bayes_net {\n  label=" << quoted(title) << ";\n  node [fontsize=10];\n";
  for (size_t i = 0; i < net.conditionals.size(); ++i) {
    const Conditional& c = net.conditionals[i];
    variable_node(os, graph, c.var, ", xlabel=\"" + std::to_string(i + 1) + "\"");
  }
  for (const Conditional& c : net.conditionals)
    for (int p : c.parents) os << "  v" << p << " -> v" << c.var << ";\n";
  os << "}\n";
  return os.str();
}

}  // namespace articula::fg
