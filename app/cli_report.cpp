#include "app/cli_report.hpp"

#include <cstdio>
#include <iostream>

#include "app/cli_output.hpp"
#include "core/io/run_setup.hpp"
#include "core/sim/design_report.hpp"

namespace articula {

CLI::App* add_report_command(CLI::App& app, ReportArgs& a) {
  auto* rep =
      app.add_subcommand("report",
                         "simulate and write the design report as JSON: drive forces, power, work, "
                         "reflected inertia, apparent mass of points, transmission angles");
  add_run_options(rep, a);
  rep->add_option("--sample", a.sample,
                  "interval of the report's samples, s (default: every step)");
  rep->add_option("--point", a.points,
                  "NAME=BODY@x,y,z: a point in BODY's frame whose apparent mass (at t = 0) and "
                  "path are reported (repeatable)");
  rep->add_option("--output", a.output, "JSON file to write (default: stdout)");
  rep->add_flag("--quiet", a.quiet, "no progress on stderr");
  return rep;
}

int run_report(const ReportArgs& a) {
  std::vector<ReportPoint> points;  // malformed points fail before anything is loaded
  for (const std::string& p : a.points) points.push_back(parse_report_point(p));
  LoadResult loaded = load_project(a.file);
  for (const std::string& w : loaded.warnings) std::cerr << "warning: " << w << '\n';
  const Mechanism mech = prepare_project(loaded.spec);
  const RunOptions opt = resolve_run_options(mech, run_overrides(a));
  for (const std::string& w : run_warnings(mech, opt)) std::cerr << "warning: " << w << '\n';
  const bool show = !a.quiet && opt.duration / opt.step >= 20000;
  auto progress = [&](double f) {
    if (show)
      std::fprintf(stderr, "\rreport: %3d%%%s", static_cast<int>(100 * f), f >= 1 ? "\n" : "");
  };
  const std::string text = design_report(mech, opt, points, progress).dump(1) + "\n";
  write_output(a.output, [&](std::ostream& out) { out << text; });
  return 0;
}

}  // namespace articula
