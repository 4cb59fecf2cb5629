#pragma once
// Constrained forward dynamics when the tree's mass matrix H is singular but the constrained
// problem is not: massless bodies whose motion the constraints determine (a massless coupler of
// a four-bar is a leaf of the spanning tree, so H alone cannot move it). Adding G^T W (G q̈ - g),
// which is zero, to the equations of motion gives (H + G^T W G) q̈ = τ - C + G^T W g + G^T μ with
// the same q̈ and μ; H + G^T W G is positive definite when H is so on the null space of G.
// Dense (the augmented matrix has no tree sparsity): used only as a fallback.
#include "core/algorithms/constrained_dynamics.hpp"

namespace articula {

// Needs data.H (crba) and data.C (nonlinear_effects); writes data.qdd and the work fields like
// constrained_forward_dynamics. Returns false when H + G^T W G is singular too (pivots of its
// LDL^T below 1e-12 of the largest diagonal element).
bool augmented_forward_dynamics(const Model& model, Data& data, const MatX& G, const VecX& g,
                                const VecX& tau, ConstrainedDynamicsWork& work,
                                double rank_tolerance = 1e-10);

}  // namespace articula
