#pragma once
// Composite-rigid-body algorithm: the joint-space inertia matrix H(q) (RBDA Table 6.2).
#include "core/model/data.hpp"

namespace articula {

// Fills data.H (both triangles; branch-induced zeros stay zero) and data.Xup, data.IC.
const MatX& crba(const Model& model, Data& data, const VecX& q);

}  // namespace articula
