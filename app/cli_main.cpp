// articula-cli: the headless front end (project-format-v1, "Headless CLI").
// Exit status: 0 success, 2 invalid input, 3 cannot assemble or simulate.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "app/cli_fg_simulate.hpp"
#include "app/cli_output.hpp"
#include "app/cli_report.hpp"
#include "app/cli_run_args.hpp"
#include "app/cli_trajectory.hpp"
#include "core/estimation/estimate_output.hpp"
#include "core/estimation/measurement_log.hpp"
#include "core/estimation/parameters.hpp"
#include "core/factor_graph/dynamics_report.hpp"
#include "core/io/run_setup.hpp"
#ifdef ARTICULA_INTERCHANGE
#include "interchange/convert.hpp"
#include "interchange/xml_text.hpp"
#endif

using namespace articula;

namespace {
constexpr int kInvalidInput = 2;
constexpr int kCannotSimulate = 3;

Mechanism load_and_prepare(const std::string& path) {
  LoadResult loaded = load_project(path);
  for (const std::string& w : loaded.warnings) std::cerr << "warning: " << w << '\n';
  return prepare_project(loaded.spec);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

struct InfoArgs {
  std::string file, graph, factor_graph, order = "rnea";
};

int run_info(const InfoArgs& a) {
  const Mechanism mech = load_and_prepare(a.file);
  const fg::EliminationOrder order = fg::order_from_name(a.order);
  std::cout << mechanism_info(mech).dump(2) << '\n';
  if (!a.graph.empty()) write_text(a.graph, fg::bayes_net_dot_at_start(mech, order));
  if (!a.factor_graph.empty()) write_text(a.factor_graph, fg::factor_graph_dot_at_start(mech));
  return 0;
}

struct DynamicsArgs {
  std::string file, order = "colamd";
  double at = 0.0;
};

int run_dynamics(const DynamicsArgs& a) {
  const Mechanism mech = load_and_prepare(a.file);
  const fg::EliminationOrder order = fg::order_from_name(a.order);
  std::cout << fg::dynamics_report(mech, a.at, order).dump(2) << '\n';
  return 0;
}

struct SimulateArgs : RunArgs {
  bool inverse = false;
  std::string events;                            // --events FILE.csv
  std::string sensors_out;                       // --sensors-out MEAS.csv
  std::optional<unsigned long long> noise_seed;  // --noise-seed N
};

// --sensors-out: what the file's sensors read at every output row, with seeded noise.
struct SensorRecorder {
  SensorRecorder(const Mechanism& mech, const SimulateArgs& a)
      : model(mech), file(a.sensors_out), writer(file, model) {
    if (!file) throw std::runtime_error("cannot write '" + a.sensors_out + "'");
    if (a.noise_seed) noise.emplace(model.sigma(), *a.noise_seed);
  }
  void operator()(const Simulation& sim) {
    model.read(sim, values);
    if (noise) noise->add(values);
    writer.row(sim.time(), values);
  }
  SensorModel model;
  std::ofstream file;
  MeasurementWriter writer;
  std::optional<SensorNoise> noise;
  VecX values;
};

int run_simulate(const SimulateArgs& a) {
  const Mechanism mech = load_and_prepare(a.file);
  RunOverrides over = run_overrides(a);
  over.inverse = a.inverse;
  RunOptions opt = resolve_run_options(mech, over);
  // springs too stiff for the chosen fixed step: the run will diverge, say why up front
  for (const std::string& w : run_warnings(mech, opt)) std::cerr << "warning: " << w << '\n';
  std::ofstream events;
  if (!a.events.empty()) {
    events.open(a.events);
    if (!events) throw std::runtime_error("cannot write '" + a.events + "'");
    opt.events = &events;
  }
  std::unique_ptr<SensorRecorder> recorder;
  if (!a.sensors_out.empty()) {
    if (mech.spec.sensors.empty())
      throw ProjectError("/sensors", "--sensors-out needs sensors in the file; there are none");
    recorder = std::make_unique<SensorRecorder>(mech, a);
    opt.observe = [&](const Simulation& sim) { (*recorder)(sim); };
  } else if (a.noise_seed) {
    throw std::invalid_argument("--noise-seed applies to --sensors-out, which is not given");
  }
  const bool show = !a.quiet && opt.duration / opt.step >= 20000;
  auto progress = [&](double f) {
    if (show)
      std::fprintf(stderr, "\rsimulating: %3d%%%s", static_cast<int>(100 * f), f >= 1 ? "\n" : "");
  };
  write_output(a.output, [&](std::ostream& out) { run_to_csv(mech, opt, out, progress); });
  return 0;
}

EstimatorOptions::Loss loss_from_name(const std::string& name) {
  if (name == "huber") return EstimatorOptions::Loss::Huber;
  if (name == "cauchy") return EstimatorOptions::Loss::Cauchy;
  if (name != "none")
    throw std::invalid_argument("--loss '" + name + "': expected none, huber or cauchy");
  return EstimatorOptions::Loss::Squared;
}

struct EstimateArgs {
  std::string file, log, output, loss = "none";
  int window = 0;
  bool batch = false;
  EstimatorOptions opt;
};

// estimate FILE MEAS.csv: the motion and unknown drive forces with their σ (issue 20).
int run_estimate(EstimateArgs& a) {
  const Mechanism mech = load_and_prepare(a.file);
  if (mech.spec.sensors.empty())
    throw ProjectError("/sensors", "estimation needs sensors in the file; there are none");
  StateSpace space(mech);
  const MeasurementLog log = read_measurements(a.log, space.sensors());
  a.opt.loss = loss_from_name(a.loss);
  if (a.window > 0 && a.window > log.t.size())
    throw MeasurementError(a.log + ": " + std::to_string(log.t.size()) +
                           " rows, shorter than the window of " + std::to_string(a.window));
  const SmoothedMotion est = a.window > 0 ? smooth_fixed_lag(space, log, a.opt, a.window)
                                          : smooth_batch(space, log, a.opt);
  if (a.output.empty()) {
    write_estimate(space, est, std::cout);
    return 0;
  }
  std::ofstream out(a.output);
  if (!out) throw std::runtime_error("cannot write '" + a.output + "'");
  write_estimate(space, est, out);
  return 0;
}

struct IdentifyArgs {
  EstimateArgs est;
  std::vector<std::string> logs;  // MEAS.csv ...: several logs share the parameters
  std::vector<std::string> params;
};

// identify FILE MEAS.csv [MEAS2.csv ...] --param PATH ...: the parameters with their σ, as
// JSON (issue 20); several logs identify them together, each log with its own motion.
int run_identify(IdentifyArgs& a) {
  LoadResult loaded = load_project(a.est.file);
  for (const std::string& w : loaded.warnings) std::cerr << "warning: " << w << '\n';
  if (loaded.spec.sensors.empty())
    throw ProjectError("/sensors", "identification needs sensors in the file; there are none");
  ParameterModel params(loaded.spec, a.params);
  std::vector<MeasurementLog> logs;
  for (const std::string& path : a.logs) {
    logs.push_back(read_measurements(path, params.at(params.initial()).sensors()));
    if (logs.back().t.size() < 2)
      throw MeasurementError(path + ": one row; estimation needs at least two");
  }
  a.est.opt.loss = loss_from_name(a.est.loss);
  const Identified id = identify(params, logs, a.est.opt);
  const std::string text = parameters_json(params, id.values, id.cov).dump(2) + "\n";
  if (a.est.output.empty())
    std::cout << text;
  else
    write_text(a.est.output, text);
  return 0;
}

#ifdef ARTICULA_INTERCHANGE
// convert IN OUT: formats by extension (interchange/convert.hpp); warnings name what is dropped.
int run_convert(const std::string& in, const std::string& out) {
  const Imported imported = import_mechanism(in);
  for (const std::string& w : imported.warnings) std::cerr << "warning: " << w << '\n';
  for (const std::string& w : export_mechanism(imported.spec, out))
    std::cerr << "warning: " << w << '\n';
  return 0;
}
#endif
// The smoother's options, shared by estimate and identify.
void add_estimator_options(CLI::App* cmd, EstimateArgs& a) {
  cmd->add_option("--loss", a.loss,
                  "robust loss on the sensor residuals: none (default), huber or cauchy "
                  "(by iteratively reweighted least squares)");
  cmd->add_option("--loss-scale", a.opt.loss_scale,
                  "where the robust loss departs from the square, in sensor sigmas (default 3)");
  cmd->add_option("--accel-sigma", a.opt.accel_sigma,
                  "process noise: white generalized acceleration density, per independent "
                  "coordinate (default 1)");
  cmd->add_option("--force-sigma", a.opt.force_sigma,
                  "random-walk density of the unknown drive forces, N m or N per sqrt(s) "
                  "(default 1)");
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Articula headless: mechanism information and simulation to CSV"};
  app.require_subcommand(1);
  InfoArgs ia;
  auto* info = app.add_subcommand("info", "print the mechanism summary as JSON");
  info->add_option("FILE", ia.file, "project file")->required();
  info->add_option("--graph", ia.graph,
                   "write the Bayes net of the instant dynamics at t = 0 (Graphviz DOT)");
  info->add_option("--factor-graph", ia.factor_graph,
                   "write the dynamics factor graph at t = 0 (Graphviz DOT)");
  info->add_option("--order", ia.order,
                   "elimination order for --graph: rnea, crba, aba, colamd, amd or mindegree");
  DynamicsArgs da;
  auto* dyn = app.add_subcommand(
      "dynamics", "accelerations and drive forces at one instant by the factor graph (JSON)");
  dyn->add_option("FILE", da.file, "project file")->required();
  dyn->add_option("--at", da.at,
                  "time, s (the state there is simulated, or assembled from the "
                  "laws when the drives are redundant)");
  dyn->add_option("--order", da.order,
                  "elimination order: rnea, crba, aba, colamd, amd or mindegree");
  SimulateArgs sa;
  auto* sim = app.add_subcommand("simulate", "simulate and write CSV (stdout without --output)");
  add_run_options(sim, sa);
  sim->add_option("--output", sa.output, "CSV file to write");
  sim->add_option("--sample", sa.sample, "output interval, s (default: every step)");
  sim->add_flag("--quiet", sa.quiet, "no progress on stderr");
  sim->add_option("--events", sa.events,
                  "CSV of impacts and lift-offs: t,name,kind,impulse (times located, not rounded "
                  "to the step)");
  sim->add_flag("--inverse", sa.inverse,
                "pure inverse dynamics: refuse unless every degree of freedom is motion-driven");
  ReportArgs ra;
  auto* report = add_report_command(app, ra);
  sim->add_option("--sensors-out", sa.sensors_out,
                  "CSV of what the file's sensors read at every output row: t, then <sensor> "
                  "or <sensor>[i] (contract-additions-2 §5)");
  sim->add_option("--noise-seed", sa.noise_seed,
                  "add Gaussian noise with each sensor's sigma to --sensors-out, from this seed "
                  "(without it the readings are exact)");
  EstimateArgs ea;
  auto* est = app.add_subcommand(
      "estimate",
      "estimate the motion and unknown drive forces from a sensor log, with posterior sigmas "
      "(factor-graph smoother in independent coordinates: loops closed exactly)");
  est->add_option("FILE", ea.file, "project file with \"sensors\"")->required();
  est->add_option("MEAS", ea.log, "measurement CSV: t, then <sensor> or <sensor>[i] columns")
      ->required();
  est->add_option("--output", ea.output, "CSV to write (stdout without it)");
  auto* batch = est->add_flag("--batch", ea.batch, "smooth the whole log at once (the default)");
  est->add_option("--window", ea.window, "fixed-lag smoother over the last N rows")
      ->excludes(batch);
  add_estimator_options(est, ea);
  FgSimulateArgs fa;
  auto* fgsim = add_fg_simulate_command(app, fa);
  IdentifyArgs ia2;
  auto* ident = app.add_subcommand(
      "identify",
      "identify numbers of the file (by JSON pointer) with their sigmas, together "
      "with the motion, from a sensor log (JSON: {pointer: {value, sigma}})");
  ident->add_option("FILE", ia2.est.file, "project file with \"sensors\"")->required();
  ident
      ->add_option("MEAS", ia2.logs,
                   "measurement CSV; several logs of the same mechanism (other runs, other "
                   "excitations) identify the parameters together, each log with its own motion")
      ->required();
  ident->add_option("--param", ia2.params, "JSON pointer of a number, e.g. /bodies/2/mass")
      ->required();
  ident->add_option("--output", ia2.est.output, "JSON file to write (stdout without it)");
  add_estimator_options(ident, ia2.est);
  TrajectoryArgs ta;
  auto* trajectory = add_trajectory_command(app, ta);
#ifdef ARTICULA_INTERCHANGE
  std::string convert_in, convert_out;
  auto* convert = app.add_subcommand(
      "convert", "convert between .json, .urdf, .sdf and .xml (MJCF, write only) by extension");
  convert->add_option("IN", convert_in, "mechanism to read")->required();
  convert->add_option("OUT", convert_out, "file to write")->required();
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kInvalidInput;
  }
  try {
#ifdef ARTICULA_INTERCHANGE
    if (convert->parsed()) return run_convert(convert_in, convert_out);
#endif
    if (info->parsed()) return run_info(ia);
    if (dyn->parsed()) return run_dynamics(da);
    if (report->parsed()) return run_report(ra);
    if (est->parsed()) return run_estimate(ea);
    if (ident->parsed()) return run_identify(ia2);
    if (fgsim->parsed()) return run_fg_simulate(fa);
    if (trajectory->parsed()) return run_trajectory(ta);
    return run_simulate(sa);
  } catch (const ProjectError& e) {
    std::cerr << "articula-cli: invalid input: " << e.what() << '\n';
    return kInvalidInput;
#ifdef ARTICULA_INTERCHANGE
  } catch (const InterchangeError& e) {
    std::cerr << "articula-cli: invalid input: " << e.what() << '\n';
    return kInvalidInput;
#endif
  } catch (const SetupError& e) {
    std::cerr << "articula-cli: " << e.what() << '\n';
    return kCannotSimulate;
  } catch (const fg::EliminationError& e) {
    std::cerr << "articula-cli: " << e.what();
    for (const std::string& f : e.factors) std::cerr << (&f == &e.factors[0] ? ": " : ", ") << f;
    std::cerr << '\n';
    return kCannotSimulate;
  } catch (const MeasurementError& e) {
    std::cerr << "articula-cli: invalid input: " << e.what() << '\n';
    return kInvalidInput;
  } catch (
      const std::invalid_argument& e) {  // a bad --order or --point, an option without its partner
    std::cerr << "articula-cli: invalid input: " << e.what() << '\n';
    return kInvalidInput;
  } catch (const std::exception& e) {
    std::cerr << "articula-cli: " << e.what() << '\n';
    return kCannotSimulate;
  }
}
