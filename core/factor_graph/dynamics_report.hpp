#pragma once
// What `articula-cli dynamics FILE --at T` and `info` print about the factor-graph dynamics of a
// project: the state at T (simulated, or for redundantly driven mechanisms assembled from the
// drive laws, which then prescribe every degree of freedom), the accelerations and drive forces
// the graph solves there, and the size of the elimination. JSON, numbers in SI units.
#include <nlohmann/json.hpp>
#include <string>

#include "core/factor_graph/mechanism_dynamics.hpp"

namespace articula::fg {

// The mechanism's state (q, q̇) at time t. Throws SetupError when it cannot be reached.
void mechanism_state_at(const Mechanism& m, double t, VecX& q, VecX& qd);

nlohmann::json dynamics_report(const Mechanism& m, double t, EliminationOrder order);

// For `info`: how redundant actuators share the load (null when the motion drives do not
// outnumber the degrees of freedom): the rule and the forces at t = 0; or the contradiction.
nlohmann::json redundant_actuation_info(const Mechanism& m);

// The instant graph at the assembled state (t = 0) and its Bayes net in `order`, as DOT.
std::string bayes_net_dot_at_start(const Mechanism& m, EliminationOrder order);
std::string factor_graph_dot_at_start(const Mechanism& m);

}  // namespace articula::fg
