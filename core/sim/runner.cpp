#include "core/sim/runner.hpp"

#include <charconv>
#include <cmath>

#include "core/factor_graph/dynamics_report.hpp"
#include "core/sim/embedding/aggregation.hpp"

namespace articula {

std::string format_number(double x) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip form
  return std::string(buf, res.ptr);
}

namespace {
// The aggregated tree of constraint embedding (issue 18): its node count and the aggregated
// nodes, each with its member bodies, the body it hangs from and its internal constraints.
nlohmann::json embedding_info(const Mechanism& mech) {
  using nlohmann::json;
  const EmbeddingTree tree = aggregate(mech);
  const Model& model = mech.model();
  json nodes = json::array();
  for (const EmbeddingNode& n : tree.nodes) {
    json members = json::array(), loops = json::array(), couplings = json::array();
    for (int b : n.bodies) members.push_back(model.body_names[b]);
    for (int l : n.loops) loops.push_back(mech.compiled.loops[l].name);
    for (int c : n.couplings)
      couplings.push_back(mech.spec.couplings[mech.couplings[c].index].name);
    nodes.push_back({{"members", members},
                     {"parent", n.parent_body > 0 ? model.body_names[n.parent_body] : "ground"},
                     {"loop_joints", loops},
                     {"couplings", couplings}});
  }
  return {{"tree_nodes", tree.tree_nodes}, {"aggregated_nodes", nodes}};
}
}  // namespace

nlohmann::json mechanism_info(const Mechanism& mech) {
  using nlohmann::json;
  const MechanismSpec& spec = mech.spec;
  json tree = json::array(), loops = json::array(), bodies = json::array(), joints = json::array();
  for (const BodySpec& b : spec.bodies) bodies.push_back(b.name);
  for (std::size_t j = 0; j < spec.joints.size(); ++j) {
    joints.push_back(spec.joints[j].name);
    (mech.compiled.joint_map[j].loop ? loops : tree).push_back(spec.joints[j].name);
  }
  json drives = json::array();
  for (const DriveBinding& d : mech.drives)
    drives.push_back({{"joint", spec.joints[d.user_joint].name},
                      {"type", d.kind == DriveSpec::Kind::Motion ? "motion" : "force"},
                      {"expression", d.law ? mech.spec.joints[d.user_joint].drive->law.dump()
                                           : d.expression.text()}});
  json redundant = json::array();
  for (const auto& [name, rows] : mech.redundant_joints())
    redundant.push_back({{"joint", name}, {"rows", rows}});
  json info = {
      {"name", spec.name},
      {"bodies", spec.bodies.size()},
      {"joints", spec.joints.size()},
      {"tree_joints", tree},
      {"loop_joints", loops},
      {"coordinates", mech.model().nq},
      {"velocity_coordinates", mech.model().nv},
      {"mobility", mech.mobility.mobility},
      {"redundant_constraints", mech.mobility.redundant},
      {"drives", mech.drives.size()},
      {"body_names", bodies},
      {"joint_names", joints},
      {"drive_list", drives},
      {"constraint_rows", mech.mobility.constraint_rows},
      {"redundant_joints", redundant},
      {"force_split",
       mech.mobility.redundant > 0
           ? "indeterminate along the redundant rows: the minimum-norm split is reported"
           : "determinate"},
      {"gruebler", mech.gruebler},
      {"gruebler_formula",
       std::string(mech.planar ? "planar: 3(n-1) - sum(3 - f)" : "spatial: 6(n-1) - sum(6 - f)") +
           (mech.couplings.empty() ? "" : " - couplings")},
      {"rank_tolerance", mech.mobility.tolerance},
      {"assembly",
       {{"residual", mech.assembly.residual}, {"iterations", mech.assembly.iterations}}},
      {"couplings", mech.couplings.size()},
      {"loop_method", !mech.has_loops() ? "none"
                      : mech.sparse     ? "sparse-matrix method (RBDA 8.13)"
                                        : "spanning tree, Method 2 (RBDA 8.5)"},
      {"embedding", embedding_info(mech)},
  };
  // More motion drives than freedoms: how the factor graph shares the load (issue 19).
  const nlohmann::json actuation = fg::redundant_actuation_info(mech);
  if (!actuation.is_null()) info["redundant_actuation"] = actuation;
  return info;
}

