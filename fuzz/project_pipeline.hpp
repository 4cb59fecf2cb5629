#pragma once
// The path the fuzz target drives (and tests/io/test_fuzz_regressions.cpp replays): text ->
// parse and validate -> compile -> assemble -> info -> 10 simulation steps -> save text; and the
// editor's load/save round trip.
// Diagnosed failures (ProjectError, SetupError, ExpressionError, ...) are fine; any other
// exception propagates (a validation gap), and a non-finite result that got past the checks is
// returned as a description of the defect ("" when all is well).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/io/project.hpp"
#include "core/sim/runner.hpp"

namespace articula::fuzz {

inline std::string non_finite(const Simulation& sim) {
  bool ok =
      sim.q().allFinite() && sim.qd().allFinite() && sim.qdd().allFinite() && sim.tau().allFinite();
  for (const Force& w : sim.wrench()) ok = ok && w.allFinite();
  for (const Simulation::JointState& j : sim.joint_states())
    ok = ok && j.q.allFinite() && j.qd.allFinite() && j.qdd.allFinite() && j.tau.allFinite();
  const Simulation::Energy& e = sim.energy();
  ok = ok && std::isfinite(e.kinetic) && std::isfinite(e.potential) && std::isfinite(e.work) &&
       std::isfinite(e.residual) && std::isfinite(sim.loop_error());
  return ok ? "" : "non-finite result at t = " + std::to_string(sim.time());
}

// Ten steps with the file's integrator and step (bounded to keep each input fast).
inline std::string simulate_ten_steps(const Mechanism& mech) {
  const RunOptions opt = run_options_from(mech.spec);
  const double h = std::isfinite(opt.step) && opt.step > 0 ? std::min(opt.step, 0.1) : 1e-3;
  Simulation sim(mech);
  sim.evaluate();
  std::string bad = non_finite(sim);
  for (int n = 0; n < 10 && bad.empty(); ++n) {
    if (opt.integrator == Integrator::RK45)
      sim.advance(sim.time() + h, opt.rtol, opt.atol, h);
    else
      sim.step(h, opt.integrator);
    sim.evaluate();
    bad = non_finite(sim);
  }
  return bad;
}

// The editor's path: sketched links kept under /sketch/floating restored, written back and read
// again must give the same text (a saved sketch always reopens, unchanged).
inline std::string editor_round_trip(const std::string& text) {
  const LoadOptions editor{.restore_floating = true};
  std::string first;
  try {
    first = to_text(parse_project(text, editor).spec);
  } catch (const std::runtime_error&) {  // rejected with a diagnosis, or not writable
    return "";
  }
  try {
    if (to_text(parse_project(first, editor).spec) == first) return "";
  } catch (const std::runtime_error& e) {
    return std::string("a saved sketch does not reopen: ") + e.what();
  }
  return "a saved sketch reopens changed";
}

inline std::string run_project_pipeline(const std::string& text) {
  if (std::string bad = editor_round_trip(text); !bad.empty()) return bad;
  LoadResult loaded;
  try {
    loaded = parse_project(text);
  } catch (const ProjectError&) {
    return "";  // rejected with a diagnosis
  }
  // Keep the mechanism small enough that ten steps stay fast.
  if (loaded.spec.bodies.size() > 64 || loaded.spec.joints.size() > 64) return "";
  try {
    const Mechanism mech = prepare(loaded.spec);
    (void)mechanism_info(mech).dump();
    const std::string bad = simulate_ten_steps(mech);
    if (!bad.empty()) return bad;
    (void)to_text(loaded.spec);             // what was loaded can be written back
  } catch (const std::invalid_argument&) {  // graph problems found by the compiler
  } catch (const std::runtime_error&) {     // SetupError, ProjectError, ExpressionError, save
  }
  return "";
}

}  // namespace articula::fuzz
