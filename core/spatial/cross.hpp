#pragma once
// Spatial cross products (RBDA Eqs. 2.31-2.33, Table 2.3), angular first.
#include "core/spatial/types.hpp"

namespace articula {

// v x m for motion vectors: [w x m_w; w x m_v + v x m_w] (scalars: see transform.hpp)
inline Motion cross_motion(const Motion& v, const Motion& m) {
  Motion out;
  out[0] = v[1] * m[2] - v[2] * m[1];
  out[1] = v[2] * m[0] - v[0] * m[2];
  out[2] = v[0] * m[1] - v[1] * m[0];
  out[3] = v[1] * m[5] - v[2] * m[4] + (v[4] * m[2] - v[5] * m[1]);
  out[4] = v[2] * m[3] - v[0] * m[5] + (v[5] * m[0] - v[3] * m[2]);
  out[5] = v[0] * m[4] - v[1] * m[3] + (v[3] * m[1] - v[4] * m[0]);
  return out;
}

// v x* f for force vectors: [w x n + v x f; w x f]
inline Force cross_force(const Motion& v, const Force& f) {
  Force out;
  out[0] = v[1] * f[2] - v[2] * f[1] + (v[4] * f[5] - v[5] * f[4]);
  out[1] = v[2] * f[0] - v[0] * f[2] + (v[5] * f[3] - v[3] * f[5]);
  out[2] = v[0] * f[1] - v[1] * f[0] + (v[3] * f[4] - v[4] * f[3]);
  out[3] = v[1] * f[5] - v[2] * f[4];
  out[4] = v[2] * f[3] - v[0] * f[5];
  out[5] = v[0] * f[4] - v[1] * f[3];
  return out;
}

// Dense operators crm(v) = v x and crf(v) = v x* = -crm(v)^T (spatial_v2 crm/crf).
inline Mat6 crm(const Motion& v) {
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = skew(v.head<3>());
  m.bottomRightCorner<3, 3>() = skew(v.head<3>());
  m.bottomLeftCorner<3, 3>() = skew(v.tail<3>());
  return m;
}
inline Mat6 crf(const Motion& v) {
  return -crm(v).transpose();
}

}  // namespace articula
