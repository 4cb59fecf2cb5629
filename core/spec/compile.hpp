#pragma once
// Compiling a MechanismSpec into a Model: the joint graph, a minimum-depth spanning tree rooted at
// ground (RBDA 10.2: sensitivity grows with depth), loop joints for the rest (RBDA 4.2, 8.1), and
// the mapping from the user's bodies and joints to model bodies and coordinates.
#include <stdexcept>
#include <vector>

#include "core/model/loop_joint.hpp"
#include "core/model/model.hpp"
#include "core/spec/mechanism_spec.hpp"

namespace articula {

// Where a user joint ended up.
struct JointMapping {
  bool loop = false;
  int index = 0;  // model body whose tree joint it is, or index into CompiledMechanism::loops
};

struct CompiledMechanism {
  Model model;                          // the spanning tree
  std::vector<LoopJoint> loops;         // loop joints, rows assigned consecutively
  int nc = 0;                           // loop constraint rows
  std::vector<JointMapping> joint_map;  // per user joint (file order)
  std::vector<int> model_body;          // per user body: model body index
  std::vector<int> user_body;           // per model body: user body index (-1 for ground)
  // Per model body: ^{model frame} X_{user body frame}. A model body's frame is the successor
  // frame of its tree joint, so this is the joint frame's pose in the user's body (or its inverse).
  std::vector<Transform> X_body;

  // q/v segment of a user tree joint (nq/nv are the joint's own).
  int q_index(int user_joint) const { return model.q_index[joint_map[user_joint].index]; }
  int v_index(int user_joint) const { return model.v_index[joint_map[user_joint].index]; }
};

// Throws std::invalid_argument naming the body or joint when the graph is unusable (a body not
// connected to ground, an unknown body name).
CompiledMechanism compile(const MechanismSpec& spec);

// Starting coordinates for assembly: from q0 where given, else from the sketched body poses,
// else neutral. Velocities from qd0 where given, else zero.
void initial_guess(const MechanismSpec& spec, const CompiledMechanism& mech, VecX& q, VecX& qd);

}  // namespace articula