RunOptions run_options_from(const MechanismSpec& spec) {
  RunOptions opt;
  if (spec.simulation) {
    opt.duration = spec.simulation->duration;
    opt.step = spec.simulation->step;
    opt.integrator = integrator_from_name(spec.simulation->integrator);
    const nlohmann::json& x = spec.simulation->extra;  // optional tolerances of rk45
    if (x.contains("rtol") && x["rtol"].is_number()) opt.rtol = x["rtol"];
    if (x.contains("atol") && x["atol"].is_number()) opt.atol = x["atol"];
    if (x.contains("solver")) {
      if (!x["solver"].is_string()) throw std::invalid_argument("expected a string");
      opt.solver = solver_from_name(x["solver"].get<std::string>());
    }
  }
  return opt;
}

namespace {
bool has_unilaterals(const MechanismSpec& spec);
}

std::string joint_column(const std::string& joint, const char* what, int n, int k) {
  return n == 1 ? joint + "." + what : joint + "." + what + "[" + std::to_string(k) + "]";
}

std::vector<std::string> csv_header(const Mechanism& mech) {
  std::vector<std::string> cols{"t"};
  for (const JointSpec& js : mech.spec.joints) {
    const int nq = js.joint.nq(), nv = js.joint.nv();
    auto add = [&](const char* what, int n) {
      for (int k = 0; k < n; ++k) cols.push_back(joint_column(js.name, what, n, k));
    };
    add("q", nq);
    add("qd", nv);
    add("qdd", nv);
    add("tau", nv);
    for (const char* c : {"Fx", "Fy", "Fz", "Mx", "My", "Mz"}) cols.push_back(js.name + "." + c);
  }
  // Extensions: max |δ| over the loop constraints (0 for trees), then the energy bookkeeping.
  for (const char* c : {"loop_error", "kinetic_energy", "potential_energy", "input_work",
                        "dissipated_energy", "energy_residual", "input_power"})
    cols.push_back(c);
  for (const CouplingSpec& c : mech.spec.couplings) cols.push_back(c.name + ".tau");
  for (const JointSpec& js : mech.spec.joints)
    if (js.limits) cols.push_back(js.name + ".limit_force");
  for (const ContactSpec& c : mech.spec.contacts)
    for (const char* x : {".fn", ".ft", ".gap"}) cols.push_back(c.name + x);
  for (const JointSpec& js : mech.spec.joints)
    if (js.friction && (js.friction->coulomb > 0 || js.friction->viscous > 0))
      cols.push_back(js.name + ".friction_force");
  if (has_unilaterals(mech.spec)) cols.push_back("impact_loss");
  return cols;
}

namespace {
bool has_unilaterals(const MechanismSpec& spec) {
  if (!spec.contacts.empty()) return true;
  for (const JointSpec& js : spec.joints)
    if (js.limits || js.friction) return true;
  return false;
}

// J.limit_force (the generalized force of the stops: + at the lower, - at the upper), then
// C.fn, C.ft (friction: signed along ẑ × n in a plane, its magnitude in 3D), C.gap, then
// J.friction_force (generalized force of the joint's friction), then impact_loss.
template <class Put>
void put_unilaterals(const Simulation& sim, Put& put) {
  const UnilateralState& u = sim.unilaterals();
  if (u.empty()) return;
  const MechanismSpec& spec = sim.mechanism().spec;
  std::vector<double> limit(spec.joints.size(), 0.0), fn(spec.contacts.size(), 0.0),
      ft(spec.contacts.size(), 0.0), gap(spec.contacts.size(), 0.0), friction;
  for (std::size_t k = 0; k < u.items.size(); ++k) {
    const Unilateral& x = u.items[k];
    if (x.kind == Unilateral::Kind::Contact || x.slot())  // a slot's: signed, across it
      fn[x.contact] = u.force[k], gap[x.contact] = sim.gaps()[k];
    else if (x.primary() && x.partner < 0)  // planar: signed along ẑ × n
      ft[x.contact] = u.force[k];
    else if (x.primary())  // spatial: the magnitude
      ft[x.contact] = std::hypot(u.force[k], u.force[x.partner]);
    else if (x.friction())
      friction.push_back(u.force[k]);  // joint order, as the header
    else if (!x.slide())  // a spatial contact's second tangent is in its first's magnitude
      limit[x.user_joint] += x.kind == Unilateral::Kind::LowerLimit ? u.force[k] : -u.force[k];
  }
  for (std::size_t j = 0; j < spec.joints.size(); ++j)
    if (spec.joints[j].limits) put(limit[j]);
  for (std::size_t c = 0; c < spec.contacts.size(); ++c) put(fn[c]), put(ft[c]), put(gap[c]);
  for (double f : friction) put(f);
  put(sim.energy().impact_loss);
}

void write_events(Simulation& sim, std::ostream* out) {
  for (const Simulation::ContactEvent& e : sim.take_events())
    if (out)
      *out << format_number(e.t) << ',' << e.name << ',' << e.kind << ','
           << format_number(e.impulse) << '\n';
}

}  // namespace

