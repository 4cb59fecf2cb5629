#pragma once
// Conversions between core's spatial types (Eigen; Featherstone's ^B X_A) and OSG's (row vectors:
// p_parent = p_local * M). For render's .cpp files only: it pulls in Eigen.
#include <osg/Matrixd>
#include <osg/Vec3d>

#include "core/spatial/transform.hpp"

namespace articula {

inline osg::Vec3d to_osg(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}
inline Vec3 from_osg(const osg::Vec3d& v) {
  return {v.x(), v.y(), v.z()};
}

// The placement of frame B in frame A, from X = ^B X_A: maps B coordinates to A coordinates.
// Row i of the rotation block is B's axis i in A coordinates, which is row i of E (R = E^T).
inline osg::Matrixd pose_matrix(const Transform& X_BA) {
  const Mat3& E = X_BA.E;
  const Vec3& r = X_BA.r;
  return osg::Matrixd(E(0, 0), E(0, 1), E(0, 2), 0.0, E(1, 0), E(1, 1), E(1, 2), 0.0, E(2, 0),
                      E(2, 1), E(2, 2), 0.0, r.x(), r.y(), r.z(), 1.0);
}

// A point given in A coordinates, in B coordinates (X = ^B X_A).
inline Vec3 point_in(const Transform& X_BA, const Vec3& p_A) {
  return X_BA.E * (p_A - X_BA.r);
}

}  // namespace articula
