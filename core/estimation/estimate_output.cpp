#include "core/estimation/estimate_output.hpp"

#include <cmath>

#include "core/sim/runner.hpp"

namespace articula {

namespace {
void add_indexed(std::vector<std::string>& cols, const std::string& base, int n) {
  if (n == 1) {
    cols.push_back(base);
    return;
  }
  for (int k = 0; k < n; ++k) cols.push_back(base + "[" + std::to_string(k) + "]");
}

// Every user joint's q then q̇, stacked, at the simulation's state.
VecX joint_coordinates(const Simulation& sim) {
  std::vector<double> v;
  for (const JointState& s : sim.joint_states()) v.insert(v.end(), s.q.begin(), s.q.end());
  for (const JointState& s : sim.joint_states()) v.insert(v.end(), s.qd.begin(), s.qd.end());
  return Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Standard deviations of joint_coordinates at knot k: J Σ_xx Jᵀ with J by central differences.
VecX coordinate_sigmas(StateSpace& space, const SmoothedMotion& est, std::size_t k) {
  const int nx = space.nx();
  VecX q = est.q[k];
  const VecX base =
      joint_coordinates(space.place(est.t[static_cast<Eigen::Index>(k)], est.xu[k], q));
  MatX J = MatX::Zero(base.size(), nx);
  for (int j = 0; j < nx; ++j) {
    const double d = 1e-6 * (1.0 + std::abs(est.xu[k][j]));
    VecX x = est.xu[k];
    x[j] += d;
    q = est.q[k];
    const VecX plus = joint_coordinates(space.place(est.t[static_cast<Eigen::Index>(k)], x, q));
    x[j] -= 2 * d;
    q = est.q[k];
    const VecX minus = joint_coordinates(space.place(est.t[static_cast<Eigen::Index>(k)], x, q));
    J.col(j) = (plus - minus) / (2 * d);
  }
  const MatX S = J * est.cov[k].topLeftCorner(nx, nx) * J.transpose();
  return S.diagonal().cwiseMax(0.0).cwiseSqrt();
}
}  // namespace

std::vector<std::string> estimate_header(const Mechanism& mech) {
  std::vector<std::string> cols = csv_header(mech);
  for (const JointSpec& js : mech.spec.joints)
    add_indexed(cols, js.name + ".q_sigma", js.joint.nq());
  for (const JointSpec& js : mech.spec.joints)
    add_indexed(cols, js.name + ".qd_sigma", js.joint.nv());
  for (const JointSpec& js : mech.spec.joints)
    if (js.drive && js.drive->unknown) cols.push_back(js.name + ".tau_sigma");  // 1-DoF joints
  return cols;
}

void write_estimate(StateSpace& space, const SmoothedMotion& est, std::ostream& out) {
  const std::vector<std::string> cols = estimate_header(space.mechanism());
  for (std::size_t c = 0; c < cols.size(); ++c) out << (c ? "," : "") << cols[c];
  out << '\n';
  std::vector<double> row;
  std::string line;
  for (std::size_t k = 0; k < est.xu.size(); ++k) {
    const VecX sigma = coordinate_sigmas(space, est, k);
    VecX q = est.q[k];
    (void)space.place(est.t[static_cast<Eigen::Index>(k)], est.xu[k], q);
    // place() evaluates only as far as the sensors read: the row needs every stage (joint
    // forces, wrenches, energy), or it would be shorter than the header.
    Simulation& sim = space.simulation();
    sim.evaluate();
    fill_row(sim, row);
    row.insert(row.end(), sigma.begin(), sigma.end());
    for (int u = 0; u < space.nu(); ++u)
      row.push_back(std::sqrt(std::max(0.0, est.cov[k](space.nx() + u, space.nx() + u))));
    line.clear();
    for (std::size_t c = 0; c < row.size(); ++c)
      line.append(c ? "," : "").append(format_number(row[c]));
    out << line << '\n';
  }
}

}  // namespace articula
