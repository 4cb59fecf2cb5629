#pragma once
// Diagnoses for simulations that cannot go on: which joint a coordinate belongs to, a singular
// mass matrix named by the joints that move no inertia, and explicit-integrator stability limits
// of stiff springs and dampers (the usual cause of a diverging run).
#include <string>
#include <vector>

#include "core/model/data.hpp"
#include "core/sim/mechanism.hpp"

namespace articula {

enum class Integrator;

// Name of the user joint owning velocity coordinate v of the model.
std::string joint_of_velocity(const Mechanism& mech, int v);
// Name of the user joint owning position coordinate q of the model.
std::string joint_of_position(const Mechanism& mech, int q);

// "" when the joint-space inertia matrix at q is positive definite over the coordinates that are
// not held (held[v] true: prescribed by a motion drive), else a message naming the joints whose
// motion carries no inertia. Pivots of H's L^T D L factor (RBDA 6.3) below 1e-12 of the largest
// diagonal element count as zero. Uses data (crba).
std::string singular_mass_diagnosis(const Mechanism& mech, Data& data, const VecX& q,
                                    const std::vector<bool>& held);

// Springs and dampers too stiff for a fixed step h with an explicit integrator: for each, the
// effective frequency ω = sqrt(k / H_vv) and damping rate c / H_vv at q (H from crba) compared
// with the integrator's stability limit on h ω (RK4 2.78, semi-implicit Euler 2). One message per
// offending spring, with the largest stable step.
std::vector<std::string> stiffness_limits(const Mechanism& mech, Data& data, const VecX& q,
                                          double h, Integrator integrator);

// Throws SetupError naming the joints that carry no inertia when H at q is singular over the
// coordinates not held. With `when` empty this is the set-up check (skipped with constraints,
// which may move massless bodies); otherwise it is called because a factorisation failed at
// the time `when` describes, and throws in any case.
void check_mass_matrix(const Mechanism& mech, const VecX& q, const std::vector<int>& held,
                       bool constrained, const std::string& when);

// Throws SetupError: the drive on a joint gave a non-finite `quantity` (position, velocity,
// acceleration, force) at t, with its law.
[[noreturn]] void throw_bad_drive(const Mechanism& mech, const DriveBinding& d, double t,
                                  const char* quantity);

// A motion law that outran the step from t0 to t1: it is not finite at t1, or it moved its joint
// further than a step can follow (0.5 rad, or half the mechanism's size for a prismatic joint),
// as a law that blows up does (1/(t - 0.5), exp(1000 t)). The message names the joint, the time
// and the law's value and rate; empty when no law did. Asked when a step fails, so that the
// failure is not blamed on a dead point or on the integration.
std::string drive_outran_step(const Mechanism& mech, const std::vector<DriveBinding>& drives,
                              double t0, double t1);

}  // namespace articula
