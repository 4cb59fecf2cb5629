#include "core/factor_graph/dynamics_report.hpp"

#include <algorithm>
#include <cmath>

#include "core/algorithms/assembly.hpp"
#include "core/factor_graph/graphviz.hpp"
#include "core/sim/simulation.hpp"

namespace articula::fg {

namespace {
int motion_drives(const Mechanism& m) {
  int n = 0;
  for (const DriveBinding& d : m.drives) n += d.kind == DriveSpec::Kind::Motion;
  return n;
}

// Redundantly driven: the laws prescribe every freedom, so the state at t follows from them by
// assembly, continued in small time steps from the assembled start (the branch is kept).
void kinematic_state_at(const Mechanism& m, double t, VecX& q, VecX& qd) {
  const Model& model = m.model();
  Data data(model);
  q = m.q0;
  std::vector<bool> locked(model.nv, false);
  for (const DriveBinding& d : m.drives) {
    if (d.kind != DriveSpec::Kind::Motion) continue;
    if (d.v < 0)
      throw SetupError("redundant drives on loop joints are not handled by --at > 0 yet ('" +
                       m.spec.joints[d.user_joint].name + "')");
    locked[d.v] = true;
  }
  const int steps = std::max(1, static_cast<int>(std::ceil(std::abs(t) / 0.01)));
  for (int s = 1; s <= steps; ++s) {
    const double ts = t * s / steps;
    for (const DriveBinding& d : m.drives)
      if (d.kind == DriveSpec::Kind::Motion) q[model.q_index[model.v_body[d.v]]] = d.value(ts);
    const AssemblyResult a = assemble(model, data, m.compiled.loops, q, locked);
    if (!a.converged)
      throw SetupError("the drive laws cannot be followed at t = " + std::to_string(ts) +
                       " (loop residual " + std::to_string(a.residual) + ")");
  }
  qd = VecX::Zero(model.nv);
  for (const DriveBinding& d : m.drives)
    if (d.kind == DriveSpec::Kind::Motion) qd[d.v] = d.eval(t).d1;
  project_velocity(model, data, m.compiled.loops, q, qd, locked);
}

nlohmann::json drive_forces(const Mechanism& m, const MechanismDynamicsResult& r) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t k = 0; k < m.drives.size(); ++k) {
    const DriveBinding& d = m.drives[k];
    out.push_back({{"joint", m.spec.joints[d.user_joint].name},
                   {"type", d.kind == DriveSpec::Kind::Motion ? "motion" : "force"},
                   {"qdd", r.drive_qdd[k]},
                   {"force", r.drive_force[k]}});
  }
  return out;
}

// Limits, contacts and joint friction are not factors yet: the note says that the result leaves
// them out and names where the project has them (joints and contacts by their project names).
std::string unmodelled_note(const MechanismSpec& spec) {
  std::string friction, limits, contacts;
  auto add = [](std::string& list, const std::string& name) {
    list += (list.empty() ? "'" : ", '") + name + "'";
  };
  for (const JointSpec& j : spec.joints) {
    if (j.friction) add(friction, j.name);
    if (j.limits) add(limits, j.name);
  }
  for (const ContactSpec& c : spec.contacts) add(contacts, c.name);
  std::string where;
  auto part = [&](const std::string& what, const std::string& list) {
    if (!list.empty()) where += (where.empty() ? "" : "; ") + what + " " + list;
  };
  part("friction at joint(s)", friction);
  part("limits at joint(s)", limits);
  part("contact(s)", contacts);
  if (where.empty()) return "";
  return "joint limits, contacts and joint friction are not in the factor graph (" + where +
         "): bilateral dynamics only, these are left out";
}
}  // namespace

