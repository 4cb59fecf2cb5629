#include "convert.hpp"

#include "core/io/project.hpp"
#include "core/sim/expression.hpp"
#include "core/sim/mechanism.hpp"
#include "core/sim/motion_law.hpp"

namespace articula::py {

pb::object to_python(const nlohmann::json& j) {
  // Through the json module: nlohmann writes the shortest round-trip form of every double,
  // Python reads it back exactly.
  return pb::module_::import("json").attr("loads")(j.dump());
}

nlohmann::json from_python(pb::handle obj) {
  const std::string text = pb::str(pb::module_::import("json").attr("dumps")(obj));
  return nlohmann::json::parse(text);
}

// The types live as long as the interpreter: kept as leaked references, so that no destructor
// runs after Python has finalised.
pb::handle& project_error_type() {
  static pb::handle type;
  return type;
}

pb::handle& setup_error_type() {
  static pb::handle type;
  return type;
}

namespace {
// ProjectError's text is "<pointer or />: <problem>"; the problem alone.
std::string problem_of(const ProjectError& e) {
  const std::string what = e.what();
  const std::string prefix = (e.pointer.empty() ? std::string("/") : e.pointer) + ": ";
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

void raise_project_error(const ProjectError& e) {
  pb::object err = project_error_type()(e.what());
  err.attr("pointer") = e.pointer;
  err.attr("message") = problem_of(e);
  PyErr_SetObject(project_error_type().ptr(), err.ptr());
}

pb::handle make_type(pb::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string qualified = std::string("articula.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type) throw pb::error_already_set();
  m.attr(name) = pb::handle(type);
  return pb::handle(type);  // the new reference is never released
}
}  // namespace

void register_exceptions(pb::module_& m) {
  project_error_type() = make_type(
      m, "ProjectError", PyExc_ValueError,
      "Invalid input: a project file, a value given to an edit or a run option.\n\n"
      "Attributes: ``pointer`` (JSON pointer of the offending field, '' for the whole document)\n"
      "and ``message`` (the problem, without the pointer). articula-cli exits with status 2.");
  setup_error_type() =
      make_type(m, "SetupError", PyExc_RuntimeError,
                "The mechanism cannot be assembled or simulated (a loop that cannot close, over-\n"
                "determining drives, a run that diverges). articula-cli exits with status 3.");
  pb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ProjectError& e) {
      raise_project_error(e);
    } catch (const SetupError& e) {
      PyErr_SetString(setup_error_type().ptr(), e.what());
    } catch (const UnknownName& e) {
      PyErr_SetString(PyExc_KeyError, e.what());
    } catch (const ExpressionError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const MotionLawError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

namespace {
template <class Find>
int index_or_throw(Find find, const std::string& what, const std::string& name) {
  const int i = find(name);
  if (i < 0) throw UnknownName("no " + what + " named '" + name + "'");
  return i;
}
}  // namespace

int body_index(const MechanismSpec& spec, const std::string& name) {
  return index_or_throw([&](const std::string& n) { return spec.body_index(n); }, "body", name);
}
int joint_index(const MechanismSpec& spec, const std::string& name) {
  return index_or_throw([&](const std::string& n) { return spec.joint_index(n); }, "joint", name);
}
int coupling_index(const MechanismSpec& spec, const std::string& name) {
  return index_or_throw([&](const std::string& n) { return spec.coupling_index(n); }, "coupling",
                        name);
}
int force_index(const MechanismSpec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.forces.size(); ++i)
    if (spec.forces[i].name == name) return static_cast<int>(i);
  throw UnknownName("no force named '" + name + "'");
}

}  // namespace articula::py
