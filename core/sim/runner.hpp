#pragma once
// The headless runner behind articula-cli: mechanism summaries and simulations written as CSV
// (project-format-v1, "Headless CLI").
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "core/sim/simulation.hpp"

namespace articula {

// The `info` document: bodies, joints, tree_joints, loop_joints, coordinates, mobility,
// redundant_constraints, drives, plus details (names, Grübler count, redundant joints, assembly).
nlohmann::json mechanism_info(const Mechanism& mech);

struct RunOptions {
  double duration = 5.0;
  double step = 1e-3;
  Integrator integrator = Integrator::RK4;
  double sample = 0.0;                       // output interval; 0 = every step
  double rtol = 1e-8, atol = 1e-10;          // rk45 tolerances (simulation.rtol / simulation.atol)
  bool require_fully_driven = false;         // --inverse: pure inverse dynamics
  SolverChoice solver = SolverChoice::Auto;  // simulation.solver / --solver
  std::ostream* events = nullptr;            // --events: "t,name,kind,impulse" rows, header first
  // Called after every output row with the simulation evaluated there (--sensors-out).
  std::function<void(const Simulation&)> observe;
};

// Settings from the file's `simulation` block, defaults otherwise.
RunOptions run_options_from(const MechanismSpec& spec);
// Column names, in order: t, then per user joint J.q, J.qd, J.qdd, J.tau (indexed for multi-DoF
// joints), J.Fx J.Fy J.Fz J.Mx J.My J.Mz; then the extensions: loop_error,
// kinetic_energy, potential_energy, input_work, dissipated_energy, energy_residual, input_power,
// per coupling G.tau (the generalized force it applies to its joint B); then, with limits or
// contacts (contract-additions-2 §2): J.limit_force per joint with limits, C.fn, C.ft, C.gap per
// contact, J.friction_force per joint with friction, and impact_loss.
std::vector<std::string> csv_header(const Mechanism& mech);
// One joint's column name as csv_header writes it: "J.what" for a 1-component quantity, else
// "J.what[k]" (k of n). Other writers of joint columns (fg-simulate) use it so names match.
std::string joint_column(const std::string& joint, const char* what, int n, int k);
// One output row at the simulation's last evaluate(), in csv_header order; `row` is resized.
void fill_row(const Simulation& sim, std::vector<double>& row);
// Simulates and hands every output row (csv_header order) to `sink`, the first at t = 0, then
// every step (or every `sample`) and the last step. The row is reused: copy what you keep.
// progress(fraction) is called now and then. The CSV writer and the Python module both run
// this, so their numbers are the same doubles.
struct RowSink {
  std::function<void(const Simulation&)> begin;  // once the simulation is set up (optional)
  std::function<void(const Simulation&, const std::vector<double>&)> row;
};
void run_rows(const Mechanism& mech, const RunOptions& opt, const RowSink& sink,
              const std::function<void(double)>& progress = {});
// Simulates and writes CSV rows (header first). progress(fraction) is called now and then.
void run_to_csv(const Mechanism& mech, const RunOptions& opt, std::ostream& out,
                const std::function<void(double)>& progress = {});
// Shortest text that reads back to the same double.
std::string format_number(double x);

}  // namespace articula
