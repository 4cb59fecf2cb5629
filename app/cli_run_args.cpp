#include "app/cli_run_args.hpp"

namespace articula {

void add_run_options(CLI::App* cmd, RunArgs& a) {
  cmd->add_option("FILE", a.file, "project file")->required();
  cmd->add_option("--duration", a.duration, "simulated time, s");
  cmd->add_option("--step", a.step, "integration step, s");
  cmd->add_option("--integrator", a.integrator,
                  "rk4, euler or rk45 (adaptive; --step is then the largest step)");
  cmd->add_option("--solver", a.solver,
                  "auto, method2 (RBDA 8.5), sparse (RBDA 8.13), embedding or operator; a solver "
                  "that does not apply is exit 3 saying why");
}

RunOverrides run_overrides(const RunArgs& a) {
  RunOverrides over;
  if (a.duration >= 0) over.duration = a.duration;
  if (a.step > 0) over.step = a.step;
  if (!a.integrator.empty()) over.integrator = a.integrator;
  if (!a.solver.empty()) over.solver = a.solver;
  over.sample = a.sample;
  return over;
}

}  // namespace articula
