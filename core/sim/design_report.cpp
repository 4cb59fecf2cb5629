#include "core/sim/design_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "core/sim/design_inertia.hpp"
#include "core/sim/transmission_angle.hpp"

namespace articula {

namespace {
using nlohmann::json;

double parse_number(const std::string& text, const std::string& what) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double x = std::strtod(begin, &end);
  if (text.empty() || end != begin + text.size() || !std::isfinite(x))
    throw std::invalid_argument(what + ": '" + text + "' is not a number");
  return x;
}

// A drive's running sums over the samples (see design_report.hpp for the definitions).
struct DriveStats {
  int tau_col = 0, qd_col = 0;  // CSV columns of J.tau and J.qd
  double peak_force = 0, force2 = 0, peak_power = 0, positive = 0, negative = 0;
  double t = 0, f = 0, p = 0;  // the previous sample
  std::vector<double> inertia;

  void add(double t1, double f1, double p1, bool first) {
    peak_force = std::max(peak_force, std::abs(f1));
    peak_power = std::max(peak_power, std::abs(p1));
    if (!first) {
      const double h = t1 - t;
      force2 += 0.5 * h * (f * f + f1 * f1);
      if ((p >= 0) == (p1 >= 0)) {  // one sign over the segment: the trapezoid
        (p1 >= 0 ? positive : negative) += 0.5 * h * (p + p1);
      } else {  // split where the interpolant crosses zero, at s = p / (p - p1)
        const double s = p / (p - p1);
        (p > 0 ? positive : negative) += 0.5 * h * s * p;
        (p1 > 0 ? positive : negative) += 0.5 * h * (1 - s) * p1;
      }
    }
    t = t1, f = f1, p = p1;
  }
};

int column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) throw std::logic_error("design report: no column " + name);
  return static_cast<int>(it - header.begin());
}

struct BoundPoint {
  int body = 0;
  Vec3 point = Vec3::Zero();  // model body frame
  std::vector<double> path;   // x, y, z per sample
  ApparentMass mass;
};

BoundPoint bind_point(const Mechanism& mech, const ReportPoint& p) {
  BoundPoint b;
  const int user = p.body == "ground" ? -1 : mech.spec.body_index(p.body);
  if (user < 0 && p.body != "ground")
    throw std::invalid_argument(p.source + ": unknown body '" + p.body + "'");
  b.body = user < 0 ? 0 : mech.compiled.model_body[user];
  const Transform& X = mech.compiled.X_body[b.body];  // ^{model}X_{user}
  b.point = user < 0 ? p.point : Vec3(X.E * (p.point - X.r));
  return b;
}

json row_major(const Mat3& m) {
  json out = json::array();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.push_back(m(r, c));
  return out;
}

json point_json(const ReportPoint& p, const BoundPoint& b) {
  json dirs = json::array(), path = json::array();
  for (const Vec3& d : b.mass.constrained_directions) dirs.push_back({d.x(), d.y(), d.z()});
  for (std::size_t i = 0; i + 2 < b.path.size(); i += 3)
    path.push_back({b.path[i], b.path[i + 1], b.path[i + 2]});
  return {{"body", p.body},
          {"point", {p.point.x(), p.point.y(), p.point.z()}},
          {"apparent_mass", row_major(b.mass.mass)},
          {"apparent_mass_inverse", row_major(b.mass.inverse)},
          {"constrained_directions", dirs},
          {"path", path}};
}

// Everything the report gathers while the simulation runs.
struct Gatherer {
  const Mechanism& mech;
  DesignInertia inertia;
  std::vector<DriveStats> drives;
  std::vector<BoundPoint> points;
  std::vector<TransmissionLoop> loops;
  std::vector<std::vector<double>> angles;  // per loop, per sample
  std::vector<double> t;

