#pragma once
// Contact edits (contract-additions-2 §2): adding a contact (a sphere on a body against a plane,
// a cam profile or a slot on another body), changing its properties and removing it, each one
// undo step. A contact is checked as the file loader checks it (the same messages, the field named
// without the "/contacts/i/" prefix), so whatever the document holds saves and reloads unchanged.
#include <string>

#include "core/doc/editable_mechanism.hpp"

namespace articula {

// "" when `contact` may be item `index` of spec.contacts (-1: a new one, which add_contact names
// when its name is empty), else "field: problem".
std::string check_contact(const MechanismSpec& spec, int index, const ContactSpec& contact);

// Adds `contact` (named "C1", "C2", ... when its name is empty). Throws std::invalid_argument with
// check_contact's message when it names a missing body or has bad values.
Edit add_contact(EditableMechanism& doc, ContactSpec contact);
Edit set_contact(const EditableMechanism& doc, int index, ContactSpec after);
Edit remove_contact(const EditableMechanism& doc, int index);

// A point (radius 0) or sphere at `local` on `body` (file index) against a plane fixed on ground
// through the world line a-b (z = 0), its normal toward the sphere's centre `centre` (world; on
// the line: the normal to the left of a->b). Throws std::invalid_argument when a and b coincide.
ContactSpec ground_line_contact(const MechanismSpec& spec, int body, const Vec3& local,
                                double radius, const Vec3& a, const Vec3& b, const Vec3& centre);

// A disc cam on `cam_body` about `centre` (cam-body coordinates) against a roller of `radius` at
// `roller` (follower_body coordinates); `roller_in_cam` is the roller's centre in cam-body
// coordinates now. The profile is an eccentric circle, offset a quarter of the reach d - radius
// toward the roller, that touches the roller where it is (gap 0, the follower at full lift):
// rho(theta) = e cos(theta - phi) + sqrt(R^2 - e^2 sin(theta - phi)^2), e + R = d - radius.
// Throws std::invalid_argument when the roller does not clear the centre (d <= radius).
ContactSpec cam_contact(const MechanismSpec& spec, int cam_body, const Vec3& centre,
                        int follower_body, const Vec3& roller, double radius,
                        const Vec3& roller_in_cam);

}  // namespace articula
