#include "core/doc/sketch_status.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <sstream>
#include <utility>

#include "core/algorithms/assembly.hpp"
#include "core/algorithms/kinematics.hpp"
#include "core/algorithms/loop_constraints.hpp"
#include "core/model/configuration.hpp"

namespace articula {

namespace {
// Columns spanning the null space of A (rows scaled beforehand), relative tolerance 1e-9. The
// divide-and-conquer SVD: the same singular values as the one-sided Jacobi SVD to round-off, but
// O(n^2 m) rather than sweeps of O(n^3) on a 1,000-body ladder's 500 x 1,000 loop Jacobian
// (Eigen switches to Jacobi itself below 16 columns, so small sketches are unchanged).
MatX null_space(const MatX& A, int n) {
  if (A.rows() == 0) return MatX::Identity(n, n);
  const Eigen::BDCSVD<MatX> svd(A, Eigen::ComputeFullV);
  const VecX& s = svd.singularValues();
  const double tol = 1e-9 * std::max(1.0, s.size() ? s(0) : 0.0);
  int rank = 0;
  for (int i = 0; i < s.size(); ++i) rank += s(i) > tol;
  return svd.matrixV().rightCols(n - rank);
}

// Rows mapping q̇ to the 6-vector relative velocity across a user joint (successor relative to
// predecessor, successor joint frame), translation rows scaled by 1/length, kept on the columns
// where they are not zero: a tree joint's own coordinates, a loop joint's path. A 1,000-body
// ladder's 1,100 joints would otherwise fill 53 MB of 6 x nv zeros.
struct JointRates {
  std::vector<Eigen::Index> cols;                // coordinates (v indices) the rows touch
  MatX R;                                        // 6 x cols.size()
  Eigen::RowVectorXd row(int k, int nv) const {  // row k over all nv coordinates
    Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(nv);
    for (std::size_t c = 0; c < cols.size(); ++c) r[cols[c]] = R(k, static_cast<Eigen::Index>(c));
    return r;
  }
};

std::vector<JointRates> joint_rate_rows(const Mechanism& m, Data& data) {
  const Model& model = m.model();
  std::vector<JointRates> rates(m.spec.joints.size());
  for (std::size_t j = 0; j < m.spec.joints.size(); ++j) {
    const JointMapping& map = m.compiled.joint_map[j];
    JointRates& jr = rates[j];
    if (!map.loop) {
      const int i = map.index, nv = model.joints[i].nv();
      for (int c = 0; c < nv; ++c) jr.cols.push_back(model.v_index[i] + c);
      jr.R = data.jc[i].S.leftCols(nv);
    } else {
      MatX R = MatX::Zero(6, model.nv);
      for (int k = 0; k < 6; ++k) {
        Force t = Force::Zero();
        t(k) = 1.0;
        relative_velocity_row(model, data, m.compiled.loops[map.index], t, R.row(k));
      }
      for (Eigen::Index c = 0; c < R.cols(); ++c)
        if (R.col(c).cwiseAbs().maxCoeff() > 0.0) jr.cols.push_back(c);
      jr.R = R(Eigen::all, jr.cols);
    }
    if (jr.R.cols() > 0) jr.R.bottomRows(3) /= m.length_scale;  // a fixed joint has no columns
  }
  return rates;
}

// max |R N| over the joint's rows: its own columns only (1,100 small products on the ladder, not
// 1,100 with the whole 1,000 x 800 basis).
double rate_along(const JointRates& r, const MatX& N) {
  if (r.cols.empty() || N.cols() == 0) return 0.0;
  const MatX RN = r.R * N(r.cols, Eigen::all);
  return RN.cwiseAbs().maxCoeff();
}

// Names of joints whose relative motion is nonzero along some column of N.
std::vector<std::string> moving_joints(const Mechanism& m, const std::vector<JointRates>& rates,
                                       const MatX& N) {
  std::vector<std::string> out;
  if (N.cols() == 0) return out;
  for (std::size_t j = 0; j < rates.size(); ++j)
    if (rate_along(rates[j], N) > 1e-7) out.push_back(m.spec.joints[j].name);
  return out;
}

// Joints that move along some motion the constraints allow at q (couplings included), and the
// basis of those motions.
std::vector<std::string> mobile_joints(const Mechanism& m, const VecX& q, MatX* N_free = nullptr,
                                       std::vector<JointRates>* rates_out = nullptr) {
  const Model& model = m.model();
  Data data(model);
  forward_kinematics(model, data, q);
  MatX K;
  loop_jacobian(model, data, m.compiled.loops, K);
  K = loop_and_coupling_jacobian(m, data, K);  // a gear moves its two joints together
  std::vector<JointRates> rates = joint_rate_rows(m, data);
  const MatX N = null_space(K, model.nv);
  std::vector<std::string> mobile = moving_joints(m, rates, N);
  if (N_free) *N_free = N;
  if (rates_out) *rates_out = std::move(rates);
  return mobile;
}

// A configuration a small step away from q along the allowed motions, loops closed again (or q
// when the step does not assemble).
VecX nearby_configuration(const Mechanism& m, const VecX& q, const MatX& N_free) {
  const Model& model = m.model();
  const VecX v = N_free * VecX::Ones(N_free.cols());
  if (v.cwiseAbs().maxCoeff() < 1e-12) return q;
  VecX q1 = integrate(model, q, v * (0.02 / v.cwiseAbs().maxCoeff()), 1.0);
  Data data(model);
  const AssemblyResult r =
      assemble(model, data, m.compiled.loops, q1, std::vector<bool>(model.nv, false));
  return r.converged ? q1 : q;
}

void mobility_details(const Mechanism& m, SketchStatus& st) {
  const Model& model = m.model();
  MatX N_free;
  std::vector<JointRates> rates;
  std::vector<std::string> mobile = mobile_joints(m, m.q0, &N_free, &rates);
  // Hold every motion drive: its coordinate (tree) or its relative rotation/slide (loop) is fixed.
  // The motions left are those of the free basis the drives' rows D do not move: N_free times the
  // null space of D N_free, a few rows by the free motions, rather than a second SVD of the whole
  // loop Jacobian with D under it (half of a 1,000-body ladder's analysis).
  MatX D(0, model.nv);
  for (const DriveBinding& d : m.drives) {
    if (d.kind != DriveSpec::Kind::Motion) continue;
    D.conservativeResize(D.rows() + 1, Eigen::NoChange);
    if (d.v >= 0)
      D.row(D.rows() - 1) = Eigen::RowVectorXd::Unit(model.nv, d.v);
    else
      D.row(D.rows() - 1) = rates[d.user_joint].row(
          m.spec.joints[d.user_joint].joint.type == JointType::Prismatic ? 5 : 2, model.nv);
  }
  const MatX N_held = N_free.cols() == 0
                          ? N_free
                          : MatX(N_free * null_space(D * N_free, static_cast<int>(N_free.cols())));
  st.free_dof = static_cast<int>(N_held.cols());
  st.unconstrained = moving_joints(m, rates, N_held);
  // A joint at rest to first order at q0 (the rocker of a four-bar at its extreme, where a drive
  // may start) is not locked: locked joints are those that move in neither q0 nor a nearby
  // configuration.
  auto missing = [&] {
    for (const JointSpec& j : m.spec.joints)
      if (j.joint.nv() > 0 && std::find(mobile.begin(), mobile.end(), j.name) == mobile.end())
        return true;
    return false;
  };
  if (missing() && N_free.cols() > 0)
    for (const std::string& n : mobile_joints(m, nearby_configuration(m, m.q0, N_free)))
      if (std::find(mobile.begin(), mobile.end(), n) == mobile.end()) mobile.push_back(n);
  for (const JointSpec& j : m.spec.joints)
    if (j.joint.nv() > 0 && std::find(mobile.begin(), mobile.end(), j.name) == mobile.end())
      st.locked.push_back(j.name);
}

MechanismSpec connected_part(const MechanismSpec& spec, const std::vector<bool>& keep) {
  MechanismSpec sub = spec;
  sub.bodies.clear();
  sub.joints.clear();
  sub.forces.clear();
  auto kept = [&](const std::string& n) {
    return n == "ground" || (spec.body_index(n) >= 0 && keep[spec.body_index(n)]);
  };
  for (std::size_t b = 0; b < spec.bodies.size(); ++b)
    if (keep[b]) sub.bodies.push_back(spec.bodies[b]);
  for (const JointSpec& j : spec.joints)
    if (kept(j.parent) && kept(j.child)) sub.joints.push_back(j);
  for (const ForceSpec& f : spec.forces)
    if (kept(f.body1) && kept(f.body2)) sub.forces.push_back(f);
  sub.couplings.clear();  // those on joints of the grounded part
  for (const CouplingSpec& c : spec.couplings)
    if (sub.joint_index(c.joints[0]) >= 0 && sub.joint_index(c.joints[1]) >= 0)
      sub.couplings.push_back(c);
  return sub;
}
}  // namespace

Analysis analyse(const MechanismSpec& spec, AnalysisDepth depth) {
  Analysis out;
  SketchStatus& st = out.status;
  st.bodies = static_cast<int>(spec.bodies.size());
  st.joints = static_cast<int>(spec.joints.size());
  for (const JointSpec& j : spec.joints) st.drives += j.drive.has_value();
  const std::vector<bool> keep = spec.grounded_bodies();
  for (std::size_t b = 0; b < keep.size(); ++b)
    if (!keep[b]) st.disconnected.push_back(spec.bodies[b].name);
  const MechanismSpec sub = connected_part(spec, keep);
  if (sub.bodies.empty()) {
    st.analysed = true;
    return out;
  }
  try {
    auto m = std::make_shared<Mechanism>(prepare(sub));
    st.analysed = true;
    st.dof = m->mobility.mobility;
    st.gruebler = m->gruebler;
    st.planar = m->planar;
    st.loops = static_cast<int>(m->compiled.loops.size());
    st.redundant = m->mobility.redundant;
    st.planar_redundant = st.planar ? std::max(0, st.dof - st.gruebler) : st.redundant;
    if (!st.planar || st.planar_redundant > 0) st.redundant_joints = m->redundant_joints();
    st.assembly_residual = m->assembly.residual;
    if (depth == AnalysisDepth::Full)
      mobility_details(*m, st);
    else
      st.details_pending = true;
    if (st.disconnected.empty()) out.mechanism = m;
    out.grounded = std::move(m);
  } catch (const std::exception& e) {
    st.problem = e.what();
  }
  return out;
}

void complete_status(const Mechanism& grounded, SketchStatus& status) {
  if (!status.details_pending) return;
  status.unconstrained.clear();
  status.locked.clear();
  status.details_pending = false;
  try {
    mobility_details(grounded, status);
  } catch (const std::exception& e) {  // as the full analysis would have reported it
    status.problem = e.what();
  }
}

std::string SketchStatus::summary() const {
  std::ostringstream os;
  if (bodies == 0) return "Empty sketch: place ground pivots and draw links";
  if (!problem.empty()) return "Cannot assemble: " + problem;
  os << dof << (dof == 1 ? " DOF" : " DOF") << " (Grübler " << gruebler << ")";
  os << " · " << loops << (loops == 1 ? " loop" : " loops");
  if (planar_redundant > 0) os << " · " << planar_redundant << " redundant";
  if (drives > 0) os << " · " << drives << (drives == 1 ? " drive" : " drives");
  if (!disconnected.empty()) os << " · " << disconnected.size() << " not connected to ground";
  return os.str();
}

}  // namespace articula
