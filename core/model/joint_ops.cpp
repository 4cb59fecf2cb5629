#include "core/model/joint_ops.hpp"

#include <Eigen/Cholesky>

namespace articula {

void solve_subspace_normal(const Mat6X& S, const VecN& b, double* y) {
  const int n = static_cast<int>(S.cols());
  if (n == 1) {
    y[0] = b[0] / S.col(0).squaredNorm();
  } else if (n == 2) {  // revolute-prismatic pairs and universal joints: Cramer's rule
    const double a = S.col(0).squaredNorm(), c = S.col(1).squaredNorm(), o = S.col(0).dot(S.col(1));
    const double det = a * c - o * o;
    y[0] = (c * b[0] - o * b[1]) / det;
    y[1] = (a * b[1] - o * b[0]) / det;
  } else {
    const MatN G = S.transpose() * S;
    Eigen::Map<VecN>(y, n) = G.llt().solve(b);
  }
}

}  // namespace articula
