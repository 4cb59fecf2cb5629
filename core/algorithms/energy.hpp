#pragma once
// Energy, momentum and centre of mass of the whole tree. Call forward_kinematics first (with qd
// for the velocity-dependent quantities).
#include "core/model/data.hpp"

namespace articula {

double kinetic_energy(const Model& model, const Data& data);    // Σ ½ v_i · I_i v_i
double potential_energy(const Model& model, const Data& data);  // -Σ m_i g · c_i (base origin = 0)
// Σ ^0X_i^* I_i v_i: the spatial momentum in base coordinates about the base origin.
Force spatial_momentum(const Model& model, const Data& data);
double total_mass(const Model& model);
Vec3 center_of_mass(const Model& model, const Data& data);

}  // namespace articula
