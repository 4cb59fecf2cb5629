#include "core/sim/loop_method.hpp"

#include <algorithm>

#include "core/algorithms/kinematics.hpp"
#include "core/sim/embedding/aggregation.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

namespace {
// Instructions per predicted operation of the sparse method (callgrind on the samples and the
// ladders: 6.6-9.1), and the margin by which it must win: Method 2 reveals rank and copes with
// singular configurations, so near a tie it is kept.
constexpr double kSparseCostPerFlop = 8.5;
constexpr double kSparseMargin = 0.85;
// Instructions per body and solved row of the operator solver's Λ^-1 (two passes of 30-50
// scalar operations each at a 1-DoF joint, with the loads of the factors), and per body of its
// kinematics and ABA as Method 2's: estimates, not yet fitted by callgrind, on the high side so
// that auto keeps Method 2 and the sparse method on every sample.
constexpr double kOperatorPerBodyRow = 100.0;
constexpr double kOperatorPerBody = 4200.0;
// The embedding's RK4 step per body (four position solves of 1-2 Newton iterations, four
// accelerations with their kinematics and embedded ABA), per constraint row and coordinate (the
// dense rows G and J, rows x n, zeroed and formed at every stage and iteration) and per n_S³ of
// a node (its Y₁ and M̃_S factors): fitted to the simulated second (1 ms) of the four-bar chains
// of 20 and 80 modules (121 and 865 ms/s RK4, 2026-11-27, session 20) at 19 000 instructions a
// microsecond (kEmbeddingPerBody's earlier fit on chain80); the passive Stewart platform's
// 59 ms/s is predicted to 3 %.
constexpr double kEmbeddingPerBody = 27800.0;
constexpr double kEmbeddingPerRowCoordinate = 76.0;
constexpr double kEmbeddingPerNodeCube = 80.0;
// The embedding's step beyond its stages (the step's closing solve and the singularity watch),
// in stages: its Euler step over its RK4 step is (1 + x) / (4 + x), 0.29-0.30 in the bench.
constexpr double kEmbeddingStepOverhead = 0.3;

// Evaluations per step: RK4's four, Euler's one, Dormand-Prince's six new ones (FSAL).
double stages(Integrator integrator) {
  switch (integrator) {
    case Integrator::Euler:
      return 1.0;
    case Integrator::RK45:
      return 6.0;
    case Integrator::RK4:
      break;
  }
  return 4.0;
}
}  // namespace

double embedding_step_cost(const Mechanism& m, Integrator integrator) {
  const Model& model = m.model();
  double cubes = 0.0;
  for (const EmbeddingNode& n : aggregate(m).nodes) {
    double ns = 0.0;
    for (int b : n.bodies) ns += model.joints[b].nv();
    cubes += ns * ns * ns;
  }
  const double rows_by_n = static_cast<double>(constraint_rows(m.compiled.loops)) * model.nv;
  const double rk4 = kEmbeddingPerBody * model.nb + kEmbeddingPerRowCoordinate * rows_by_n +
                     kEmbeddingPerNodeCube * cubes;
  return rk4 * (stages(integrator) + kEmbeddingStepOverhead) /
         (stages(Integrator::RK4) + kEmbeddingStepOverhead);
}

bool prefer_embedding(const Mechanism& m, int rows, int solved_rows, Integrator integrator) {
  if (rows == 0) return false;
  // The others' step: its evaluations and a projection onto the loops, whose dense solve in the
  // rows (as Method 2's G H⁻¹ Gᵀ) grows as rows² n and dominates long chains of loops.
  const double me = solved_rows, n = m.model().nv;
  const double projection = 12.3 * (me * me * n + me * me * me / 3);
  double call = std::min(method2_cost(m.model(), rows, solved_rows),
                         operator_cost(m.model(), rows, solved_rows));
  if (m.sparse) call = std::min(call, kSparseCostPerFlop * m.sparse->flops);
  return embedding_step_cost(m, integrator) < 0.5 * (stages(integrator) * call + projection);
}

double operator_cost(const Model& model, int rows, int solved_rows) {
  double depth_sum = 0.0;  // the dense rows span the paths to the base, as in Method 2
  for (int i = 1; i <= model.nb; ++i)
    for (int k = i; k > 0; k = model.parent[k]) depth_sum += 1.0;
  const double m = rows, me = solved_rows;
  return kOperatorPerBody * model.nb + 2.95 * m * depth_sum + kOperatorPerBodyRow * me * model.nb +
         12.3 * me * me * me / 3;
}

bool prefer_operator(const Mechanism& m, int rows, int solved_rows) {
  if (rows == 0) return false;
  const double op = operator_cost(m.model(), rows, solved_rows);
  double other = method2_cost(m.model(), rows, solved_rows);
  if (m.sparse) other = std::min(other, kSparseCostPerFlop * m.sparse->flops);
  return op < 0.5 * other;
}

std::shared_ptr<const SparseDynamicsModel> sparse_dynamics_model(const Mechanism& m) {
  if (!m.has_loops()) return nullptr;
  const Model& model = m.model();
  std::vector<int> driven_bodies, driven_loops;
  for (const DriveBinding& d : m.drives) {
    if (d.kind != DriveSpec::Kind::Motion) continue;
    const JointMapping& map = m.compiled.joint_map[d.user_joint];
    (map.loop ? driven_loops : driven_bodies).push_back(map.index);
  }
  Data data(model);
  forward_kinematics_bias(model, data, m.q0, m.qd0);
  auto sm = std::make_shared<SparseDynamicsModel>();
  if (!prepare_sparse_dynamics(model, data, m.compiled.loops, driven_bodies, driven_loops, m.planar,
                               *sm))
    return nullptr;
  return sm;
}

std::shared_ptr<const SparseDynamicsModel> select_loop_method(const Mechanism& m) {
  if (!m.couplings.empty()) return nullptr;  // couplings have no body-level form (RBDA 8.13)
  auto sm = sparse_dynamics_model(m);
  if (!sm) return nullptr;
  const int drives = sm->tree_drives + sm->loop_drives;
  int solved = drives;  // planar loops: Method 2 drops the structurally zero out-of-plane rows
  for (const LoopJoint& l : m.compiled.loops) solved += m.planar ? 3 - l.joint.nv() : l.joint.nc();
  const double method2 =
      method2_cost(m.model(), constraint_rows(m.compiled.loops) + drives, solved);
  return kSparseCostPerFlop * sm->flops < kSparseMargin * method2 ? sm : nullptr;
}

}  // namespace articula
