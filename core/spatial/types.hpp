#pragma once
// Fixed-size Eigen aliases shared by the whole core. Spatial vectors are angular first (RBDA 2.3).
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace articula {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

// A motion subspace S (6 x nv, nv <= 6) without heap allocation.
using Mat6X = Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;
// Small joint-space blocks (nv x nv, nv <= 6), e.g. D_i of ABA.
using MatN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;
using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;

// Spatial motion vectors (M6) and force vectors (F6) share the storage type; the names document
// which space a value lives in.
using Motion = Vec6;
using Force = Vec6;

// a . b over six entries in scalars. The spatial kernels store their results element by element;
// a 2-wide load spanning two such stores (Eigen's dot) cannot be forwarded from them and waits
// until they reach the cache, some twenty cycles, so freshly computed vectors are read this way.
inline double dot6(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

inline Vec3 angular(const Vec6& v) {
  return v.head<3>();
}
inline Vec3 linear(const Vec6& v) {
  return v.tail<3>();
}
inline Vec6 make_spatial(const Vec3& ang, const Vec3& lin) {
  Vec6 s;
  s << ang, lin;
  return s;
}

// The 3x3 matrix of the cross product a x b = skew(a) b (RBDA Eq. 2.23).
inline Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}

}  // namespace articula
