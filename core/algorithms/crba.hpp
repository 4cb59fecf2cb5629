#pragma once
// Composite-rigid-body algorithm: the joint-space inertia matrix H(q) (RBDA Table 6.2).
#include "core/model/data.hpp"

namespace articula {

// Fills data.H (both triangles; branch-induced zeros stay zero) and data.Xup, data.IC.
const MatX& crba(const Model& model, Data& data, const VecX& q);
// The same from the joint transforms and subspaces already in data (data.jc, data.Xup from a
// forward_kinematics pass at this q): the closed-loop solve runs kinematics once for all terms.
const MatX& crba_from_kinematics(const Model& model, Data& data);

}  // namespace articula
