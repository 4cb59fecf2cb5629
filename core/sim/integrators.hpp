#pragma once
// Fixed-step integrators for q̈ = f(t, q, q̇) on the configuration manifold. Quaternion joints
// are integrated through dq/dt and renormalised at the end of each step (projection).
#include <functional>

#include "core/model/model.hpp"

namespace articula {

enum class Integrator { RK4, Euler, RK45 };

using AccelerationFn = std::function<void(double t, const VecX& q, const VecX& v, VecX& qdd)>;

// Buffers reused across steps so that stepping does not allocate.
struct IntegratorWorkspace {
  explicit IntegratorWorkspace(const Model& model);
  VecX qs, vs, kq[4], kv[4];
};

// Classical fourth-order Runge-Kutta.
void rk4_step(const Model& model, const AccelerationFn& f, double t, double h, VecX& q, VecX& v,
              IntegratorWorkspace& ws);
// Semi-implicit (symplectic) Euler: v += h q̈(q, v); q := q ⊕ h v.
void euler_step(const Model& model, const AccelerationFn& f, double t, double h, VecX& q, VecX& v,
                IntegratorWorkspace& ws);

// Dormand-Prince 5(4) embedded pair: one attempted step of size h from (q, v), the fifth-order
// result in (q_new, v_new). Returns the error norm relative to the tolerances (RMS of
// |err| / (atol + rtol |y|)); the step is acceptable when it is <= 1.
struct AdaptiveWorkspace {
  explicit AdaptiveWorkspace(const Model& model);
  VecX qs, vs, kq[7], kv[7];
};
double dopri5_attempt(const Model& model, const AccelerationFn& f, double t, double h,
                      const VecX& q, const VecX& v, double rtol, double atol, VecX& q_new,
                      VecX& v_new, AdaptiveWorkspace& ws);
// Fifth-order quadrature weights of the pair (for quantities integrated alongside, like work).
extern const double kDopri5Weights[7];

}  // namespace articula
