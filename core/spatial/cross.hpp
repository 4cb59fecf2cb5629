#pragma once
// Spatial cross products (RBDA Eqs. 2.31-2.33, Table 2.3), angular first.
#include "core/spatial/types.hpp"

namespace articula {

// v x m for motion vectors: [w x m_w; w x m_v + v x m_w]
inline Motion cross_motion(const Motion& v, const Motion& m) {
  const Vec3 w = v.head<3>(), vl = v.tail<3>();
  Motion out;
  out.head<3>() = w.cross(m.head<3>());
  out.tail<3>() = w.cross(m.tail<3>()) + vl.cross(m.head<3>());
  return out;
}

// v x* f for force vectors: [w x n + v x f; w x f]
inline Force cross_force(const Motion& v, const Force& f) {
  const Vec3 w = v.head<3>(), vl = v.tail<3>();
  Force out;
  out.head<3>() = w.cross(f.head<3>()) + vl.cross(f.tail<3>());
  out.tail<3>() = w.cross(f.tail<3>());
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
inline Mat6 crf(const Motion& v) { return -crm(v).transpose(); }

}  // namespace articula
