// articula.Project: load, save, the items of the spec, their edits (checked, undoable), undo.
// Sketch edits are in project_sketch.cpp, analyses and simulation in project_analysis.cpp.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/doc/coupling_edits.hpp"
#include "core/doc/sketch_edits.hpp"
#include "project.hpp"

namespace articula::py {

void bind_project_sketch(pb::class_<Project>& c);
void bind_project_analysis(pb::class_<Project>& c);

namespace {
using pb::arg;

std::string at(const char* list, int index) {
  return std::string("/") + list + "/" + std::to_string(index);
}

void bind_io(pb::module_& m, pb::class_<Project>& c) {
  c.def(pb::init([](const std::string& name) {
          Project p;
          MechanismHeader h = p.doc().header();
          h.name = name;
          p.doc().apply(set_header(p.doc(), h));
          return p;
        }),
        arg("name") = "", "An empty project (gravity -9.81 m/s^2 along y), to build in Python.");
  m.def("load", &Project::load, arg("path"), arg("restore_floating") = false,
        "Read and validate a project file (format v1). Raises ProjectError with the JSON pointer "
        "of the bad field. restore_floating=True brings sketched links not connected to ground "
        "back as bodies, as the editor does.");
  m.def("loads", &Project::parse, arg("text"), arg("restore_floating") = false,
        "A project from JSON text (as load).");
  c.def(
      "save",
      [](Project& p, std::optional<std::string> path) {
        const std::string file = path.value_or(p.path);
        if (file.empty()) throw std::invalid_argument("no path: give one (the project has none)");
        p.save(file);
      },
      arg("path") = pb::none(),
      "Write the project atomically (a .bak keeps the version replaced), as the editor saves.");
  c.def(
      "to_json", [](const Project& p) { return to_text(p.spec()); },
      "The file text the project saves as (2-space indent, trailing newline).");
  c.def(
      "to_dict", [](const Project& p) { return to_python(to_json(p.spec())); },
      "The file content as a dict.");
  c.def(
      "copy", [](const Project& p) { return Project(p); }, "An independent copy (with history).");
  c.def("__copy__", [](const Project& p) { return Project(p); });
  c.def("__deepcopy__", [](const Project& p, pb::handle) { return Project(p); });
  c.def(pb::pickle([](const Project& p) { return pb::make_tuple(to_text(p.spec()), p.path); },
                   [](const pb::tuple& t) {
                     Project p = Project::parse(t[0].cast<std::string>(), true);
                     p.path = t[1].cast<std::string>();
                     return p;
                   }));
  c.def_readwrite("path", &Project::path, "The file loaded or last saved ('' if none).");
  c.def_readonly("warnings", &Project::warnings, "Warnings from loading (normalised values, ...).");
  c.def_property_readonly("revision", &Project::revision, "Changes with every edit.");
  c.def("__repr__", [](const Project& p) {
    return pb::str("<articula.Project {!r}: {} bodies, {} joints>")
        .format(p.spec().name, p.spec().bodies.size(), p.spec().joints.size());
  });
}

void bind_header(pb::class_<Project>& c) {
  auto edit_header = [](Project& p, auto change) {
    MechanismHeader h = p.doc().header();
    change(h);
    p.apply(set_header(p.doc(), h));
  };
  c.def_property(
      "name", [](const Project& p) { return p.spec().name; },
      [edit_header](Project& p, const std::string& n) {
        edit_header(p, [&](MechanismHeader& h) { h.name = n; });
      },
      "Mechanism name.");
  c.def_property(
      "gravity", [](const Project& p) { return Vec3(p.spec().gravity); },
      [edit_header](Project& p, const Vec3& g) {
        edit_header(p, [&](MechanismHeader& h) { h.gravity = g; });
      },
      "Gravity [gx, gy, gz], m/s^2.");
  c.def_property(
      "settings",
      [](const Project& p) -> pb::object {
        if (!p.spec().simulation) return pb::none();
        const SimulationSpec& s = *p.spec().simulation;
        nlohmann::json j = s.extra;
        j["duration"] = s.duration;
        j["step"] = s.step;
        j["integrator"] = s.integrator;
        return to_python(j);
      },
      [edit_header](Project& p, pb::object v) {
        std::optional<SimulationSpec> sim;
        if (!v.is_none()) {
          nlohmann::json j = from_python(v);
          sim.emplace();
          sim->duration = j.value("duration", 5.0);
          sim->step = j.value("step", 0.001);
          sim->integrator = j.value("integrator", std::string("rk4"));
          for (const char* k : {"duration", "step", "integrator"}) j.erase(k);
          sim->extra = j;
        }
        edit_header(p, [&](MechanismHeader& h) { h.simulation = sim; });
      },
      "The file's simulation block as a dict (duration, step, integrator, rtol, atol, solver) "
      "or None (defaults: 5 s, 1 ms, rk4).");
}
}  // namespace

namespace {
// The four lists of items share one shape: list, get by name, add, replace, remove.
template <class T>
struct Items {
  const char* list;                                       // "bodies"
  const std::vector<T>& (*all)(const MechanismSpec&);     // the list in the spec
  int (*find)(const MechanismSpec&, const std::string&);  // index by name (KeyError)
  Edit (*add)(EditableMechanism&, T);
  Edit (*set)(const EditableMechanism&, int, T);
  Edit (*remove)(const EditableMechanism&, int);
};

template <class T>
void bind_items(pb::class_<Project>& c, const Items<T>& it, const char* one, const char* doc) {
  const std::string s = one;
  c.def_property_readonly(
      it.list, [it](const Project& p) { return it.all(p.spec()); },
      ("Copies of the " + std::string(it.list) + ", in file order. " + doc).c_str());
  c.def(
      one,
      [it](const Project& p, const std::string& name) {
        return it.all(p.spec())[it.find(p.spec(), name)];
      },
      arg("name"), ("A copy of the " + s + " called name (KeyError if none).").c_str());
  c.def(("add_" + s).c_str(),
        [it](Project& p, T item) {
          const int n = static_cast<int>(it.all(p.spec()).size());
          p.apply_checked(at(it.list, n), [&] { return it.add(p.doc(), std::move(item)); });
        },
        arg(one),
        ("Add a " + s + " (checked: ProjectError with its pointer and the reason).").c_str());
  c.def(("set_" + s).c_str(),
        [it](Project& p, const std::string& name, T item) {
          const int i = it.find(p.spec(), name);
          p.apply_checked(at(it.list, i), [&] { return it.set(p.doc(), i, std::move(item)); });
        },
        arg("name"), arg(one),
        ("Replace the " + s + " called name (a rename carries its references along).").c_str());
  c.def(("remove_" + s).c_str(),
        [it](Project& p, const std::string& name) {
          const int i = it.find(p.spec(), name);
          p.apply_checked(at(it.list, i), [&] { return it.remove(p.doc(), i); });
        },
        arg("name"), ("Remove the " + s + " called name, with what depends on it.").c_str());
}

void bind_all_items(pb::class_<Project>& c) {
  bind_items<BodySpec>(
      c,
      {"bodies", [](const MechanismSpec& s) -> const std::vector<BodySpec>& { return s.bodies; },
       &body_index, &add_body, &set_body, &remove_body},
      "body", "Removing a body removes its joints and the forces on it.");
  bind_items<JointSpec>(
      c,
      {"joints", [](const MechanismSpec& s) -> const std::vector<JointSpec>& { return s.joints; },
       &joint_index, &add_joint, &set_joint, &remove_joint},
      "joint", "Removing a joint removes its couplings.");
  bind_items<ForceSpec>(
      c,
      {"forces", [](const MechanismSpec& s) -> const std::vector<ForceSpec>& { return s.forces; },
       &force_index, &add_force, &set_force, &remove_force},
      "force", "Point-to-point spring-dampers.");
  bind_items<CouplingSpec>(
      c,
      {"couplings",
       [](const MechanismSpec& s) -> const std::vector<CouplingSpec>& { return s.couplings; },
       &coupling_index, &add_coupling, &set_coupling, &remove_coupling},
      "coupling", "Gears, belts, racks and linear couplings.");
}

void bind_history(pb::class_<Project>& c) {
  c.def("undo", &Project::undo, "Undo the last edit; False when there is none.");
  c.def("redo", &Project::redo, "Redo the last undone edit; False when there is none.");
  c.def_property_readonly("history", &Project::undo_labels,
                          "Labels of the edits that undo() would revert, oldest first.");
  c.def_property_readonly("redo_history", &Project::redo_labels,
                          "Labels of the edits that redo() would apply, next first.");
}
}  // namespace

void bind_project(pb::module_& m) {
  pb::class_<Project> c(
      m, "Project",
      "A mechanism project: the editable description (bodies, joints, drives, couplings, "
      "forces), its edits with undo, and the analyses and simulations of it.\n\n"
      "Every edit is checked as the editor checks it and raises ProjectError (with .pointer "
      "and .message) when refused; the project is then unchanged.");
  bind_io(m, c);
  bind_header(c);
  bind_all_items(c);
  bind_history(c);
  bind_project_sketch(c);
  bind_project_analysis(c);
}

}  // namespace articula::py
