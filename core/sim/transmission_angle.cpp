#include "core/sim/transmission_angle.hpp"

#include <cmath>

namespace articula {

namespace {
// Bodies from b up to (not including) the ancestor `stop`, b first.
std::vector<int> path_up(const Model& model, int b, int stop) {
  std::vector<int> out;
  for (; b != stop && b > 0; b = model.parent[b]) out.push_back(b);
  return out;
}

int common_ancestor(const Model& model, int a, int b) {
  std::vector<bool> mark(model.nb + 1, false);
  for (int i = a; i >= 0; i = model.parent[i]) mark[i] = true;
  for (int i = b; i >= 0; i = model.parent[i])
    if (mark[i]) return i;
  return 0;
}

// The user joint whose loop joint is `loop`.
std::string loop_joint_name(const Mechanism& mech, int loop) {
  for (std::size_t j = 0; j < mech.compiled.joint_map.size(); ++j)
    if (mech.compiled.joint_map[j].loop && mech.compiled.joint_map[j].index == loop)
      return mech.spec.joints[j].name;
  return mech.compiled.loops[loop].name;
}
}  // namespace

std::vector<TransmissionLoop> transmission_loops(const Mechanism& mech) {
  std::vector<TransmissionLoop> out;
  if (!mech.planar) return out;
  const Model& model = mech.model();
  for (std::size_t l = 0; l < mech.compiled.loops.size(); ++l) {
    const LoopJoint& lj = mech.compiled.loops[l];
    if (lj.joint.type != JointType::Revolute) continue;
    const int c = common_ancestor(model, lj.predecessor, lj.successor);
    const std::vector<int> up_p = path_up(model, lj.predecessor, c);
    const std::vector<int> up_s = path_up(model, lj.successor, c);
    if (up_p.size() + up_s.size() != 3) continue;  // L and three tree joints
    bool revolute = true;
    for (const std::vector<int>* path : {&up_p, &up_s})
      for (int b : *path) revolute = revolute && model.joints[b].type == JointType::Revolute;
    if (!revolute) continue;
    // A body of L that is the common ancestor meets the cycle at its child on the other path.
    TransmissionLoop t;
    t.loop = static_cast<int>(l);
    t.joint = loop_joint_name(mech, t.loop);
    t.body_p = up_p.empty() ? up_s.back() : up_p.front();
    t.body_s = up_s.empty() ? up_p.back() : up_s.front();
    out.push_back(t);
  }
  return out;
}

double transmission_angle(const Mechanism& mech, const Data& data, const TransmissionLoop& t) {
  const LoopJoint& lj = mech.compiled.loops[t.loop];
  const Transform& Xp = data.X0[lj.predecessor];
  const Vec3 at = Xp.r + Xp.E.transpose() * lj.X_P.r;  // the loop joint's origin (world)
  const Vec3 u = data.X0[t.body_p].r - at, v = data.X0[t.body_s].r - at;
  return std::atan2(u.cross(v).norm(), u.dot(v));
}

}  // namespace articula