void mechanism_state_at(const Mechanism& m, double t, VecX& q, VecX& qd) {
  if (t < 0) throw SetupError("--at must not be negative");
  if (motion_drives(m) > m.mobility.mobility) return kinematic_state_at(m, t, q, qd);
  Simulation sim(m);
  const double h = m.spec.simulation ? m.spec.simulation->step : 1e-3;
  while (sim.time() < t - 1e-12) sim.step(std::min(h, t - sim.time()), Integrator::RK4);
  q = sim.q();
  qd = sim.qd();
}

nlohmann::json dynamics_report(const Mechanism& m, double t, EliminationOrder order) {
  VecX q, qd;
  mechanism_state_at(m, t, q, qd);
  MechanismDynamicsOptions opt;
  opt.order = order;
  const MechanismDynamicsResult r = mechanism_dynamics(m, t, q, qd, opt);
  nlohmann::json joints = nlohmann::json::array();
  for (size_t j = 0; j < m.spec.joints.size(); ++j) {
    if (m.compiled.joint_map[j].loop) continue;
    const int v0 = m.compiled.v_index(static_cast<int>(j)), nv = m.spec.joints[j].joint.nv();
    nlohmann::json qdd = nlohmann::json::array(), tau = nlohmann::json::array();
    for (int c = 0; c < nv; ++c) qdd.push_back(r.qdd[v0 + c]), tau.push_back(r.tau[v0 + c]);
    joints.push_back({{"joint", m.spec.joints[j].name}, {"qdd", qdd}, {"tau", tau}});
  }
  nlohmann::json report = {
      {"t", t},
      {"order", order_name(order)},
      {"mobility", r.mobility},
      {"motion_drives", r.motion_drives},
      {"redundant", r.redundant},
      {"split", r.redundant ? "minimum-norm (minimum-torque priors, equal weights)" : "unique"},
      {"tree_joints", joints},
      {"drives", drive_forces(m, r)},
      {"elimination",
       {{"variables", r.net.conditionals.size()}, {"bayes_net_entries", r.net.nonzeros()}}}};
  const std::string note = unmodelled_note(m.spec);
  if (!note.empty()) report["note"] = note;
  return report;
}

nlohmann::json redundant_actuation_info(const Mechanism& m) {
  const int n = motion_drives(m);
  if (n <= m.mobility.mobility) return nullptr;
  nlohmann::json out = {{"motion_drives", n},
                        {"mobility", m.mobility.mobility},
                        {"split",
                         "minimum-norm: the actuator forces minimise their sum of squares while "
                         "every equation of motion holds (factor graph, minimum-torque priors)"}};
  try {
    const MechanismDynamicsResult r = mechanism_dynamics(m, 0.0, m.q0, m.qd0);
    out["forces_at_start"] = drive_forces(m, r);
  } catch (const EliminationError& e) {
    out["problem"] = e.what();
    out["equations"] = e.factors;
  } catch (const std::exception& e) {  // e.g. couplings: info itself must not fail on this
    out["problem"] = e.what();
  }
  return out;
}

std::string bayes_net_dot_at_start(const Mechanism& m, EliminationOrder order) {
  MechanismDynamicsOptions opt;
  opt.order = order;
  const MechanismDynamicsResult r = mechanism_dynamics(m, 0.0, m.q0, m.qd0, opt);
  Data data(m.model());
  std::vector<int> loop_drive;
  const InstantInput in = mechanism_instant_input(m, 0.0, m.q0, m.qd0, data, opt, loop_drive);
  const InstantDynamicsGraph g(m.model(), m.compiled.loops, data, in);
  return bayes_net_dot(g.graph(), r.net,
                       m.spec.name + ": Bayes net, " + order_name(order) + " order, t = 0");
}

std::string factor_graph_dot_at_start(const Mechanism& m) {
  Data data(m.model());
  std::vector<int> loop_drive;
  const InstantInput in = mechanism_instant_input(m, 0.0, m.q0, m.qd0, data, {}, loop_drive);
  const InstantDynamicsGraph g(m.model(), m.compiled.loops, data, in);
  return factor_graph_dot(g.graph(), m.spec.name + ": dynamics factor graph, t = 0");
}

}  // namespace articula::fg
