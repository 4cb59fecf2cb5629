#include "core/factor_graph/fixed_lag_output.hpp"

#include <stdexcept>

#include "core/io/run_setup.hpp"

namespace articula::fg {

namespace {
// (user joint, model v index of its first coordinate, nv) per tree joint, file order.
struct TreeCoordinates {
  int joint = 0, v = 0, n = 0;
};
std::vector<TreeCoordinates> tree_coordinates(const Mechanism& m) {
  std::vector<TreeCoordinates> out;
  for (std::size_t j = 0; j < m.spec.joints.size(); ++j) {
    const JointMapping& map = m.compiled.joint_map[j];
    if (map.loop) continue;
    const int body = map.index;
    out.push_back({static_cast<int>(j), m.model().v_index[body], m.model().joints[body].nv()});
  }
  return out;
}
}  // namespace

FixedLagOptions fixed_lag_options(const Mechanism& m, const FixedLagOverrides& o) {
  if (o.step && !(*o.step > 0)) throw std::invalid_argument("step must be > 0 s");
  if (o.duration && !(*o.duration >= 0)) throw std::invalid_argument("duration must be >= 0 s");
  if (o.window < 1) throw std::invalid_argument("window must be >= 1 (time steps)");
  if (!(o.sigma > 0)) throw std::invalid_argument("sigma must be > 0");
  RunOverrides run;
  run.step = o.step;
  run.duration = o.duration;
  const RunOptions file = resolve_run_options(m, run);
  FixedLagOptions opt;
  opt.step = file.step;
  opt.duration = file.duration;
  opt.window = o.window;
  opt.sigma_position = opt.sigma_velocity = o.sigma;
  opt.sigma_dynamics = opt.sigma_integration = o.sigma;
  return opt;
}

std::vector<std::string> fixed_lag_coordinate_names(const Mechanism& m) {
  std::vector<std::string> names(m.model().nv);
  for (const TreeCoordinates& c : tree_coordinates(m))
    for (int k = 0; k < c.n; ++k)
      names[c.v + k] = joint_column(m.spec.joints[c.joint].name, "q", c.n, k);
  return names;
}

std::vector<std::string> fixed_lag_csv_header(const Mechanism& m) {
  std::vector<std::string> cols{"t"};
  const std::vector<TreeCoordinates> tree = tree_coordinates(m);
  for (const char* what : {"q", "qd"})
    for (const TreeCoordinates& c : tree)
      for (int k = 0; k < c.n; ++k)
        cols.push_back(joint_column(m.spec.joints[c.joint].name, what, c.n, k));
  cols.push_back("loop_error");
  return cols;
}

void write_fixed_lag_csv(const Mechanism& m, const FixedLagResult& r, std::ostream& out) {
  const std::vector<std::string> cols = fixed_lag_csv_header(m);
  for (std::size_t c = 0; c < cols.size(); ++c) out << (c ? "," : "") << cols[c];
  out << '\n';
  const std::vector<TreeCoordinates> tree = tree_coordinates(m);
  for (Eigen::Index i = 0; i < r.t.size(); ++i) {
    out << format_number(r.t[i]);
    for (const MatX* x : {&r.q, &r.qd})
      for (const TreeCoordinates& c : tree)
        for (int k = 0; k < c.n; ++k) out << ',' << format_number((*x)(i, c.v + k));
    out << ',' << format_number(r.loop_error[i]) << '\n';
  }
}

}  // namespace articula::fg