void fill_row(const Simulation& sim, std::vector<double>& row) {
  const Mechanism& mech = sim.mechanism();
  row.clear();
  row.push_back(sim.time());
  for (std::size_t j = 0; j < mech.spec.joints.size(); ++j) {
    const Simulation::JointState& s = sim.joint_states()[j];
    row.insert(row.end(), s.q.begin(), s.q.end());
    for (const VecN* x : {&s.qd, &s.qdd, &s.tau}) row.insert(row.end(), x->begin(), x->end());
    const Force& w = sim.wrench()[j];
    for (int k : {3, 4, 5, 0, 1, 2}) row.push_back(w[k]);  // force, then moment
  }
  row.push_back(sim.loop_error());
  const Simulation::Energy& e = sim.energy();
  for (double x : {e.kinetic, e.potential, e.work, e.dissipated, e.residual, e.power})
    row.push_back(x);
  for (double x : sim.coupling_forces()) row.push_back(x);
  auto put = [&](double x) { row.push_back(x); };
  put_unilaterals(sim, put);
}

void run_rows(const Mechanism& mech, const RunOptions& opt, const RowSink& sink,
              const std::function<void(double)>& progress) {
  SimulationOptions so;
  so.require_fully_driven = opt.require_fully_driven;
  so.solver = opt.solver;
  so.integrator = opt.integrator;
  Simulation sim(mech, so);
  if (opt.events) *opt.events << "t,name,kind,impulse\n";
  if (sink.begin) sink.begin(sim);
  std::vector<double> row;
  auto emit = [&] {
    sim.evaluate();
    fill_row(sim, row);
    sink.row(sim, row);
    if (opt.observe) opt.observe(sim);
  };
  emit();
  write_events(sim, opt.events);
  const long steps = std::max(1L, std::lround(std::ceil(opt.duration / opt.step - 1e-9)));
  double next_sample = opt.sample;
  for (long n = 1; n <= steps; ++n) {
    const double t_next = n == steps ? opt.duration : n * opt.step;
    if (opt.integrator == Integrator::RK45)
      sim.advance(t_next, opt.rtol, opt.atol, opt.step);
    else
      sim.step(t_next - sim.time(), opt.integrator);
    write_events(sim, opt.events);
    const bool last = n == steps;
    const bool due = opt.sample <= 0.0 || sim.time() >= next_sample - 1e-9 * opt.step;
    if (due || last) {
      emit();
      while (opt.sample > 0.0 && next_sample <= sim.time() + 1e-9 * opt.step)
        next_sample += opt.sample;
    }
    if (progress && (n % 1000 == 0 || last)) progress(static_cast<double>(n) / steps);
  }
}

void run_to_csv(const Mechanism& mech, const RunOptions& opt, std::ostream& out,
                const std::function<void(double)>& progress) {
  RowSink sink;
  sink.begin = [&](const Simulation&) {  // the header once the simulation could be set up
    const std::vector<std::string> cols = csv_header(mech);
    for (std::size_t c = 0; c < cols.size(); ++c) out << (c ? "," : "") << cols[c];
    out << '\n';
  };
  std::string line;
  sink.row = [&](const Simulation&, const std::vector<double>& row) {
    line.clear();
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) line += ',';
      line += format_number(row[c]);
    }
    line += '\n';
    out << line;
  };
  run_rows(mech, opt, sink, progress);
}

}  // namespace articula
