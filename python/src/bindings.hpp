#pragma once
// The parts of the articula module, each bound in its own source file.
#include <pybind11/pybind11.h>

namespace articula::py {

void bind_spec(pybind11::module_& m);         // Pose, Body, Drive, Spring (spec_bindings.cpp)
void bind_joint_items(pybind11::module_& m);  // Joint, Force, Coupling (spec_items.cpp)
void bind_project(pybind11::module_& m);      // Project, load, loads (project_bindings.cpp)
void bind_simulation(pybind11::module_& m);   // Simulation (simulation_bindings.cpp)
void bind_templates(pybind11::module_& m);    // articula.templates (template_bindings.cpp)
void bind_fixed_lag(pybind11::module_& m);    // fixed_lag_forward (fixed_lag_bindings.cpp)

}  // namespace articula::py
