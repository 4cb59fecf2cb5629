#include "core/spec/compile.hpp"

#include <algorithm>
#include <deque>

namespace articula {

namespace {
constexpr int kGround = -1;

int user_index(const MechanismSpec& spec, const std::string& name) {
  if (name == "ground") return kGround;
  const int i = spec.body_index(name);
  if (i < 0) throw std::invalid_argument("unknown body '" + name + "'");
  return i;
}

// Depth of each user body from ground over the undirected joint graph (breadth-first search).
std::vector<int> body_depths(const MechanismSpec& spec,
                             const std::vector<std::pair<int, int>>& ends) {
  std::vector<int> depth(spec.bodies.size(), -1);
  std::deque<int> queue{kGround};
  auto depth_of = [&](int b) { return b == kGround ? 0 : depth[b]; };
  while (!queue.empty()) {
    const int b = queue.front();
    queue.pop_front();
    for (const auto& [p, c] : ends) {
      const int other = p == b ? c : (c == b ? p : -2);
      if (other < 0 || depth[other] >= 0) continue;
      depth[other] = depth_of(b) + 1;
      queue.push_back(other);
    }
  }
  return depth;
}

// For each body, the joint that attaches it to a body one level nearer ground. Motion-driven
// joints (then joints with springs) are preferred, so that they sit on tree joints whenever the
// minimum depth allows.
std::vector<int> choose_tree_joints(const MechanismSpec& spec,
                                    const std::vector<std::pair<int, int>>& ends,
                                    const std::vector<int>& depth) {
  auto depth_of = [&](int b) { return b == kGround ? 0 : depth[b]; };
  std::vector<int> tree_joint(spec.bodies.size(), -1);
  for (std::size_t b = 0; b < spec.bodies.size(); ++b) {
    for (std::size_t j = 0; j < ends.size(); ++j) {
      const auto [p, c] = ends[j];
      const int other = p == static_cast<int>(b) ? c : (c == static_cast<int>(b) ? p : -2);
      if (other == -2 || depth_of(other) != depth[b] - 1) continue;
      auto preference = [&](int joint) {  // drives, then springs, are best kept on the tree
        const JointSpec& js = spec.joints[joint];
        return 2 * js.drive.has_value() + js.spring.has_value();
      };
      if (tree_joint[b] < 0 || preference(static_cast<int>(j)) > preference(tree_joint[b]))
        tree_joint[b] = static_cast<int>(j);
    }
  }
  return tree_joint;
}

RigidBodyInertia user_inertia(const BodySpec& b) {
  return RigidBodyInertia::from_mass_com(b.mass, b.com, b.inertia_matrix());
}
}  // namespace

namespace {
// Joint ends as user body indices (kGround for ground), per joint.
using JointEnds = std::vector<std::pair<int, int>>;

// The spanning tree's bodies, level by level (in file order within a level, so parents precede
// children), each with the joint that attaches it.
void add_tree_bodies(const MechanismSpec& spec, const JointEnds& ends,
                     const std::vector<int>& depth, const std::vector<int>& tree_joint,
                     CompiledMechanism& m) {
  const int nbodies = static_cast<int>(spec.bodies.size());
  std::vector<int> order(nbodies);
  for (int b = 0; b < nbodies; ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return depth[a] < depth[b]; });
  ModelBuilder builder;
  builder.set_gravity(spec.gravity);
  for (int b : order) {
    const int j = tree_joint[b];
    const JointSpec& js = spec.joints[j];
    const bool reversed = ends[j].first == b;  // the user's parent is farther from ground
    const int tree_parent = reversed ? ends[j].second : ends[j].first;
    const PoseSpec& pred_frame = reversed ? js.child_frame : js.parent_frame;
    const PoseSpec& succ_frame = reversed ? js.parent_frame : js.child_frame;
    const int parent_model = tree_parent == kGround ? 0 : m.model_body[tree_parent];
    Joint joint = js.joint;
    joint.reversed = reversed;
    const Transform X_body = succ_frame.transform();  // ^{joint frame} X_{body}
    const Transform X_T = pred_frame.transform() * m.X_body[parent_model].inverse();
    const int i = builder.add_body(spec.bodies[b].name, parent_model, joint, X_T,
                                   apply(X_body, user_inertia(spec.bodies[b])), js.name);
    m.model_body[b] = i;
    m.user_body.push_back(b);
    m.X_body.push_back(X_body);
    m.joint_map[j] = {false, i};
  }
  m.model = builder.build();
}

// Every joint not in the tree closes a loop (RBDA 8.1): its frames move to the model bodies'.
void add_loop_joints(const MechanismSpec& spec, const JointEnds& ends,
                     const std::vector<int>& tree_joint, CompiledMechanism& m) {
  auto model_of = [&](int user) { return user == kGround ? 0 : m.model_body[user]; };
  std::vector<bool> in_tree(spec.joints.size(), false);
  for (int j : tree_joint) in_tree[j] = true;
  for (std::size_t j = 0; j < spec.joints.size(); ++j) {
    if (in_tree[j]) continue;
    const JointSpec& js = spec.joints[j];
    LoopJoint l;
    l.name = js.name;
    l.joint = js.joint;
    l.predecessor = model_of(ends[j].first);
    l.successor = model_of(ends[j].second);
    l.X_P = js.parent_frame.transform() * m.X_body[l.predecessor].inverse();
    l.X_S = js.child_frame.transform() * m.X_body[l.successor].inverse();
    l.row = m.nc;
    m.nc += l.joint.nc();
    m.joint_map[j] = {true, static_cast<int>(m.loops.size())};
    m.loops.push_back(l);
  }
}
}  // namespace