  explicit Gatherer(const Mechanism& m) : mech(m), inertia(m), loops(transmission_loops(m)) {
    const std::vector<std::string> header = csv_header(m);
    for (const DriveBinding& d : m.drives) {
      const std::string& joint = m.spec.joints[d.user_joint].name;
      DriveStats s;
      s.tau_col = column(header, joint + ".tau");
      s.qd_col = column(header, joint + ".qd");
      drives.push_back(s);
    }
    angles.resize(loops.size());
  }

  void sample(const Simulation& sim, const std::vector<double>& row) {
    const bool first = t.empty();
    t.push_back(row[0]);
    inertia.set_configuration(sim.q());
    for (std::size_t k = 0; k < drives.size(); ++k) {
      DriveStats& s = drives[k];
      const double f = row[s.tau_col];
      s.add(row[0], f, f * row[s.qd_col], first);
      s.inertia.push_back(inertia.reflected_inertia(static_cast<int>(k)));
    }
    for (BoundPoint& p : points) {
      const Transform& X = inertia.data().X0[p.body];
      const Vec3 x = X.r + X.E.transpose() * p.point;
      p.path.insert(p.path.end(), {x.x(), x.y(), x.z()});
      if (first) p.mass = inertia.apparent_mass(p.body, p.point);
    }
    for (std::size_t l = 0; l < loops.size(); ++l)
      angles[l].push_back(transmission_angle(mech, inertia.data(), loops[l]));
  }
};

json drives_json(const Gatherer& g) {
  json out = json::object();
  const double T = g.t.empty() ? 0.0 : g.t.back() - g.t.front();
  for (std::size_t k = 0; k < g.drives.size(); ++k) {
    const DriveStats& s = g.drives[k];
    out[g.mech.spec.joints[g.mech.drives[k].user_joint].name] = {
        {"type", g.mech.drives[k].kind == DriveSpec::Kind::Motion ? "motion" : "force"},
        {"peak_force", s.peak_force},
        {"rms_force", T > 0 ? std::sqrt(s.force2 / T) : std::abs(s.f)},
        {"peak_power", s.peak_power},
        {"positive_work", s.positive},
        {"negative_work", s.negative},
        {"reflected_inertia", {{"t", g.t}, {"value", s.inertia}}}};
  }
  return out;
}
}  // namespace

ReportPoint parse_report_point(const std::string& text) {
  ReportPoint p;
  p.source = "--point " + text;
  const std::size_t eq = text.find('='), at = text.find('@', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || at == std::string::npos || eq == 0 || at == eq + 1)
    throw std::invalid_argument(p.source + ": expected NAME=BODY@x,y,z");
  p.name = text.substr(0, eq);
  p.body = text.substr(eq + 1, at - eq - 1);
  std::string rest = text.substr(at + 1);
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = rest.find(',');
    if ((i < 2) != (comma != std::string::npos))
      throw std::invalid_argument(p.source + ": expected three coordinates x,y,z");
    p.point[i] = parse_number(rest.substr(0, comma), p.source);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  return p;
}

json design_report(const Mechanism& mech, const RunOptions& opt,
                   const std::vector<ReportPoint>& points,
                   const std::function<void(double)>& progress) {
  Gatherer g(mech);
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (points[j].name == points[i].name)
        throw std::invalid_argument(points[i].source + ": a second point named '" + points[i].name +
                                    "'");
    g.points.push_back(bind_point(mech, points[i]));
  }
  RowSink sink;
  sink.row = [&](const Simulation& sim, const std::vector<double>& row) { g.sample(sim, row); };
  run_rows(mech, opt, sink, progress);
  json pts = json::object(), loops = json::object();
  for (std::size_t i = 0; i < points.size(); ++i)
    pts[points[i].name] = point_json(points[i], g.points[i]);
  for (std::size_t l = 0; l < g.loops.size(); ++l)
    loops[g.loops[l].joint] = {{"transmission_angle", {{"t", g.t}, {"value", g.angles[l]}}}};
  return {{"t", g.t}, {"drives", drives_json(g)}, {"points", pts}, {"loops", loops}};
}

}  // namespace articula
