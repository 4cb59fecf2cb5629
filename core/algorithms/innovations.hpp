#pragma once
// The innovations factorisation of the mass matrix (Rodriguez, Jain, Kreutz-Delgado, SOA Eqs.
// 0.25-0.30, .39-.40) and the products it gives in O(N): M x, M^-1 x, and the operational-space
// inverse inertias Λ^-1 = J M^-1 J^T of body-level rows (SOA Eq. 0.34, RBDA 7.5).
//
// The factors are the articulated-body quantities of ABA (RBDA Table 7.1) in base coordinates
// about the base origin (aba.cpp), where the rigid transfer φ(k, λ(k)) is the identity:
//   P_i  articulated inertia of the subtree at body i (data.oIA),  S_i = data.oS[i] (H* of SOA),
//   D_i  = S_i^T P_i S_i (its inverse in data.Dinv[i]),
//   G_i  = P_i S_i D_i^-1, the Kalman gain (data.oU[i] for 1-DoF joints; data.oU[i] D_i^-1 for
//          the others, whose oU holds P_i S_i),
//   ψ_i  = I - S_i G_i^T, the articulated transfer (motion side; its transpose carries forces).
// With L the block matrix L(k, j) = S_k^T G_j for j a strict descendant of k (identity blocks on
// the diagonal, SOA's [I + HφK] in base-to-tip numbering):
//   M = L D L^T (SOA Eq. 0.28),  M^-1 = L^-T D^-1 L^-1 (Eq. 0.30),
// and L^-1 is ABA's inward pass, L^-T its outward pass. The factorisation is whatever aba() (or
// innovations_factorisation()) left in data at q: the solves below read it, never change it.
#include <vector>

#include "core/model/data.hpp"

namespace articula {

// A row of a constraint or operational-space Jacobian in body-level form: the row applied to q̈
// is Σ_k T_k^T a_{body_k} + Σ_k c_k q̈_{coord_k}, where a_b = J_b q̈ is body b's spatial
// acceleration (base coordinates, about the base origin, velocity terms excluded). Its dual,
// the row times a multiplier μ, is the force T_k μ on body_k and the generalized force c_k μ on
// coordinate coord_k. Unused slots have body or coordinate -1; body 0 (the base) contributes
// nothing. Producers: the constraint kinds (ConstraintKind::operator_rows), point rows of the
// design report.
struct OperatorRow {
  int body[4] = {-1, -1, -1, -1};  // four: a coupling between two loop joints
  Force T[4] = {Force::Zero(), Force::Zero(), Force::Zero(), Force::Zero()};
  int coord[2] = {-1, -1};
  double c[2] = {0.0, 0.0};
};

// Workspace of the solves. Sized by resize(); no allocation afterwards.
struct InnovationsWork {
  std::vector<Force> z;   // forces propagated inward through ψ^T, base coordinates (NB+1)
  std::vector<Motion> a;  // body accelerations J_i q̈ of the last solve, base coordinates (NB+1)
  VecX tau;               // generalized forces, input of solve_in_place        (nv)
  VecX nu;                // innovations D^-1 L^-1 x                             (nv)
  VecX qdd;               // result of the last solve                           (nv)
  VecX y;                 // scratch of mass_times                              (nv)
  long body_steps = 0;    // bodies visited by the passes since the last reset (operation count)
  void resize(const Model& model);
};

// Runs ABA's passes at q with zero velocity and forces, leaving the factorisation in data (the
// dynamics solver gets it from its own aba() call instead). Returns false when a pivot D_i is
// not positive definite (a massless subtree): the factorisation does not exist.
bool innovations_factorisation(const Model& model, Data& data, const VecX& q);
// Whether every pivot left in data is finite and positive (checks D_i^-1's diagonal).
bool innovations_valid(const Model& model, const Data& data);

// w.qdd = M^-1 (w.tau + Σ_i J_i^T w.z[i]) with w.z holding body forces (base coordinates) on
// entry; on return w.a holds the body accelerations J_i w.qdd, and w.z and w.tau are consumed
// (the caller clears them before the next use). One inward and one outward pass.
void solve_in_place(const Model& model, const Data& data, InnovationsWork& w);
// w.a = J_i x for every body (base coordinates) and w.qdd = x: one outward pass, so that
// apply_row gives a row times x (its velocity for x = q̇).
void body_motions(const Model& model, const Data& data, const VecX& x, InnovationsWork& w);
// y = M^-1 x.
void inverse_mass_times(const Model& model, const Data& data, const VecX& x, VecX& y,
                        InnovationsWork& w);
// y = M x = L D L^T x: an outward pass (L^T), the pivots, an inward pass (L).
void mass_times(const Model& model, const Data& data, const VecX& x, VecX& y, InnovationsWork& w);

// Υ_i = J_i M^-1 J_i^T (6 x 6, base coordinates about the origin) for every body: the inverse
// operational-space inertia of body i alone, by the outward recursion
// Υ_i = ψ_i Υ_λ(i) ψ_i^T + S_i D_i^-1 S_i^T (SOA Eqs. .41-.42). Υ_0 = 0. (NB+1)
void inverse_operational_inertias(const Model& model, const Data& data, std::vector<Mat6>& Y);

// Λ^-1 = J M^-1 J^T for the rows `rows` (indices into `all`), m x m, both triangles: per row one
// solve with that row's dual forces (SOA Eq. 0.34 column by column, O(N)), then every row read
// off the response at its bodies and coordinates (O(1) each): O(N m + m^2) in all.
void inverse_operational_inertia(const Model& model, const Data& data,
                                 const std::vector<OperatorRow>& all, const std::vector<int>& rows,
                                 MatX& A, InnovationsWork& w);
// Row r applied to the last solve's response (w.a, w.qdd).
double apply_row(const OperatorRow& r, const InnovationsWork& w);
// Adds row r's dual times mu to the solve's inputs (w.z, w.tau).
void add_row_force(const OperatorRow& r, double mu, InnovationsWork& w);

}  // namespace articula