CompiledMechanism compile(const MechanismSpec& spec) {
  const int nbodies = static_cast<int>(spec.bodies.size());
  JointEnds ends;
  for (const JointSpec& j : spec.joints)
    ends.emplace_back(user_index(spec, j.parent), user_index(spec, j.child));
  const std::vector<int> depth = body_depths(spec, ends);
  for (int b = 0; b < nbodies; ++b)
    if (depth[b] < 0)
      throw std::invalid_argument("body '" + spec.bodies[b].name + "' is not connected to ground");
  const std::vector<int> tree_joint = choose_tree_joints(spec, ends, depth);
  CompiledMechanism m;
  m.model_body.assign(nbodies, -1);
  m.user_body = {-1};
  m.X_body = {Transform()};
  m.joint_map.assign(spec.joints.size(), {});
  add_tree_bodies(spec, ends, depth, tree_joint, m);
  add_loop_joints(spec, ends, tree_joint, m);
  return m;
}

void initial_guess(const MechanismSpec& spec, const CompiledMechanism& mech, VecX& q, VecX& qd) {
  const Model& model = mech.model;
  q.resize(model.nq);
  qd = VecX::Zero(model.nv);
  // World pose of each model body frame as sketched (ground = world).
  std::vector<const PoseSpec*> pose(model.nb + 1, nullptr);
  for (int i = 1; i <= model.nb; ++i) {
    const auto& p = spec.bodies[mech.user_body[i]].pose;
    pose[i] = p ? &*p : nullptr;
  }
  for (std::size_t j = 0; j < spec.joints.size(); ++j) {
    const JointMapping& map = mech.joint_map[j];
    if (map.loop) continue;
    const int i = map.index;
    const Joint& joint = model.joints[i];
    double* qi = q.data() + model.q_index[i];
    const JointSpec& js = spec.joints[j];
    joint_neutral(joint, qi);
    if (js.q0) {
      for (int k = 0; k < joint.nq(); ++k) qi[k] = (*js.q0)[k];
      joint_normalize(joint, qi);
    } else {
      const int p = model.parent[i];
      const bool have_parent = p == 0 || pose[p];
      if (pose[i] && have_parent) {
        // ^{model i}X_0 from the sketch, and likewise for the parent; X_J = X_i X_p^-1 X_T^-1.
        auto world_to_model = [&](int b) {
          return b == 0 ? Transform() : mech.X_body[b] * pose[b]->transform();
        };
        Transform XJ = world_to_model(i) * world_to_model(p).inverse() * model.X_tree[i].inverse();
        if (joint.reversed) XJ = XJ.inverse();
        joint_coordinates(joint, XJ, qi);
      }
    }
    if (js.qd0)
      for (int k = 0; k < joint.nv(); ++k) qd[model.v_index[i] + k] = (*js.qd0)[k];
  }
}

}  // namespace articula
