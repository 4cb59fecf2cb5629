#pragma once
// Recompiling the edited specification after every change, and the status a user needs while
// sketching: degrees of freedom (by rank of the loop Jacobian and by Grübler-Kutzbach), loops,
// redundant constraints, joints that move with every drive held (unconstrained), joints that
// cannot move at all (locked) and loop joints owning redundant rows (over-constrained).
// An incomplete sketch (no bodies, a link not connected to ground, loops that do not close) is a
// normal state: the status says what is missing and there is simply no mechanism to simulate.
#include <memory>
#include <string>
#include <vector>

#include "core/sim/mechanism.hpp"

namespace articula {

struct SketchStatus {
  int bodies = 0, joints = 0, drives = 0;
  std::vector<std::string> disconnected;  // bodies with no chain of joints to ground
  bool analysed = false;                  // the connected part compiled and assembled
  std::string problem;  // why not (or why the mechanism cannot be simulated), "" if fine
  int dof = 0;          // by rank of K, of the connected part
  int gruebler = 0;     // Grübler-Kutzbach count (planar form for planar mechanisms)
  bool planar = false;
  int loops = 0;
  int redundant = 0;  // constraint rows dependent on the others (spatial count)
  // For planar mechanisms, redundancy within the plane: dof - planar Grübler (out-of-plane rows
  // of planar loops are always dependent and not the user's concern).
  int planar_redundant = 0;
  std::vector<std::pair<std::string, int>> redundant_joints;  // over-constrained loop joints
  // (spatial mechanisms, or planar ones with in-plane redundancy)
  std::vector<std::string> unconstrained;  // move with every motion drive held
  std::vector<std::string> locked;         // cannot move at all
  int free_dof = 0;  // dof left when the motion drives are held (0 = fully driven)
  double assembly_residual = 0.0;
  // The joint lists above (unconstrained, locked) and free_dof are still to be computed: the
  // analysis was asked for without them (AnalysisDepth::Counts) and complete_status fills them.
  bool details_pending = false;

  bool ready() const { return analysed && problem.empty() && disconnected.empty() && bodies > 0; }
  std::string summary() const;  // one line: "1 DOF (Grübler 1) · 1 loop · …"
};

struct Analysis {
  std::shared_ptr<const Mechanism> mechanism;  // null unless the whole sketch is ready
  // The part connected to ground whenever it prepares: the whole mechanism when it is ready,
  // else what the editor simulates while links are still floating (as the CLI does).
  std::shared_ptr<const Mechanism> grounded;
  SketchStatus status;
};

// Full: everything above. Counts: all but the mobility details (which joints are unconstrained
// or locked, free_dof), the costly part on a large mechanism (null spaces of the loop Jacobian:
// 0.54 s of a 1,000-body ladder's 0.70 s), so that an editor can show the mechanism first and
// complete the status afterwards, off its GUI thread.
enum class AnalysisDepth { Full, Counts };

Analysis analyse(const MechanismSpec& spec, AnalysisDepth depth = AnalysisDepth::Full);

// Fills the mobility details of a status analysed with AnalysisDepth::Counts from its grounded
// mechanism (Analysis::grounded); reads only the mechanism, so it may run on another thread.
void complete_status(const Mechanism& grounded, SketchStatus& status);

}  // namespace articula
