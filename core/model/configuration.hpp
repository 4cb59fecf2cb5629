#pragma once
// Whole-model configuration-space operations, joint by joint (quaternion joints stay unit).
#include <random>

#include "core/model/model.hpp"

namespace articula {

VecX neutral_configuration(const Model& model);
// q ⊕ v dt, exact for constant v on each joint.
VecX integrate(const Model& model, const VecX& q, const VecX& v, double dt);
void integrate_in_place(const Model& model, VecX& q, const VecX& v, double dt);
// v with integrate(q0, v, 1) = q1 (nv values).
VecX difference(const Model& model, const VecX& q1, const VecX& q0);
// dq/dt for velocity v (nq values).
VecX q_dot(const Model& model, const VecX& q, const VecX& v);
void normalize(const Model& model, VecX& q);
// A uniformly random configuration: angles in [-π, π], translations in [-1, 1], random unit
// quaternions. For tests and fuzzing.
VecX random_configuration(const Model& model, std::mt19937& rng);

}  // namespace articula
