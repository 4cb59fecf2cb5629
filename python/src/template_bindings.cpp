// articula.templates: the parameterised mechanisms of core/spec/templates (Stewart-Gough, RSSR /
// RSUR, Bennett, Delta, serial arms from a DH table, the RBDA ladder) as new projects, with the
// parameters as keyword arguments (SI units; defaults as in File > New from Template…).
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <functional>
#include <map>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/spec/templates.hpp"
#include "project.hpp"

namespace articula::py {

namespace {
template <class P>
using Fields = std::map<std::string, std::function<void(P&, pb::handle)>>;

template <class P, class T>
std::function<void(P&, pb::handle)> set(T P::*member) {
  return [member](P& p, pb::handle v) { p.*member = v.cast<T>(); };
}

// A material by preset name ("steel", "aluminium") or by density (kg/m^3).
template <class P>
std::function<void(P&, pb::handle)> set_material(Material P::*member) {
  return [member](P& p, pb::handle v) {
    if (pb::isinstance<pb::str>(v)) {
      for (const Material& m : Material::presets())
        if (m.name == v.cast<std::string>()) return void(p.*member = m);
      throw std::invalid_argument("unknown material '" + v.cast<std::string>() + "'");
    }
    p.*member = Material::custom(v.cast<double>());
  };
}

// A bar section: {"shape": "round", "diameter": d, "inner_diameter": di} or
// {"shape": "rectangular", "width": w, "thickness": t}.
template <class P>
std::function<void(P&, pb::handle)> set_section(BarSection P::*member) {
  return [member](P& p, pb::handle v) {
    const nlohmann::json j = from_python(v);
    if (j.value("shape", std::string("rectangular")) == "round")
      p.*member = BarSection::round(j.at("diameter").get<double>(), j.value("inner_diameter", 0.0));
    else
      p.*member =
          BarSection::rectangular(j.at("width").get<double>(), j.at("thickness").get<double>());
  };
}

template <class P>
P params_from(const pb::kwargs& kwargs, const Fields<P>& fields, P p = {}) {
  for (auto [key, value] : kwargs) {
    const std::string name = key.template cast<std::string>();
    const auto it = fields.find(name);
    if (it == fields.end()) throw pb::type_error("unknown parameter '" + name + "'");
    it->second(p, value);
  }
  return p;
}

Project project_of(MechanismSpec spec) {
  LoadResult r;
  r.spec = std::move(spec);
  return Project(std::move(r));
}

const Fields<StewartParams>& stewart_fields() {
  using P = StewartParams;
  static const Fields<P> f{{"base_radius", set(&P::base_radius)},
                           {"top_radius", set(&P::top_radius)},
                           {"legs", set(&P::legs)},
                           {"height", set(&P::height)},
                           {"base_spacing", set(&P::base_spacing)},
                           {"top_spacing", set(&P::top_spacing)},
                           {"offset", set(&P::offset)},
                           {"rotation", set(&P::rotation)},
                           {"base_thickness", set(&P::base_thickness)},
                           {"top_thickness", set(&P::top_thickness)},
                           {"cylinder_diameter", set(&P::cylinder_diameter)},
                           {"rod_diameter", set(&P::rod_diameter)},
                           {"base_material", set_material(&P::base_material)},
                           {"top_material", set_material(&P::top_material)},
                           {"leg_material", set_material(&P::leg_material)},
                           {"drive_legs", set(&P::drive_legs)},
                           {"drive_amplitude", set(&P::drive_amplitude)},
                           {"drive_frequency", set(&P::drive_frequency)}};
  return f;
}

const Fields<RssrParams>& rssr_fields() {
  using P = RssrParams;
  static const Fields<P> f{{"crank", set(&P::crank)},
                           {"rocker", set(&P::rocker)},
                           {"coupler", set(&P::coupler)},
                           {"output_axis", set(&P::output_axis)},
                           {"crank_angle", set(&P::crank_angle)},
                           {"branch", set(&P::branch)},
                           {"universal_at_rocker", set(&P::universal_at_rocker)},
                           {"section", set_section(&P::section)},
                           {"material", set_material(&P::material)},
                           {"drive_crank", set(&P::drive_crank)},
                           {"crank_speed", set(&P::crank_speed)}};
  return f;
}

const Fields<BennettParams>& bennett_fields() {
  using P = BennettParams;
  static const Fields<P> f{{"a", set(&P::a)},
                           {"b", set(&P::b)},
                           {"alpha", set(&P::alpha)},
                           {"beta", set(&P::beta)},
                           {"theta1", set(&P::theta1)},
                           {"section", set_section(&P::section)},
                           {"material", set_material(&P::material)},
                           {"drive", set(&P::drive)},
                           {"speed", set(&P::speed)}};
  return f;
}

const Fields<DeltaParams>& delta_fields() {
  using P = DeltaParams;
  static const Fields<P> f{{"base_radius", set(&P::base_radius)},
                           {"platform_radius", set(&P::platform_radius)},
                           {"upper_arm", set(&P::upper_arm)},
                           {"forearm", set(&P::forearm)},
                           {"height", set(&P::height)},
                           {"arm_section", set_section(&P::arm_section)},
                           {"forearm_section", set_section(&P::forearm_section)},
                           {"material", set_material(&P::material)},
                           {"platform_thickness", set(&P::platform_thickness)},
                           {"drive_arms", set(&P::drive_arms)},
                           {"drive_amplitude", set(&P::drive_amplitude)},
                           {"drive_frequency", set(&P::drive_frequency)}};
  return f;
}

DhRow dh_row(pb::handle row) {
  const nlohmann::json j = from_python(row);
  DhRow r;
  for (const auto& [key, value] : j.items()) {
    if (key == "a")
      r.a = value;
    else if (key == "alpha")
      r.alpha = value;
    else if (key == "d")
      r.d = value;
    else if (key == "theta")
      r.theta = value;
    else if (key == "prismatic")
      r.prismatic = value;
    else if (key == "mass")
      r.mass = value;
    else if (key == "q0")
      r.q0 = value;
    else
      throw pb::type_error("unknown DH row field '" + key + "'");
  }
  return r;
}

const Fields<DhArmParams>& dh_fields() {
  using P = DhArmParams;
  static const Fields<P> f{{"rows",
                            [](P& p, pb::handle v) {
                              p.rows.clear();
                              for (pb::handle row : v) p.rows.push_back(dh_row(row));
                            }},
                           {"base_position", set(&P::base_position)},
                           {"link_radius", set(&P::link_radius)},
                           {"drive_joints", set(&P::drive_joints)},
                           {"drive_amplitude", set(&P::drive_amplitude)},
                           {"drive_frequency", set(&P::drive_frequency)}};
  return f;
}

std::string names_of(const auto& fields) {
  std::string out;
  for (const auto& [name, setter] : fields) out += (out.empty() ? "" : ", ") + name;
  return out;
}
}  // namespace

void bind_templates(pb::module_& m) {
  pb::module_ t = m.def_submodule(
      "templates",
      "Parameterised mechanisms as new projects (core/spec/templates): keyword arguments in SI "
      "units (m, kg, rad, s); materials by name ('steel', 'aluminium') or density (kg/m^3); "
      "bar sections as dicts ({'shape': 'round', 'diameter': d, 'inner_diameter': di} or "
      "{'shape': 'rectangular', 'width': w, 'thickness': t}). A bad value raises ValueError "
      "naming the parameter; an unknown name raises TypeError.");
  t.def(
      "stewart",
      [](const pb::kwargs& kw) {
        return project_of(make_stewart(params_from(kw, stewart_fields())));
      },
      ("Stewart-Gough 6-UPS platform (z up), mobility 6. Parameters: " +
       names_of(stewart_fields()) + ".")
          .c_str());
  t.def(
      "rssr",
      [](const pb::kwargs& kw) { return project_of(make_rssr(params_from(kw, rssr_fields()))); },
      ("Spatial RSSR four-bar (RSUR with universal_at_rocker=True). Parameters: " +
       names_of(rssr_fields()) + ".")
          .c_str());
  t.def(
      "bennett",
      [](const pb::kwargs& kw) {
        return project_of(make_bennett(params_from(kw, bennett_fields())));
      },
      ("Bennett 4R linkage (a / sin(alpha) = b / sin(beta)). Parameters: " +
       names_of(bennett_fields()) + ".")
          .c_str());
  t.def(
      "delta",
      [](const pb::kwargs& kw) { return project_of(make_delta(params_from(kw, delta_fields()))); },
      ("Translational Delta robot, 3-RUU (z up), mobility 3. Parameters: " +
       names_of(delta_fields()) + ".")
          .c_str());
  t.def(
      "dh_arm",
      [](const std::string& preset, const pb::kwargs& kw) {
        if (!preset.empty() && preset != "puma560")
          throw std::invalid_argument("unknown preset '" + preset + "' (known: puma560)");
        DhArmParams base = preset.empty() ? DhArmParams{} : DhArmParams::puma560();
        return project_of(make_dh_arm(params_from(kw, dh_fields(), base)));
      },
      pb::arg("preset") = "",
      ("Serial arm from a standard DH table (z up). rows: a list of dicts with a, alpha, d, "
       "theta, prismatic, mass, q0; preset='puma560' starts from Corke's PUMA 560. Parameters: " +
       names_of(dh_fields()) + ".")
          .c_str());
  t.def(
      "ladder", [](int k) { return project_of(make_ladder(k)); }, pb::arg("loops"),
      "The ladder of RBDA Fig. 8.4 with `loops` closed loops (mobility = loops).");
}

}  // namespace articula::py
