#pragma once
// Degrees of freedom of a closed-loop mechanism by the rank of the loop Jacobian K, with the
// redundant constraint rows identified (RBDA 8.2: K may have dependent rows).
#include <vector>

#include "core/model/loop_joint.hpp"
#include "core/model/model.hpp"

namespace articula {

struct MobilityReport {
  int coordinates = 0;              // nv of the spanning tree
  int constraint_rows = 0;          // rows of K
  int rank = 0;                     // rank of K
  int mobility = 0;                 // nv - rank
  int redundant = 0;                // rows - rank
  std::vector<int> redundant_rows;  // rows of K dependent on the others
  double tolerance = 0.0;           // singular values below this count as zero
  double smallest_kept = 0.0;       // smallest singular value counted as nonzero (gap diagnostics)
};

// K may have rows below the loop rows (joint couplings, one per row): they take part in the rank
// unscaled. Rank by SVD of K with translation rows scaled by 1/length_scale, so that rows in metres
// and rows in radians are comparable; tolerance = 1e-9 × max(1, σ_max). Redundant rows are those
// left out by a column-pivoted QR of K^T (the rows it finds independent, taken greedily).
MobilityReport mobility(const Model& model, const std::vector<LoopJoint>& loops, const MatX& K,
                        double length_scale = 1.0);

// Grübler-Kutzbach count: 6 (bodies) - Σ (6 - f) over all joints, or the planar 3 (bodies) -
// Σ (3 - f) when planar is true (all joints are planar-compatible about parallel z axes).
int gruebler_count(const Model& model, const std::vector<LoopJoint>& loops, bool planar);

// Which loop joint owns constraint row r, and which of its rows it is.
const LoopJoint& loop_of_row(const std::vector<LoopJoint>& loops, int r, int* local_row = nullptr);

}  // namespace articula
