#pragma once
// Two mechanisms that should be the same (one read back from an exchange file): their mass
// matrices and inverse dynamics at corresponding random states, joint by joint (by name).
#include <functional>
#include <random>

#include "core/algorithms/crba.hpp"
#include "core/algorithms/rnea.hpp"
#include "core/model/configuration.hpp"
#include "core/model/data.hpp"
#include "core/sim/mechanism.hpp"

namespace articula::test {

// Maps a tree joint's coordinates in A to B's (an exchange file may move a joint's zero).
using CoordinateMap = std::function<void(const JointSpec& joint, const double* qa, double* qb)>;

inline void same_coordinates(const JointSpec& j, const double* qa, double* qb) {
  std::copy(qa, qa + j.joint.nq(), qb);
}

// The SDF exporter writes A at its assembled state q*, which becomes B's zero: 1-DoF and
// universal coordinates shift by q*, a spherical joint's rotation by R(q*)^-1.
inline CoordinateMap shifted_by(const Mechanism& a) {
  return [&a](const JointSpec& j, const double* qa, double* qb) {
    const double* qs = a.q0.data() + a.compiled.q_index(a.spec.joint_index(j.name));
    if (j.joint.type == JointType::Spherical) {
      const Quat r =
          Quat(qs[0], qs[1], qs[2], qs[3]).conjugate() * Quat(qa[0], qa[1], qa[2], qa[3]);
      qb[0] = r.w(), qb[1] = r.x(), qb[2] = r.y(), qb[3] = r.z();
      return;
    }
    for (int k = 0; k < j.joint.nq(); ++k) qb[k] = qa[k] - qs[k];
  };
}

struct DynamicsDifference {
  double H = 0, tau = 0;  // max differences relative to max |H| and max(1, max |tau|)
  int tree_joints = 0;    // compared
};

inline DynamicsDifference compare_dynamics(const Mechanism& a, const Mechanism& b,
                                           const CoordinateMap& map, unsigned seed = 5) {
  std::mt19937 rng(seed);
  const Model &ma = a.model(), &mb = b.model();
  const VecX qa = random_configuration(ma, rng);
  std::uniform_real_distribution<double> u(-1, 1);
  VecX qda(ma.nv), qdda(ma.nv);
  for (int k = 0; k < ma.nv; ++k) qda[k] = u(rng), qdda[k] = u(rng);
  VecX qb = random_configuration(mb, rng), qdb = VecX::Zero(mb.nv), qddb = VecX::Zero(mb.nv);
  std::vector<std::pair<int, int>> v;  // (A, B) velocity indices
  DynamicsDifference d;
  for (std::size_t j = 0; j < a.spec.joints.size(); ++j) {
    const JointSpec& js = a.spec.joints[j];
    const int jb = b.spec.joint_index(js.name);
    if (a.compiled.joint_map[j].loop || jb < 0 || b.compiled.joint_map[jb].loop) continue;
    ++d.tree_joints;
    map(js, qa.data() + a.compiled.q_index(j), qb.data() + b.compiled.q_index(jb));
    for (int k = 0; k < js.joint.nv(); ++k) {
      const int ia = a.compiled.v_index(j) + k, ib = b.compiled.v_index(jb) + k;
      v.push_back({ia, ib});
      qdb[ib] = qda[ia];
      qddb[ib] = qdda[ia];
    }
  }
  Data da(ma), db(mb);
  const MatX Ha = crba(ma, da, qa), Hb = crba(mb, db, qb);
  const VecX ta = rnea(ma, da, qa, qda, qdda), tb = rnea(mb, db, qb, qdb, qddb);
  const double hs = std::max(Ha.cwiseAbs().maxCoeff(), 1e-300);
  const double ts = std::max(1.0, ta.cwiseAbs().maxCoeff());
  for (auto [ia, ib] : v) {
    d.tau = std::max(d.tau, std::abs(ta[ia] - tb[ib]) / ts);
    for (auto [ka, kb] : v) d.H = std::max(d.H, std::abs(Ha(ia, ka) - Hb(ib, kb)) / hs);
  }
  if (static_cast<int>(v.size()) != ma.nv || ma.nv != mb.nv)
    d.H = d.tau = 1.0;  // not the same tree
  return d;
}

}  // namespace articula::test
