#pragma once
// Conversions shared by the binding sources: JSON values to and from Python objects, the module's
// exception types, and looking items up by name.
#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/spec/mechanism_spec.hpp"

namespace articula::py {

namespace pb = pybind11;

// A JSON value as the equal Python object (dict, list, str, float, int, bool, None), and back.
pb::object to_python(const nlohmann::json& j);
nlohmann::json from_python(pb::handle obj);

// The exception classes of the module (created in module.cpp): articula.ProjectError
// (ValueError, with .pointer and .message) and articula.SetupError (RuntimeError).
pb::handle& project_error_type();
pb::handle& setup_error_type();
void register_exceptions(pb::module_& m);

// Raised as KeyError: no item of that name.
struct UnknownName : std::out_of_range {
  using std::out_of_range::out_of_range;
};

// Index of the body, joint, force or coupling called `name`; throws UnknownName.
int body_index(const MechanismSpec& spec, const std::string& name);
int joint_index(const MechanismSpec& spec, const std::string& name);
int force_index(const MechanismSpec& spec, const std::string& name);
int coupling_index(const MechanismSpec& spec, const std::string& name);

}  // namespace articula::py
