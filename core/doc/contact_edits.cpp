// Contact edits (see contact_edits.hpp).
#include "core/doc/contact_edits.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/io/project.hpp"
#include "core/io/unilateral_json.hpp"

namespace articula {
namespace {

std::string body_name(const MechanismSpec& spec, int body) {
  return body < 0 ? "ground" : spec.bodies.at(body).name;
}

std::string unique_contact_name(const MechanismSpec& spec) {
  for (int k = 1;; ++k) {
    const std::string n = "C" + std::to_string(k);
    bool taken = false;
    for (const ContactSpec& c : spec.contacts) taken = taken || c.name == n;
    if (!taken) return n;
  }
}

// The contact as the loader reads it back from its file form (normals normalised, profile
// checked); throws ProjectError at "/contacts/<index>/...".
ContactSpec read_back(const MechanismSpec& spec, int index, const ContactSpec& c) {
  const nlohmann::json j = nlohmann::json::parse(contact_json(c).dump());
  const std::string ptr =
      "/contacts/" + std::to_string(index < 0 ? static_cast<int>(spec.contacts.size()) : index);
  ContactSpec out = read_contact(j, ptr, spec);
  for (int i = 0; i < static_cast<int>(spec.contacts.size()); ++i)
    if (i != index && spec.contacts[i].name == out.name)
      throw ProjectError(ptr + "/name", "duplicate contact name '" + out.name + "'");
  return out;
}

// "restitution: ..." from "/contacts/3/restitution: ...".
std::string without_prefix(const ProjectError& e, int index, const MechanismSpec& spec) {
  const std::string prefix =
      "/contacts/" + std::to_string(index < 0 ? static_cast<int>(spec.contacts.size()) : index);
  std::string field = e.pointer.substr(std::min(e.pointer.size(), prefix.size()));
  if (!field.empty() && field[0] == '/') field.erase(0, 1);
  const std::string what = e.what();
  const std::string problem = what.substr(std::min(what.size(), e.pointer.size() + 2));
  return (field.empty() ? "contact" : field) + ": " + problem;
}

ContactSpec checked(const MechanismSpec& spec, int index, const ContactSpec& c) {
  try {
    return read_back(spec, index, c);
  } catch (const ProjectError& e) {
    throw std::invalid_argument(without_prefix(e, index, spec));
  }
}

// Shortest round-trip text of a number, as the profile's expression shows it.
std::string number_text(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  for (int p = 6; p < 17; ++p) {  // fewer digits when they give back the same double
    std::ostringstream t;
    t.precision(p);
    t << v;
    if (std::stod(t.str()) == v) return t.str();
  }
  return s.str();
}

}  // namespace

std::string check_contact(const MechanismSpec& spec, int index, const ContactSpec& contact) {
  try {
    ContactSpec c = contact;
    if (index < 0 && c.name.empty()) c.name = unique_contact_name(spec);  // as add_contact names it
    checked(spec, index, c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

Edit add_contact(EditableMechanism& doc, ContactSpec contact) {
  if (contact.name.empty()) contact.name = unique_contact_name(doc.spec());
  ContactSpec c = checked(doc.spec(), -1, contact);
  const std::string label = "Add contact " + c.name;
  return {label, {insert_contact(doc, std::move(c))}};
}

Edit set_contact(const EditableMechanism& doc, int index, ContactSpec after) {
  const std::string& old = doc.spec().contacts.at(index).name;
  ContactSpec c = checked(doc.spec(), index, after);
  return {(c.name == old ? "Edit " : "Rename ") + old, {replace_contact(doc, index, std::move(c))}};
}

Edit remove_contact(const EditableMechanism& doc, int index) {
  return {"Delete contact " + doc.spec().contacts.at(index).name,
          {remove_contact_change(doc, index)}};
}

ContactSpec ground_line_contact(const MechanismSpec& spec, int body, const Vec3& local,
                                double radius, const Vec3& a, const Vec3& b, const Vec3& centre) {
  const Vec3 along(b.x() - a.x(), b.y() - a.y(), 0.0);
  if (along.norm() < 1e-9) throw std::invalid_argument("the ground line's two points coincide");
  Vec3 n = Vec3(-along.y(), along.x(), 0.0).normalized();  // left of a->b
  if (n.dot(centre - a) < 0) n = -n;
  ContactSpec c;
  c.body = body_name(spec, body);
  c.point = local;
  c.radius = radius;
  c.surface_type = "plane";
  c.surface_body = "ground";
  c.surface_point = Vec3(a.x(), a.y(), 0.0);
  c.surface_normal = n;
  return c;
}

ContactSpec cam_contact(const MechanismSpec& spec, int cam_body, const Vec3& centre,
                        int follower_body, const Vec3& roller, double radius,
                        const Vec3& roller_in_cam) {
  const Vec3 r = roller_in_cam - centre;
  const double d = std::hypot(r.x(), r.y());
  if (!(d > radius))
    throw std::invalid_argument(
        "the roller covers the cam's centre: click a follower point "
        "farther than the roller's radius from the centre");
  const double reach = d - radius, e = reach / 4, R = reach - e;
  const double phi = std::atan2(r.y(), r.x());
  const std::string es = number_text(e), shifted = "(theta " + std::string(phi < 0 ? "+ " : "- ") +
                                                   number_text(std::abs(phi)) + ")";
  ContactSpec c;
  c.body = body_name(spec, follower_body);
  c.point = roller;
  c.radius = radius;
  c.surface_type = "cam";
  c.surface_body = body_name(spec, cam_body);
  c.surface_point = centre;
  c.profile = es + "*cos" + shifted + " + sqrt(" + number_text(R * R) + " - " + number_text(e * e) +
              "*sin" + shifted + "^2)";
  return c;
}

}  // namespace articula
