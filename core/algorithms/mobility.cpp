#include "core/algorithms/mobility.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>

namespace articula {

namespace {
// Whether constraint row `local` of a loop joint is a translation row (T column with a linear
// part).
bool is_translation_row(const LoopJoint& l, int local) {
  switch (l.joint.type) {
    case JointType::Fixed:
      return local >= 3;
    case JointType::Revolute:
      return local >= 2;
    case JointType::Prismatic:
      return local >= 3;
    case JointType::Cylindrical:
      return local >= 2;
    case JointType::Helical:
      return local >= 2;
    case JointType::Universal:
      return local >= 1;
    case JointType::Spherical:
      return true;
    case JointType::Planar:
      return local >= 2;
    case JointType::Free:
      return false;
  }
  return false;
}

// Rows of A whose largest entry exceeds rel times A's largest entry, in order.
std::vector<Eigen::Index> rows_above_round_off(const MatX& A, double rel) {
  const VecX row_max =
      A.rows() && A.cols() ? VecX(A.cwiseAbs().rowwise().maxCoeff()) : VecX::Zero(A.rows());
  const double largest = row_max.size() ? row_max.maxCoeff() : 0.0;
  std::vector<Eigen::Index> rows;
  for (Eigen::Index r = 0; r < A.rows(); ++r)
    if (row_max[r] > rel * largest) rows.push_back(r);
  return rows;
}
}  // namespace

const LoopJoint& loop_of_row(const std::vector<LoopJoint>& loops, int r, int* local_row) {
  for (const LoopJoint& l : loops)
    if (r >= l.row && r < l.row + l.joint.nc()) {
      if (local_row) *local_row = r - l.row;
      return l;
    }
  return loops.front();
}

MobilityReport mobility(const Model& model, const std::vector<LoopJoint>& loops, const MatX& K,
                        double length_scale) {
  MobilityReport rep;
  rep.coordinates = model.nv;
  rep.constraint_rows = static_cast<int>(K.rows());
  if (K.rows() == 0) {
    rep.mobility = model.nv;
    return rep;
  }
  MatX Ks = K;
  const int loop_rows = constraint_rows(loops);  // rows below these (couplings) are kept as given
  for (int r = 0; r < loop_rows; ++r) {
    int local = 0;
    if (is_translation_row(loop_of_row(loops, r, &local), local)) Ks.row(r) /= length_scale;
  }
  // Rows zero to round-off (a planar loop's out-of-plane rows: half the rows of a planar
  // mechanism) add no rank and are never among the independent rows; the SVD and the QR, both
  // O(rows^2 nv), run on the others (a quarter of the cost on a planar mechanism). Leaving out
  // rows whose entries are at most 1e-14 of K's largest moves the singular values by at most
  // sqrt(rows nv) 1e-14 σ_max (Weyl; 8e-12 σ_max at 600 x 1,000), inside the tolerance 1e-9 σ_max.
  const std::vector<Eigen::Index> kept = rows_above_round_off(Ks, 1e-14);
  const MatX Kn = Ks(kept, Eigen::all);
  // Divide and conquer: Jacobi's singular values to round-off, a fraction of its time on large
  // loop Jacobians (1,000-body ladder: 500 x 1,000); Eigen uses Jacobi itself below 16 columns.
  VecX s;
  if (Kn.rows() > 0) s = Eigen::BDCSVD<MatX>(Kn).singularValues();
  rep.tolerance = 1e-9 * std::max(1.0, s.size() ? s(0) : 0.0);
  for (int i = 0; i < s.size(); ++i)
    if (s(i) > rep.tolerance) {
      ++rep.rank;
      rep.smallest_kept = s(i);
    }
  rep.mobility = model.nv - rep.rank;
  rep.redundant = rep.constraint_rows - rep.rank;
  // Column pivoting on K^T picks a maximal set of independent rows; the others are redundant.
  std::vector<bool> independent(K.rows(), false);
  if (rep.rank == static_cast<int>(kept.size())) {  // every kept row is independent: no QR
    for (Eigen::Index r : kept) independent[r] = true;
  } else {
    Eigen::ColPivHouseholderQR<MatX> qr(Kn.transpose());
    for (int i = 0; i < rep.rank; ++i) independent[kept[qr.colsPermutation().indices()(i)]] = true;
  }
  for (int r = 0; r < K.rows(); ++r)
    if (!independent[r]) rep.redundant_rows.push_back(r);
  return rep;
}

int gruebler_count(const Model& model, const std::vector<LoopJoint>& loops, bool planar) {
  const int d = planar ? 3 : 6;
  int count = d * model.nb;
  auto freedoms = [&](const Joint& j) {
    if (!planar) return j.nv();
    // In the plane: revolute and prismatic keep one freedom, planar three.
    return j.type == JointType::Planar ? 3 : std::min(j.nv(), 1);
  };
  for (int i = 1; i <= model.nb; ++i) count -= d - freedoms(model.joints[i]);
  for (const LoopJoint& l : loops) count -= d - freedoms(l.joint);
  return count;
}

}  // namespace articula
